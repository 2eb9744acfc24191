// The durable journal: every order state change, deal, order event, cash entry and position, written in the
// same transaction that changes them and before they are acknowledged. A restart rebuilds from it.
import Database from 'better-sqlite3';
import { Connection } from './connection.js';
import { explainStoreError } from './errors.js';
import { EventLog } from './event-log.js';
import { OrderTables } from './order-tables.js';
import {
  assertIsoDate,
  type CashEntry,
  type CashRow,
  type PositionRow,
  positionFromRow,
  type StoredPosition,
  toJson,
} from './records.js';
import { migrate } from './schema.js';

export { JournalError } from './errors.js';
export type * from './records.js';

export interface JournalOptions {
  /**
   * How long a write waits for another process's lock before failing. The API is synchronous, so the wait
   * blocks the event loop: keep it short. In normal operation only one process writes and nothing waits.
   */
  busyTimeoutMs?: number;
}

const DEFAULT_BUSY_TIMEOUT_MS = 1000;

export class Journal {
  private readonly connection: Connection;
  /** Orders, their status changes and their deals. */
  readonly orders: OrderTables;
  /** Order events, by seq. */
  readonly events: EventLog;

  private constructor(
    private readonly db: Database.Database,
    readonly path: string,
  ) {
    this.connection = new Connection(db, path);
    this.orders = new OrderTables(this.connection);
    this.events = new EventLog(this.connection);
  }

  /** Opens (creating if need be) the journal at `path`, whose directory must exist; ':memory:' for tests. */
  static open(path: string, options: JournalOptions = {}): Journal {
    let db: Database.Database | undefined;
    try {
      db = new Database(path, { timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS });
      // WAL: readers never block the writer, and a commit is one append to the log.
      db.pragma('journal_mode = WAL');
      // FULL: a commit is on disk (the log is fsynced) before it returns, so an acknowledged order survives
      // a power loss too, not only a crash of the process.
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      migrate(db, path);
      return new Journal(db, path);
    } catch (error) {
      db?.close();
      throw explainStoreError(error, path);
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /**
   * Runs `work` in one IMMEDIATE transaction: all of its writes or none. A call inside another joins it,
   * so only the outermost commits; an error that leaves the outermost rolls everything back.
   */
  transaction<T>(work: () => T): T {
    if (this.db.inTransaction) return work();
    try {
      this.connection.statements.begin.run();
      const result = work();
      if (result instanceof Promise) {
        throw new TypeError('Journal.transaction: the work must be synchronous, it returned a promise');
      }
      this.connection.statements.commit.run();
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.connection.statements.rollback.run();
      throw explainStoreError(error, this.path);
    }
  }

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

  /**
   * Maps a client's idempotency key to the order it placed and the request that placed it (compared with a retry's;
   * null when unknown); the first order remembered for a key stays.
   */
  rememberIdempotencyKey(key: string, orderId: string, at: number, request: string | null = null): void {
    this.connection.guarded(({ rememberIdempotencyKey }) => rememberIdempotencyKey.run({ key, orderId, at, request }));
  }

  orderForIdempotencyKey(key: string): { orderId: string; request: string | null } | undefined {
    return this.connection.guarded(({ orderForIdempotencyKey }) => orderForIdempotencyKey.get(key));
  }

  getMeta(name: string): string | undefined {
    return this.connection.guarded(({ getMeta }) => getMeta.get(name));
  }

  setMeta(name: string, value: string): void {
    this.connection.guarded(({ setMeta }) => setMeta.run({ name, value }));
  }
}
