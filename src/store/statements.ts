// Every fixed statement of the journal, prepared once when it opens.
import type Database from 'better-sqlite3';
import type { CashRow, DealRow, EventRow, OrderRow, PositionRow, StatusChange } from './records.js';

type Run<Params> = Database.Statement<[Params]>;
type Get<Params extends unknown[], Row> = Database.Statement<Params, Row>;

export interface Statements {
  begin: Database.Statement<[]>;
  commit: Database.Statement<[]>;
  rollback: Database.Statement<[]>;
  saveOrder: Run<OrderRow & { wire: string | null }>;
  order: Get<[string], OrderRow>;
  orderExists: Get<[string], number>;
  addStatusChange: Run<{ orderId: string } & StatusChange>;
  statusChanges: Get<[string], StatusChange>;
  addDeal: Run<DealRow>;
  appendEvent: Run<Omit<EventRow, 'seq'>>;
  eventsAfter: Get<[{ seq: number; limit: number }], EventRow>;
  accountEventsAfter: Get<[{ seq: number; limit: number; accountKeys: string }], EventRow>;
  lastEventSeq: Get<[], number>;
  addCashEntry: Run<Omit<CashRow, 'id'>>;
  cashEntries: Get<[string], CashRow>;
  cashBalance: Get<[string], number>;
  settledCashBalance: Get<[{ accountKey: string; settledBy: string }], number>;
  savePosition: Run<PositionRow>;
  deletePosition: Run<{ accountKey: string; key: string }>;
  allPositions: Get<[], PositionRow>;
  accountPositions: Get<[string], PositionRow>;
  rememberIdempotencyKey: Run<{ key: string; orderId: string; at: number; request: string | null }>;
  orderForIdempotencyKey: Get<[string], { orderId: string; request: string | null }>;
  getMeta: Get<[string], string>;
  setMeta: Run<{ name: string; value: string }>;
}

export const ORDER_COLUMNS =
  'id, account_key AS accountKey, code, status, placed_at AS placedAt, updated_at AS updatedAt, open, record';
export const DEAL_COLUMNS =
  'order_id AS orderId, seq, account_key AS accountKey, code, action, price, quantity, at, record';
const EVENT_COLUMNS = 'seq, at, kind, account_key AS accountKey, payload';
const CASH_COLUMNS = 'id, account_key AS accountKey, at, amount, reason, ref, settle_date AS settleDate';

export function prepareStatements(db: Database.Database): Statements {
  return {
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    // An upsert, not INSERT OR REPLACE: replacing would delete the row its deals and status changes refer to.
    saveOrder: db.prepare(`
      INSERT INTO orders (id, account_key, code, status, placed_at, updated_at, open, record, wire)
      VALUES (@id, @accountKey, @code, @status, @placedAt, @updatedAt, @open, @record, @wire)
      ON CONFLICT (id) DO UPDATE SET account_key = excluded.account_key, code = excluded.code,
        status = excluded.status, placed_at = excluded.placed_at, updated_at = excluded.updated_at,
        open = excluded.open, record = excluded.record, wire = excluded.wire`),
    order: db.prepare(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = ?`),
    orderExists: db.prepare<[string], number>('SELECT 1 FROM orders WHERE id = ?').pluck(),
    addStatusChange: db.prepare(`
      INSERT INTO order_status_changes (order_id, at, status, message) VALUES (@orderId, @at, @status, @message)`),
    statusChanges: db.prepare('SELECT at, status, message FROM order_status_changes WHERE order_id = ? ORDER BY id'),
    addDeal: db.prepare(`
      INSERT INTO deals (order_id, seq, account_key, code, action, price, quantity, at, record)
      VALUES (@orderId, @seq, @accountKey, @code, @action, @price, @quantity, @at, @record)`),
    appendEvent: db.prepare(`
      INSERT INTO events (at, kind, account_key, payload) VALUES (@at, @kind, @accountKey, @payload)`),
    eventsAfter: db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE seq > @seq ORDER BY seq LIMIT @limit`),
    accountEventsAfter: db.prepare(`
      SELECT ${EVENT_COLUMNS} FROM events
      WHERE seq > @seq AND account_key IN (SELECT value FROM json_each(@accountKeys))
      ORDER BY seq LIMIT @limit`),
    lastEventSeq: db.prepare<[], number>("SELECT seq FROM sqlite_sequence WHERE name = 'events'").pluck(),
    addCashEntry: db.prepare(`
      INSERT INTO cash_entries (account_key, at, amount, reason, ref, settle_date)
      VALUES (@accountKey, @at, @amount, @reason, @ref, @settleDate)`),
    cashEntries: db.prepare(`SELECT ${CASH_COLUMNS} FROM cash_entries WHERE account_key = ? ORDER BY id`),
    cashBalance: db.prepare<[string], number>('SELECT total(amount) FROM cash_entries WHERE account_key = ?').pluck(),
    settledCashBalance: db
      .prepare<[{ accountKey: string; settledBy: string }], number>(`
        SELECT total(amount) FROM cash_entries
        WHERE account_key = @accountKey AND (settle_date IS NULL OR settle_date <= @settledBy)`)
      .pluck(),
    savePosition: db.prepare(`
      INSERT INTO positions (account_key, key, record) VALUES (@accountKey, @key, @record)
      ON CONFLICT (account_key, key) DO UPDATE SET record = excluded.record`),
    deletePosition: db.prepare('DELETE FROM positions WHERE account_key = @accountKey AND key = @key'),
    allPositions: db.prepare('SELECT account_key AS accountKey, key, record FROM positions ORDER BY account_key, key'),
    accountPositions: db.prepare(
      'SELECT account_key AS accountKey, key, record FROM positions WHERE account_key = ? ORDER BY key',
    ),
    rememberIdempotencyKey: db.prepare(`
      INSERT INTO idempotency_keys (key, order_id, at, request) VALUES (@key, @orderId, @at, @request)
      ON CONFLICT (key) DO NOTHING`),
    orderForIdempotencyKey: db.prepare<[string], { orderId: string; request: string | null }>(
      'SELECT order_id AS orderId, request FROM idempotency_keys WHERE key = ?',
    ),
    getMeta: db.prepare<[string], string>('SELECT value FROM meta WHERE name = ?').pluck(),
    setMeta: db.prepare(`
      INSERT INTO meta (name, value) VALUES (@name, @value) ON CONFLICT (name) DO UPDATE SET value = excluded.value`),
  };
}
