// Seeded, portable randomness: the same seed and keys give the same numbers on every machine.

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over the keys' text, finished with a murmur3 mix: a 32-bit hash of any list of keys. */
export function hashKeys(...keys: (string | number)[]): number {
  return finish(fnv(FNV_OFFSET, keys.join('\u0001')));
}

/** hashKeys(...keys, 1) and hashKeys(...keys, 2) for the price of one: FNV-1a goes on from the keys' own state. */
export function hashKeysPair(keys: readonly (string | number)[]): [number, number] {
  if (keys.length === 0) return [hashKeys(1), hashKeys(2)];
  const separated = Math.imul(fnv(FNV_OFFSET, keys.join('\u0001')) ^ 1, FNV_PRIME);
  const digit = (char: string) => finish(Math.imul(separated ^ char.charCodeAt(0), FNV_PRIME));
  return [digit('1'), digit('2')];
}

/** A number in [0, 1) that depends only on the keys. */
export function unitOf(...keys: (string | number)[]): number {
  return hashKeys(...keys) / 2 ** 32;
}

/**
 * unitOf(...keys, what) for each `what` asked of the same keys, which are hashed once: FNV-1a goes on from their state
 * (a warrant's terms draw seven numbers of one issue).
 */
export function unitsOf(...keys: [string | number, ...(string | number)[]]): (what: string) => number {
  const start = fnv(FNV_OFFSET, `${keys.join('\u0001')}\u0001`);
  return (what) => finish(fnv(start, what)) / 2 ** 32;
}

/**
 * FNV-1a by code point, as iterating the string would, but without its iterator (this runs for every simulated day
 * of every listed stock): a surrogate pair counts as its one code point.
 */
function fnv(start: number, text: string): number {
  let hash = start;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low < 0xe000) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    hash ^= code;
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash;
}

function finish(fnvHash: number): number {
  let hash = fnvHash;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
