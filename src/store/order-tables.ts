// The orders of the journal, with what belongs to each: its status changes and its deals.
import type { Connection } from './connection.js';
import {
  type DealFilter,
  type DealRow,
  dealFromRow,
  type OrderFilter,
  type OrderRow,
  orderFromRow,
  readableRows,
  type StatusChange,
  type StoredDeal,
  type StoredOrder,
  toJson,
  type UnreadableRow,
} from './records.js';
import { DEAL_COLUMNS, ORDER_COLUMNS } from './statements.js';

export class OrderTables {
  constructor(private readonly connection: Connection) {}

  save(order: StoredOrder): void {
    const { id, accountKey, code, status, placedAt, updatedAt } = order;
    const row = {
      id,
      accountKey,
      code,
      status,
      placedAt,
      updatedAt,
      open: order.open ? 1 : 0,
      record: toJson(order.record),
    };
    this.connection.guarded(({ saveOrder }) => saveOrder.run(row));
  }

  get(id: string): StoredOrder | undefined {
    const row = this.connection.guarded(({ order }) => order.get(id));
    return row && orderFromRow(row);
  }

  has(id: string): boolean {
    return this.connection.guarded(({ orderExists }) => orderExists.get(id) !== undefined);
  }

  /** Oldest placed first. A row whose record does not parse is told to `unreadable` and left out (thrown without). */
  list(filter: OrderFilter = {}, unreadable?: UnreadableRow): StoredOrder[] {
    const conditions: string[] = [];
    if (filter.accountKey !== undefined) conditions.push('account_key = @accountKey');
    if (filter.openOnly) conditions.push('open = 1');
    if (filter.since !== undefined) conditions.push('placed_at >= @since');
    const sql = `SELECT ${ORDER_COLUMNS} FROM orders ${where(conditions)} ORDER BY placed_at, rowid`;
    const rows = this.connection.filtered<OrderRow>(sql, { accountKey: filter.accountKey, since: filter.since });
    return readableRows(rows, orderFromRow, (row) => `order ${row.id}`, unreadable);
  }

  addStatusChange(orderId: string, at: number, status: string, message: string): void {
    this.connection.guarded(({ addStatusChange }) => addStatusChange.run({ orderId, at, status, message }));
  }

  /** In the order they were added. */
  statusChanges(orderId: string): StatusChange[] {
    return this.connection.guarded(({ statusChanges }) => statusChanges.all(orderId));
  }

  addDeal(deal: StoredDeal): void {
    const { orderId, seq, accountKey, code, action, price, quantity, at } = deal;
    const row = { orderId, seq, accountKey, code, action, price, quantity, at, record: toJson(deal.record) };
    this.connection.guarded(({ addDeal }) => addDeal.run(row));
  }

  /** Oldest first. A row whose record does not parse is told to `unreadable` and left out (thrown without). */
  deals(filter: DealFilter = {}, unreadable?: UnreadableRow): StoredDeal[] {
    const conditions: string[] = [];
    if (filter.accountKey !== undefined) conditions.push('account_key = @accountKey');
    if (filter.orderId !== undefined) conditions.push('order_id = @orderId');
    if (filter.since !== undefined) conditions.push('at >= @since');
    const sql = `SELECT ${DEAL_COLUMNS} FROM deals ${where(conditions)} ORDER BY at, rowid`;
    const params = { accountKey: filter.accountKey, orderId: filter.orderId, since: filter.since };
    const rows = this.connection.filtered<DealRow>(sql, params);
    return readableRows(rows, dealFromRow, (row) => `deal ${row.seq} of order ${row.orderId}`, unreadable);
  }
}

function where(conditions: string[]): string {
  return conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
}
