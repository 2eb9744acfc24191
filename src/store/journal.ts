// The durable journal: every order state change, deal, order event, cash entry and position, written in the
// same transaction that changes them and before they are acknowledged. A restart rebuilds from it.
import Database from 'better-sqlite3';
import { CheckpointTable } from './checkpoint-table.js';
import { Connection } from './connection.js';
import { explainStoreError } from './errors.js';
import { EventLog } from './event-log.js';
import { IdempotencyKeys, MetaValues } from './keys-and-meta.js';
import { LedgerTables } from './ledger-tables.js';
import { OrderTables } from './order-tables.js';
import { migrate } from './schema.js';
import { WalSync } from './wal-sync.js';
import { WatchlistTable } from './watchlist-table.js';

export type { ArchivedRow, CheckpointLots, StoredCheckpoint } from './checkpoint-table.js';
export { JournalError } from './errors.js';
export type * from './records.js';
export type { StoredWatchlist } from './watchlist-table.js';

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
  /** Cash entries and positions. */
  readonly ledger: LedgerTables;
  readonly idempotencyKeys: IdempotencyKeys;
  readonly meta: MetaValues;
  /** The persons' lists of contracts. */
  readonly watchlists: WatchlistTable;
  /** The latest checkpoint of a venue's derived state. */
  readonly checkpoints: CheckpointTable;
  private readonly wal: WalSync;

  private constructor(
    private readonly db: Database.Database,
    readonly path: string,
  ) {
    this.connection = new Connection(db, path);
    this.orders = new OrderTables(this.connection);
    this.events = new EventLog(this.connection);
    this.ledger = new LedgerTables(this.connection);
    this.idempotencyKeys = new IdempotencyKeys(this.connection);
    this.meta = new MetaValues(this.connection);
    this.watchlists = new WatchlistTable(this.connection);
    this.checkpoints = new CheckpointTable(this.connection);
    // Inside a transaction its changes are not committed yet: counted as unknown, so that they are synced later.
    const totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
    const changes = () => (db.inTransaction ? Number.NaN : totalChanges.get()!);
    this.wal = new WalSync(db.memory ? null : `${db.name}-wal`, undefined, changes);
  }

  /** Opens (creating if need be) the journal at `path`, whose directory must exist; ':memory:' for tests. */
  static open(path: string, options: JournalOptions = {}): Journal {
    let db: Database.Database | undefined;
    try {
      db = new Database(path, { timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS });
      // WAL: readers never block the writer, and a commit is one append to the log.
      db.pragma('journal_mode = WAL');
      // NORMAL: a commit returns once the log is written, not yet on disk; synced() puts it there off the event loop
      // (wal-sync.ts), and nothing is acknowledged before, so an acknowledged order survives a power loss too.
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      migrate(db, path);
      return new Journal(db, path);
    } catch (error) {
      db?.close();
      throw explainStoreError(error, path);
    }
  }

  close(): void {
    this.wal.close();
    if (this.db.open) this.db.close();
  }

  /** Runs `work` in one transaction (see transaction) and resolves with its result once that is on disk. */
  async durably<T>(work: () => T): Promise<T> {
    const result = this.transaction(work);
    await this.synced();
    return result;
  }

  /** Resolves once every transaction committed so far is on disk (an fsync on the thread pool, shared by many). */
  synced(): Promise<void> {
    return this.wal.synced();
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
}
