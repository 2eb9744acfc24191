// Realized profit and loss over any range of days (issue 22): today's and yesterday's rows are in the ledger's memory,
// older ones the checkpoints moved into the journal's archive (SavedOrders.archive), read back per query. An
// account's rows are numbered in booking order, so the archived ones (ids up to archivedThrough) come first.

import type { ArchivedRow, ArchiveReader } from '../../port.js';
import type { AccountState, FutureRealized, StockRealized } from './account-state.js';

type Realized = StockRealized | FutureRealized;

/** The rows of an account in memory, of the one kind it has. */
function inMemory(account: AccountState): Realized[] {
  return account.type === 'S' ? account.stockRealized : account.futureRealized;
}

/** An account's realized rows dated `begin` to `end` (inclusive), oldest first. */
export function realizedWithin<T extends Realized>(
  account: AccountState | undefined,
  archive: ArchiveReader | undefined,
  begin: string,
  end: string,
): T[] {
  if (!account) return [];
  const within = (row: Realized) => row.record.date >= begin && row.record.date <= end;
  const archived =
    archive && account.archivedThrough > 0
      ? archive.within(account.key, begin, end, account.archivedThrough).map((body) => JSON.parse(body) as T)
      : [];
  return [...archived, ...(inMemory(account).filter(within) as T[])];
}

/** One of an account's realized rows by id, wherever it is kept. */
export function realizedById<T extends Realized>(
  account: AccountState | undefined,
  archive: ArchiveReader | undefined,
  id: number,
): T | undefined {
  if (!account) return undefined;
  if (id > account.archivedThrough) return inMemory(account).find((row) => row.record.id === id) as T | undefined;
  const body = archive?.byId(account.key, id, account.archivedThrough);
  return body === undefined ? undefined : (JSON.parse(body) as T);
}

/** How many realized rows an account has had. */
export function realizedCount(account: AccountState | undefined): number {
  return account ? account.archivedThrough + inMemory(account).length : 0;
}

/**
 * The rows of an account dated before `earliestDay` that lead its rows in memory (booking order: a row of a later
 * day stops them), to move into the archive.
 */
export function rowsToArchive(account: AccountState, earliestDay: string): { rows: ArchivedRow[]; through: number } {
  const rows: ArchivedRow[] = [];
  let through = account.archivedThrough;
  for (const row of inMemory(account)) {
    if (row.record.date >= earliestDay) break;
    rows.push({ accountKey: account.key, id: row.record.id, date: row.record.date, body: JSON.stringify(row) });
    through = row.record.id;
  }
  return { rows, through };
}

/** Forgets the rows of an account archived through `through` (rowsToArchive's, once the journal holds them). */
export function forgetArchived(account: AccountState, count: number, through: number): void {
  inMemory(account).splice(0, count);
  account.archivedThrough = through;
}
