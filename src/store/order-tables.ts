// The orders of the journal, with what belongs to each: its status changes and its deals.
import type { Connection } from './connection.js';
import {
  type DealFilter,
  type DealRow,
  dealFromRow,
  type OrderFilter,
  type OrderPage,
  type OrderPageQuery,
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

  /** `wire`: the finished order's trade as the API writes it (see TradeWire), or null. */
  save(order: StoredOrder, wire: string | null = null): void {
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
      wire,
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
    if (filter.neededSince !== undefined) conditions.push(`rowid IN (${neededOrderRowids(filter.dealsAfterRowid)})`);
    const sql = `SELECT ${ORDER_COLUMNS} FROM orders ${where(conditions)} ORDER BY placed_at, rowid`;
    const { accountKey, since, neededSince, dealsAfterRowid } = filter;
    const params = { accountKey, since, neededSince, dealsAfterRowid };
    const rows = this.connection.filtered<OrderRow>(sql, params);
    return readableRows(rows, orderFromRow, (row) => `order ${row.id}`, unreadable);
  }

  /**
   * A page of orders in the journal's order (placed_at, then row id), read through the placed_at index: as fast for the
   * last page of a year as for the first. An order with its trade's JSON stored (`wire`) is handed back as that text,
   * neither its record nor its deals read; the others parsed with their deals. Rows whose record does not parse are
   * skipped but still move the page on.
   */
  page(query: OrderPageQuery): OrderPage {
    const conditions: string[] = [];
    if (query.accountKey !== undefined) conditions.push('account_key = @accountKey');
    if (query.from !== undefined) conditions.push('placed_at >= @from');
    if (query.to !== undefined) conditions.push('placed_at < @to');
    if (query.after !== undefined) conditions.push('(placed_at, rowid) > (@afterPlacedAt, @afterRowid)');
    // The JSON as its UTF-8 bytes: joined and sent as they are, never decoded into a string.
    const sql =
      `SELECT rowid, placed_at AS placedAt, CAST(wire AS BLOB) AS wire FROM orders ${where(conditions)} ` +
      'ORDER BY placed_at, rowid LIMIT @limit';
    const rows = this.connection.filtered<{ rowid: number; placedAt: number; wire: Buffer | null }>(sql, {
      accountKey: query.accountKey,
      from: query.from,
      to: query.to,
      afterPlacedAt: query.after?.placedAt,
      afterRowid: query.after?.rowid,
      limit: query.limit,
    });
    const lastRow = rows.at(-1);
    const last = rows.length === query.limit && lastRow ? { placedAt: lastRow.placedAt, rowid: lastRow.rowid } : null;
    const unwritten = this.ordersByRowid(rows.filter((row) => row.wire === null).map((row) => row.rowid));
    const deals = this.dealsOfOrders([...unwritten.values()].map((order) => order.id));
    const orders: OrderPage['orders'] = [];
    for (const { rowid, wire } of rows) {
      const stored = unwritten.get(rowid);
      if (wire !== null) orders.push({ wire });
      else if (stored) orders.push({ stored, deals: deals.get(stored.id) ?? [] });
    }
    return { orders, last };
  }

  /**
   * Orders by id (of one account, when given) with their deals, in the journal's order (placed_at, then row id); an id
   * the journal lacks and a row whose record does not parse are left out.
   */
  byIds(ids: readonly string[], accountKey?: string): { stored: StoredOrder; deals: StoredDeal[] }[] {
    if (ids.length === 0) return [];
    const account = accountKey === undefined ? '' : 'AND account_key = @accountKey';
    const sql =
      `SELECT ${ORDER_COLUMNS} FROM orders WHERE id IN (SELECT value FROM json_each(@ids)) ${account} ` +
      'ORDER BY placed_at, rowid';
    const rows = this.connection.filtered<OrderRow>(sql, { ids: JSON.stringify(ids), accountKey });
    const orders = readableRows(
      rows,
      orderFromRow,
      (row) => `order ${row.id}`,
      () => {},
    );
    const deals = this.dealsOfOrders(orders.map((order) => order.id));
    return orders.map((stored) => ({ stored, deals: deals.get(stored.id) ?? [] }));
  }

  /** Orders by row id; a row whose record does not parse is left out. */
  private ordersByRowid(rowids: number[]): Map<number, StoredOrder> {
    if (rowids.length === 0) return new Map();
    const sql = `SELECT rowid, ${ORDER_COLUMNS} FROM orders WHERE rowid IN (SELECT value FROM json_each(@rowids))`;
    const rows = this.connection.filtered<OrderRow & { rowid: number }>(sql, { rowids: JSON.stringify(rowids) });
    const read = new Map<number, StoredOrder>();
    for (const row of rows) {
      try {
        read.set(row.rowid, orderFromRow(row));
      } catch {
        // skipped, as a page skips an unreadable row
      }
    }
    return read;
  }

  /** Forgets every finished order's stored trade JSON: written by another writer than the one in use. */
  forgetWire(): void {
    this.connection.guarded(() =>
      this.connection.prepared('UPDATE orders SET wire = NULL WHERE wire IS NOT NULL').run(),
    );
  }

  /** The deals of some orders, by order, each oldest first (through the index of deals by order). */
  private dealsOfOrders(orderIds: string[]): Map<string, StoredDeal[]> {
    const byOrder = new Map<string, StoredDeal[]>();
    if (orderIds.length === 0) return byOrder;
    const sql =
      `SELECT ${DEAL_COLUMNS} FROM deals WHERE order_id IN (SELECT value FROM json_each(@ids)) ` +
      'ORDER BY order_id, seq';
    const rows = this.connection.filtered<DealRow>(sql, { ids: JSON.stringify(orderIds) });
    for (const deal of readableRows(
      rows,
      dealFromRow,
      (row) => `deal ${row.seq} of order ${row.orderId}`,
      () => {},
    )) {
      const deals = byOrder.get(deal.orderId);
      if (deals) deals.push(deal);
      else byOrder.set(deal.orderId, [deal]);
    }
    return byOrder;
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
    const needed = filter.ofNeededOrders;
    if (needed) {
      const rowids = neededOrderRowids(needed.dealsAfterRowid);
      conditions.push(`order_id IN (SELECT id FROM orders WHERE rowid IN (${rowids}))`);
    }
    const sql = `SELECT ${DEAL_COLUMNS} FROM deals ${where(conditions)} ORDER BY at, rowid`;
    const params = {
      accountKey: filter.accountKey,
      orderId: filter.orderId,
      since: filter.since,
      neededSince: needed?.neededSince,
      dealsAfterRowid: needed?.dealsAfterRowid,
    };
    const rows = this.connection.filtered<DealRow>(sql, params);
    return readableRows(rows, dealFromRow, (row) => `deal ${row.seq} of order ${row.orderId}`, unreadable);
  }
}

function where(conditions: string[]): string {
  return conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
}

/**
 * The rowids of the orders a restart hands back: open, changed since @neededSince, or with deals (after
 * @dealsAfterRowid when given). A union of index searches: the same test as one OR scans every order of the history, records and all.
 */
function neededOrderRowids(dealsAfterRowid: number | undefined): string {
  const withDeals =
    dealsAfterRowid === undefined
      ? 'SELECT order_id FROM deals'
      : 'SELECT order_id FROM deals WHERE rowid > @dealsAfterRowid';
  return [
    'SELECT rowid FROM orders INDEXED BY open_orders WHERE open = 1',
    'SELECT rowid FROM orders INDEXED BY orders_by_updated_at WHERE updated_at >= @neededSince',
    `SELECT rowid FROM orders WHERE id IN (${withDeals})`,
  ].join(' UNION ');
}
