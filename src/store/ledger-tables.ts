// What the orders did to the accounts: cash entries and positions.
import type { Connection } from './connection.js';
import {
  assertIsoDate,
  type CashEntry,
  type CashRow,
  type PositionRow,
  positionFromRow,
  type StoredPosition,
  toJson,
} from './records.js';

export class LedgerTables {
  constructor(private readonly connection: Connection) {}

  /** Returns the entry's id. */
  addCashEntry(entry: CashEntry): number {
    if (entry.settleDate !== null) assertIsoDate(entry.settleDate, 'settleDate');
    const { accountKey, at, amount, reason, ref, settleDate } = entry;
    const result = this.connection.guarded(({ addCashEntry }) =>
      addCashEntry.run({ accountKey, at, amount, reason, ref, settleDate }),
    );
    return Number(result.lastInsertRowid);
  }

  /** In the order they were added. */
  cashEntries(accountKey: string): CashEntry[] {
    return this.connection.guarded(({ cashEntries }) => cashEntries.all(accountKey)) satisfies CashRow[];
  }

  /**
   * The sum of the account's entries; with `settledBy` ('YYYY-MM-DD'), only those that count at once or
   * settle on or before that date.
   */
  cashBalance(accountKey: string, asOf: { settledBy?: string } = {}): number {
    const { settledBy } = asOf;
    if (settledBy === undefined) return this.connection.guarded(({ cashBalance }) => cashBalance.get(accountKey)) ?? 0;
    assertIsoDate(settledBy, 'settledBy');
    return this.connection.guarded(({ settledCashBalance }) => settledCashBalance.get({ accountKey, settledBy })) ?? 0;
  }

  /** Inserts or replaces the position at (accountKey, key); a null record deletes it. */
  savePosition(position: StoredPosition): void {
    const { accountKey, key, record } = position;
    this.connection.guarded(({ deletePosition, savePosition }) =>
      record === null
        ? deletePosition.run({ accountKey, key })
        : savePosition.run({ accountKey, key, record: toJson(record) }),
    );
  }

  /** By account, then key. */
  positions(accountKey?: string): StoredPosition[] {
    const rows = this.connection.guarded(({ allPositions, accountPositions }) =>
      accountKey === undefined ? allPositions.all() : accountPositions.all(accountKey),
    );
    return rows.map((row: PositionRow) => positionFromRow(row));
  }
}
