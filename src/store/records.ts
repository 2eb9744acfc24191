// What the journal stores, as its callers see it, and how a row becomes one. The `record` and `payload`
// fields carry domain objects the store does not interpret; they are kept as JSON text.

export interface StoredOrder {
  id: string;
  accountKey: string;
  code: string;
  status: string;
  /** Epoch milliseconds, like every time in the journal. */
  placedAt: number;
  updatedAt: number;
  /** Still on the book: what a restart puts back. */
  open: boolean;
  /** The full order state. */
  record: unknown;
}

export interface StatusChange {
  at: number;
  status: string;
  message: string;
}

export interface StoredDeal {
  orderId: string;
  /** Per order, from 1. */
  seq: number;
  accountKey: string;
  code: string;
  action: 'Buy' | 'Sell';
  price: number;
  quantity: number;
  at: number;
  record: unknown;
}

export interface StoredEvent {
  /** Global, strictly increasing and never reused, also across restarts. */
  seq: number;
  at: number;
  kind: string;
  accountKey: string;
  payload: unknown;
}

export interface CashEntry {
  /** Assigned by the journal; ignored when adding an entry. */
  id?: number;
  accountKey: string;
  at: number;
  /** Signed NT$. */
  amount: number;
  reason: string;
  ref: string | null;
  /** 'YYYY-MM-DD' when the amount settles; null when it counts at once. */
  settleDate: string | null;
}

export interface StoredPosition {
  accountKey: string;
  /** e.g. code|direction|cond */
  key: string;
  /** null deletes the position. */
  record: unknown;
}

export interface OrderFilter {
  accountKey?: string;
  openOnly?: boolean;
  /**
   * Only the orders a restart needs: open, changed at or after this instant, or with deals (which the books replay);
   * a finished order without deals that last changed before it is read back by id when asked for.
   */
  neededSince?: number;
  /** With neededSince: only deals after this rowid make an order needed (a checkpoint holds the earlier). */
  dealsAfterRowid?: number;
  /** Orders placed at or after this instant. */
  since?: number;
}

/** Where a page of orders starts: after the order placed at `placedAt` with this row id (the journal's order). */
export interface OrderPosition {
  placedAt: number;
  rowid: number;
}

export interface OrderPageQuery {
  accountKey?: string | undefined;
  /** Orders placed at or after this instant. */
  from?: number | undefined;
  /** Orders placed before this instant. */
  to?: number | undefined;
  /** Orders after this one; from the oldest when omitted. */
  after?: OrderPosition | undefined;
  limit: number;
}

/**
 * A page of orders, oldest placed first: each as its trade's stored JSON, or else with its deals; `last` is where the
 * next page starts, null at the end.
 */
export interface OrderPage {
  /** `wire`: the trade's stored JSON, UTF-8. */
  orders: ({ wire: Buffer } | { stored: StoredOrder; deals: StoredDeal[] })[];
  last: OrderPosition | null;
}

export interface DealFilter {
  accountKey?: string;
  orderId?: string;
  /** Deals made at or after this instant. */
  since?: number;
  /** Only the deals of the orders a restart needs (OrderFilter's neededSince and dealsAfterRowid). */
  ofNeededOrders?: { neededSince: number; dealsAfterRowid?: number | undefined };
}

export interface EventFilter {
  /** Only events of these accounts; an empty list matches nothing. */
  accountKeys?: string[];
  limit?: number;
}

/** JSON for a domain payload; `undefined` is stored as null. */
export function toJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

export type OrderRow = Omit<StoredOrder, 'open' | 'record'> & { open: number; record: string };
export type DealRow = Omit<StoredDeal, 'record'> & { record: string };
export type EventRow = Omit<StoredEvent, 'payload'> & { payload: string };
export type CashRow = Required<CashEntry>;
export type PositionRow = Omit<StoredPosition, 'record'> & { record: string };

/** Told of a row left out of a listing because its JSON does not parse: which row, and why. */
export type UnreadableRow = (row: string, reason: string) => void;

/**
 * The rows that `fromRow` can read. A row it cannot read is told to `unreadable` and left out, so that one damaged
 * row does not fail the whole listing; without `unreadable` the error is thrown, as before.
 */
export function readableRows<Row, T>(
  rows: Row[],
  fromRow: (row: Row) => T,
  nameOf: (row: Row) => string,
  unreadable: UnreadableRow | undefined,
): T[] {
  if (unreadable === undefined) return rows.map(fromRow);
  const read: T[] = [];
  for (const row of rows) {
    try {
      read.push(fromRow(row));
    } catch (error) {
      unreadable(nameOf(row), `its JSON does not parse (${(error as Error).message})`);
    }
  }
  return read;
}

export function orderFromRow(row: OrderRow): StoredOrder {
  return { ...row, open: row.open === 1, record: JSON.parse(row.record) };
}

export function dealFromRow(row: DealRow): StoredDeal {
  return { ...row, record: JSON.parse(row.record) };
}

export function eventFromRow(row: EventRow): StoredEvent {
  return { ...row, payload: JSON.parse(row.payload) };
}

export function positionFromRow(row: PositionRow): StoredPosition {
  return { ...row, record: JSON.parse(row.record) };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Settle dates are compared as text, which only orders them as dates in this form. */
export function assertIsoDate(date: string, what: string): void {
  if (!ISO_DATE.test(date)) throw new RangeError(`${what} must be a 'YYYY-MM-DD' date, got '${date}'`);
}
