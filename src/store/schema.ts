// The journal's tables, versioned with PRAGMA user_version. A released migration is never edited:
// a change of schema is a new migration appended to the list.
import type Database from 'better-sqlite3';
import { JournalError } from './errors.js';

/** The SQL of one step; the database's user_version after step i (from 0) is i + 1. */
interface Migration {
  description: string;
  sql: string;
}

// STRICT tables reject a value of the wrong type (a fractional timestamp, a string price) instead of storing it.
// Children reference their order with deferred foreign keys, so that inside one transaction the broker may
// write an order and its deals in any order; the check runs at commit.
const MIGRATIONS: readonly Migration[] = [
  {
    description: 'orders, status changes, deals, events, cash, positions, idempotency keys, meta',
    sql: `
      CREATE TABLE orders (
        id TEXT PRIMARY KEY,
        account_key TEXT NOT NULL,
        code TEXT NOT NULL,
        status TEXT NOT NULL,
        placed_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        open INTEGER NOT NULL CHECK (open IN (0, 1)),
        record TEXT NOT NULL
      ) STRICT;
      CREATE INDEX orders_by_placed_at ON orders (placed_at);
      CREATE INDEX orders_by_account ON orders (account_key, placed_at);
      -- The open book is small and the history grows every day: these partial indexes hold only open orders.
      CREATE INDEX open_orders ON orders (placed_at) WHERE open = 1;
      CREATE INDEX open_orders_by_account ON orders (account_key, placed_at) WHERE open = 1;

      CREATE TABLE order_status_changes (
        id INTEGER PRIMARY KEY,
        order_id TEXT NOT NULL REFERENCES orders (id) DEFERRABLE INITIALLY DEFERRED,
        at INTEGER NOT NULL,
        status TEXT NOT NULL,
        message TEXT NOT NULL
      ) STRICT;
      CREATE INDEX status_changes_by_order ON order_status_changes (order_id, id);

      CREATE TABLE deals (
        order_id TEXT NOT NULL REFERENCES orders (id) DEFERRABLE INITIALLY DEFERRED,
        seq INTEGER NOT NULL CHECK (seq >= 1),
        account_key TEXT NOT NULL,
        code TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('Buy', 'Sell')),
        price REAL NOT NULL,
        quantity INTEGER NOT NULL,
        at INTEGER NOT NULL,
        record TEXT NOT NULL,
        UNIQUE (order_id, seq)
      ) STRICT;
      CREATE INDEX deals_by_at ON deals (at);
      CREATE INDEX deals_by_account ON deals (account_key, at);

      -- AUTOINCREMENT: a seq is never handed out twice, even after the newest events are deleted.
      CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        account_key TEXT NOT NULL,
        payload TEXT NOT NULL
      ) STRICT;
      CREATE INDEX events_by_account ON events (account_key, seq);

      -- Dates are 'YYYY-MM-DD' so that comparing them as text compares them as dates.
      CREATE TABLE cash_entries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        account_key TEXT NOT NULL,
        at INTEGER NOT NULL,
        amount REAL NOT NULL,
        reason TEXT NOT NULL,
        ref TEXT,
        settle_date TEXT CHECK (settle_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]')
      ) STRICT;
      CREATE INDEX cash_by_account ON cash_entries (account_key, id);

      CREATE TABLE positions (
        account_key TEXT NOT NULL,
        key TEXT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (account_key, key)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE idempotency_keys (
        key TEXT PRIMARY KEY,
        order_id TEXT NOT NULL REFERENCES orders (id) DEFERRABLE INITIALLY DEFERRED,
        at INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE meta (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    // Every index is one more page written (and fsynced) per transaction, and one keyed by order id lands on a
    // random page each time: these served only queries by account or by order that nothing runs while trading.
    // Those queries still answer, by scanning; reading events after a seq scans only the newer ones.
    description: 'drop the indexes by account and of status changes by order',
    sql: `
      DROP INDEX status_changes_by_order;
      DROP INDEX orders_by_account;
      DROP INDEX deals_by_account;
      DROP INDEX cash_by_account;
      DROP INDEX events_by_account;
    `,
  },
  {
    // The gateway compares a retry under a key with the request that placed the order; before this it was kept in
    // the simulator's order record, and keys written then have none (a retry of them is not compared).
    description: 'the request an idempotency key placed',
    sql: 'ALTER TABLE idempotency_keys ADD COLUMN request TEXT;',
  },
  {
    // A person's named lists of contracts (the dashboard's market watch, `sjgate watchlist`). The id is the rowid, so
    // AUTOINCREMENT: an id once handed out (wl-7) never names another list, even after wl-7 is deleted.
    description: 'watchlists',
    sql: `
      CREATE TABLE watchlists (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        person_id TEXT NOT NULL,
        name TEXT NOT NULL,
        contracts TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX watchlists_by_person ON watchlists (person_id, id);
    `,
  },
  {
    // A venue's state derived from the deals before an instant (the simulator's ledger), so that a restart books only
    // the deals after it. `deals` is how many deals the journal held before `before` when it was taken: a journal
    // that holds another count there (a deal written later with an earlier time) does not match it.
    description: 'checkpoints of derived state',
    sql: `
      CREATE TABLE checkpoints (
        id INTEGER PRIMARY KEY,
        taken_at INTEGER NOT NULL,
        before INTEGER NOT NULL,
        deals INTEGER NOT NULL,
        state TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    // Rows of a venue's derived history that its checkpoints moved out of memory (the simulator's realized profit
    // and loss of past days), written in the checkpoint's transaction and read per query by account and date or id.
    description: 'derived history archived at checkpoints; checkpoints by deal rowid; orders by last change',
    sql: `
      CREATE TABLE archived_rows (
        account_key TEXT NOT NULL,
        id INTEGER NOT NULL,
        date TEXT NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (account_key, id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX archived_rows_by_date ON archived_rows (account_key, date, id);
      -- A restart reads the orders changed lately (order-tables.ts), not the whole history.
      CREATE INDEX orders_by_updated_at ON orders (updated_at);
      -- A checkpoint covers the deals up to a rowid: one taken while trading, with deals in the same second after it.
      ALTER TABLE checkpoints ADD COLUMN last_deal_rowid INTEGER;
    `,
  },
  {
    // The open lots of a venue's positions as of the latest checkpoint (the simulator's stock lots), so that a
    // restart keeps only what a position sums to in memory and reads its lots when they are closed or asked for.
    // A position's lots are rows of consecutive lots, from its lot `first_lot` (0: the oldest): a checkpoint appends
    // the lots opened since the last one without rewriting the older ones. Written in the checkpoint's transaction.
    description: 'open lots of positions at the checkpoint',
    sql: `
      CREATE TABLE checkpoint_lots (
        account_key TEXT NOT NULL,
        position_id INTEGER NOT NULL,
        first_lot INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (account_key, position_id, first_lot)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    // A finished order's trade as the API writes it, deals and all, so that a page of older trades is the stored JSON
    // joined instead of every record parsed and written again; null while the order can change, or when the writer
    // that made it is not the one in use (the gateway clears the column then, see src/gateway/trade-wire.ts).
    description: "finished orders' trade JSON",
    sql: 'ALTER TABLE orders ADD COLUMN wire TEXT;',
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database at `path` up to SCHEMA_VERSION, one IMMEDIATE transaction per migration. */
export function migrate(db: Database.Database, path: string): void {
  const versionOf = () => db.pragma('user_version', { simple: true }) as number;
  refuseNewerSchema(versionOf(), path);
  MIGRATIONS.forEach((migration, index) => {
    const target = index + 1;
    // The version is read again under the write lock: another process may have migrated meanwhile.
    const step = db.transaction(() => {
      if (versionOf() >= target) return;
      db.exec(migration.sql);
      db.pragma(`user_version = ${target}`);
    });
    step.immediate();
  });
}

function refuseNewerSchema(version: number, path: string): void {
  if (version <= SCHEMA_VERSION) return;
  throw new JournalError(
    `the journal at ${path} was written by a newer sjgate (schema version ${version}, this one knows up to ` +
      `${SCHEMA_VERSION}): upgrade sjgate, or point SJ_HOME_PATH at another directory`,
    'SJGATE_SCHEMA_TOO_NEW',
  );
}
