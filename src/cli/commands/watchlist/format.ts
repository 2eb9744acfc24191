// What the watchlist commands share: the contracts named by code, and a watchlist as a heading and a table.

import type { Watchlist } from '../../../contract/wire.js';
import { formatHeading, formatTable } from '../../output.js';

/** The fields of a Watchlist, which --json may select before the request. */
export const WATCHLIST_FIELDS = [
  'id',
  'person_id',
  'name',
  'contracts',
] as const satisfies readonly (keyof Watchlist)[];

const CONTRACT_COLUMNS = ['security_type', 'exchange', 'code', 'target_code'];

/** Codes as the API's contract requests; the gateway finds each one's type and exchange. */
export const contractsOf = (codes: readonly string[]) => codes.map((code) => ({ code }));

/** `wl-1  tech  (2 contracts)` and the contracts as a table. */
export function formatWatchlist(list: Watchlist, color = false): string {
  const count = list.contracts.length === 1 ? '1 contract' : `${list.contracts.length} contracts`;
  const heading = formatHeading(`${list.id}  ${list.name}  (${count})`, color);
  return list.contracts.length === 0 ? heading : `${heading}\n${formatTable(list.contracts, CONTRACT_COLUMNS, color)}`;
}

/** One row per list: id, name, how many contracts and their codes. */
export function formatWatchlists(lists: readonly Watchlist[], color = false): string {
  if (lists.length === 0) return 'No watchlists; `sjgate watchlist create NAME [CODE...]` makes one.';
  const rows = lists.map(({ id, name, contracts }) => ({
    id,
    name,
    contracts: contracts.length,
    codes: contracts.map((c) => c.code).join(' '),
  }));
  return formatTable(rows, ['id', 'name', 'contracts', 'codes'], color);
}
