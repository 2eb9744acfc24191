// The order and deal reports of `order events`: whose account each is, and how each reads as a row.

import { explainedMessage } from '../../../contract/broker-messages.js';
import { OP_CODE_OK } from '../../../domain/orders.js';
import { formatLine } from '../../output.js';
import type { AccountSelector } from '../../parsers.js';

type Body = Record<string, unknown>;

const objectOr = (value: unknown): Body =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : {};

/** The body of a wrapped event (the flat form, without `state`, is taken as its own body). */
export function orderEventBody(event: unknown): Body {
  const wrapped = objectOr(event);
  return typeof wrapped.state === 'string' ? objectOr(objectOr(wrapped.data)[wrapped.state]) : wrapped;
}

/** The account an event belongs to: an order report's order.account, a deal's broker_id and account_id. */
export function accountOfEvent(event: unknown): AccountSelector | null {
  const body = orderEventBody(event);
  const fromOrder = objectOr(objectOr(body.order).account);
  const broker = fromOrder.broker_id ?? body.broker_id;
  const id = fromOrder.account_id ?? body.account_id;
  return typeof broker === 'string' && typeof id === 'string' ? { broker_id: broker, account_id: id } : null;
}

/** Epoch seconds as the Taiwan time of day, HH:MM:SS. */
function taipeiTime(epochSeconds: unknown): string | null {
  if (typeof epochSeconds !== 'number' || !Number.isFinite(epochSeconds) || epochSeconds <= 0) return null;
  return new Date(epochSeconds * 1000 + 8 * 3_600_000).toISOString().slice(11, 19);
}

const EVENT_COLUMNS = ['time', 'state', 'op_type', 'code', 'action', 'price', 'quantity', 'ordno', 'status'];
const EVENT_WIDTHS = [8, 12, 11, 10, 6, 9, 8, 9, 0];

/**
 * One order event as a row: time (Taiwan), state, op_type (Deal for deals), code (futures: the contract, e.g.
 * TXFL6, not the root), action, price (a market order: its price type), quantity, ordno, status (ok, or the op_code
 * and message of a refusal; a deal is `filled`).
 */
export function orderEventCells(event: unknown): unknown[] {
  const state = objectOr(event).state;
  const body = orderEventBody(event);
  const operation = objectOr(body.operation);
  if ('operation' in body || 'order' in body) {
    const order = objectOr(body.order);
    const contract = objectOr(body.contract);
    const status = objectOr(body.status);
    const code = contract.full_code || contract.code;
    const ok = operation.op_code === OP_CODE_OK;
    return [
      taipeiTime(status.exchange_ts),
      state,
      operation.op_type,
      code,
      order.action,
      order.price_type === undefined || order.price_type === 'LMT' ? order.price : order.price_type,
      order.quantity,
      order.ordno || null,
      ok ? 'ok' : `${operation.op_code ?? ''} ${explainedMessage(String(operation.op_msg ?? ''))}`.trim() || null,
    ];
  }
  return [
    taipeiTime(body.ts),
    state,
    'Deal',
    body.full_code || body.code,
    body.action,
    body.price,
    body.quantity,
    body.ordno,
    'filled',
  ];
}

export function formatOrderEventHeader(color = false): string {
  return formatLine(EVENT_COLUMNS, EVENT_WIDTHS, { header: true, color });
}

export function formatOrderEvent(event: unknown): string {
  return formatLine(orderEventCells(event), EVENT_WIDTHS);
}

/** Whether an event passes --account. */
export function eventMatches(event: unknown, wanted: AccountSelector | undefined): boolean {
  if (wanted === undefined) return true;
  const owner = accountOfEvent(event);
  return owner !== null && owner.broker_id === wanted.broker_id && owner.account_id === wanted.account_id;
}
