// The codes of a listing nearest to one that is not listed, for "did you mean" in a not-found message: those at the
// fewest edits (at most two), the continuous aliases of the futures roots included.

import { SECURITY_TYPES } from './contracts.js';
import { continuousCode } from './derivative-codes.js';
import type { ListedContracts } from './listed-contracts.js';

const MOST_EDITS = 2;

/** Levenshtein distance, giving up (returning limit + 1) once it must exceed `limit`. */
function editsBetween(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] as number;
}

/** Up to `count` listed codes nearest to `code` (case folded), nearest first, then in code order. */
export function nearCodes(code: string, listed: ListedContracts, futuresRoots: readonly string[], count = 3): string[] {
  const wanted = code.toUpperCase();
  const aliases = futuresRoots.flatMap((root) => [continuousCode(root, 1), continuousCode(root, 2)]);
  const codes = [...SECURITY_TYPES.flatMap((type) => listed.all(type).map((info) => info.code)), ...aliases];
  return [...new Set(codes)]
    .map((candidate) => ({ candidate, edits: editsBetween(wanted, candidate, MOST_EDITS) }))
    .filter(({ edits }) => edits <= MOST_EDITS)
    .sort((a, b) => a.edits - b.edits || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map(({ candidate }) => candidate);
}
