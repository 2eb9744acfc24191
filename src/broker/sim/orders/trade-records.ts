// The simulator's record of one order (what the journal keeps) and the Trade JSON and order events made from it.
//
// Every order makes these objects, so they are literals with each key named, not `{ ...common, key }`: on Node 20 a
// literal that adds keys after a spread takes V8's slow path (microseconds per key), and the object it makes is
// slower to read and to serialize.

import type { Account } from '../../../domain/accounts.js';
import type { ContractInfo, FuturesInfo, OptionInfo } from '../../../domain/contracts.js';
import { InvalidRequestError } from '../../../domain/errors.js';
import type { OrderViolation } from '../../../domain/order-rules.js';
import { moveStatus, settleStatus } from '../../../domain/order-states.js';
import {
  blankStatus,
  type Deal,
  type EventOptionRight,
  type FuturesOrderRequest,
  type FuturesTradeOrder,
  isStockOrder,
  isStockTradeOrder,
  isValidCustomField,
  type OpType,
  type OrderEvent,
  openQuantity,
  orderEvent,
  type StockOrderRequest,
  type StockTradeOrder,
  type Trade,
  type TradeStatus,
} from '../../../domain/orders.js';
import type { MarketKind } from '../../../domain/sessions.js';

export interface OrderRecord {
  trade: Trade;
  accountKey: string;
  market: MarketKind;
  /** Board-lot trades, or the odd-lot auctions for Odd and IntradayOdd orders. */
  tape: 'board' | 'odd';
  daytradeShort: boolean;
  /** The price the order rests at when it is not its own: an MKP order's protective limit. */
  restingPrice?: number;
  /** Volume at the order's price that trades before it. */
  queueAhead: number;
  /** When it joined the queue at its price. */
  queuedAt?: number;
  /** The seqs of its deals that took depth on arrival (the others came from tape trades it rested for). */
  takerDeals?: number[];
  /** The tape trades this order has already met. */
  cursor: { day: string; count: number } | null;
  /** A reservation (PreSubmitted) is released at this instant. */
  releaseAt: number | null;
  placedAt: number;
  /** The place_order request as sent (contract and order), to tell a retry from a different order under one key. */
  request?: string;
}

const seconds = (epochMs: number) => Math.round(epochMs) / 1000;

/**
 * An order's row in the journal: its record without the deals, which the journal keeps once each in their own rows
 * (restoredRecord's caller puts them back), so that a change of an order with many fills does not write them all again.
 */
export function storedRecord(record: OrderRecord): OrderRecord {
  const { trade } = record;
  return { ...record, trade: { ...trade, status: { ...trade.status, deals: [] } } as Trade };
}

/** A record as the journal's row holds it, with no deals: its caller puts them back from their rows (rows written by
 * an older sjgate hold them too, and they are dropped here so as not to count twice). */
export function restoredRecord(stored: OrderRecord): OrderRecord {
  stored.trade.status.deals = [];
  return stored;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Why a journal row's order record (a plain or a combo order) cannot be put back, or null when it can. `shape`: it is
 * not an order record at all, so nothing of it can be used. `numbers`: a price, quantity or time is not a finite
 * number, which a Trade cannot answer and the matching cannot use; an older sjgate wrote such rows when a request
 * carried 1e400 (JSON.stringify writes Infinity as null). Its deals are still real fills.
 */
export function recordProblem(record: unknown): { kind: 'shape' | 'numbers'; reason: string } | null {
  if (!isObject(record) || typeof record.accountKey !== 'string' || !isObject(record.trade)) {
    return { kind: 'shape', reason: 'its record is not an order record' };
  }
  const { contract, order, status } = record.trade;
  if (!isObject(contract) || !isObject(order) || !isObject(status) || typeof order.id !== 'string') {
    return { kind: 'shape', reason: 'its trade lacks its contract, order or status' };
  }
  const numbers: [string, unknown][] = [
    ['order.price', order.price],
    ['order.quantity', order.quantity],
    ['status.order_ts', status.order_ts],
    ['status.modified_ts', status.modified_ts],
    ['status.modified_price', status.modified_price],
    ['status.order_quantity', status.order_quantity],
    ['status.deal_quantity', status.deal_quantity],
    ['status.cancel_quantity', status.cancel_quantity],
  ];
  const bad = numbers.filter(([, value]) => typeof value !== 'number' || !Number.isFinite(value));
  if (bad.length === 0) return null;
  const named = bad.map(([name, value]) => `${name} is ${JSON.stringify(value) ?? 'missing'}`).join(', ');
  return { kind: 'numbers', reason: `${named}, not a finite number` };
}

/** Why a journal row's deal cannot be booked, or null when it can. */
export function dealProblem(deal: unknown): string | null {
  if (!isObject(deal)) return 'its record is not a deal';
  const bad = (['price', 'quantity', 'ts'] as const).filter(
    (name) => typeof deal[name] !== 'number' || !Number.isFinite(deal[name]),
  );
  return bad.length === 0 ? null : `${bad.join(', ')} not a finite number`;
}

/** A copy of a trade that later changes of the order do not reach, for an answer. */
export function copyTrade(trade: Trade): Trade {
  const { contract, order, status } = trade;
  const copied = { ...status, deals: status.deals.map((deal) => ({ ...deal })) };
  if (status.violations) copied.violations = status.violations.map((found) => ({ ...found }));
  return { contract: { ...contract }, order: { ...order, account: { ...order.account } }, status: copied } as Trade;
}

export function newTrade(
  info: ContractInfo,
  aliasCode: string | null,
  ids: { id: string; seqno: string; ordno: string },
  order: StockOrderRequest | FuturesOrderRequest,
  account: Account,
  now: number,
): Trade {
  const contract = {
    security_type: info.security_type,
    exchange: info.exchange,
    code: info.code,
    target_code: aliasCode ? info.code : null,
  };
  const status = blankStatus(ids.id, 'PendingSubmit', seconds(now));
  // Each key named: see the note at the top.
  if (isStockOrder(order)) {
    const stock: StockTradeOrder = {
      id: ids.id,
      seqno: ids.seqno,
      ordno: ids.ordno,
      action: order.action,
      price: order.price,
      quantity: order.quantity,
      time_in_force: order.order_type,
      order_type: order.order_type,
      custom_field: order.custom_field,
      account,
      ca: '',
      price_type: order.price_type,
      order_cond: order.order_cond,
      order_lot: order.order_lot,
    };
    return { contract, order: stock, status };
  }
  const futures: FuturesTradeOrder = {
    id: ids.id,
    seqno: ids.seqno,
    ordno: ids.ordno,
    action: order.action,
    price: order.price,
    quantity: order.quantity,
    time_in_force: order.order_type,
    order_type: order.order_type,
    custom_field: order.custom_field,
    account,
    ca: '',
    price_type: order.price_type,
    octype: order.octype,
  };
  return { contract, order: futures, status };
}

/** The status of an order nothing has happened to yet: PendingSubmit, or Inactive for a place without waiting. */

/** The order report of an operation (op_code '00' when it succeeded). */
export function orderReport(
  trade: Trade,
  info: ContractInfo,
  opType: OpType,
  opCode: string,
  opMsg: string,
  now: number,
  combo = false,
): OrderEvent {
  const operation = { op_type: opType, op_code: opCode, op_msg: opMsg };
  const eventId = `${trade.order.id}-${opType}-${Math.round(now * 1000)}`;
  const status = {
    id: trade.status.id,
    exchange_ts: seconds(now),
    modified_price: trade.status.modified_price,
    cancel_quantity: trade.status.cancel_quantity,
    order_quantity: trade.status.order_quantity,
    web_id: trade.status.web_id,
  };
  const { order } = trade;
  // Each key named: see the note at the top.
  if (isStockTradeOrder(order)) {
    const name = 'name' in info ? info.name : '';
    return orderEvent('StockOrder', {
      event_id: eventId,
      operation,
      order: {
        id: order.id,
        seqno: order.seqno,
        ordno: order.ordno,
        account: order.account,
        action: order.action,
        price: order.price,
        quantity: order.quantity,
        time_in_force: order.order_type,
        order_type: order.order_type,
        custom_field: order.custom_field,
        price_type: order.price_type,
        order_cond: order.order_cond,
        order_lot: order.order_lot,
      },
      status,
      contract: {
        security_type: info.security_type,
        exchange: info.exchange,
        code: info.code,
        symbol: `${info.exchange}${info.code}`,
        name,
        currency: 'TWD',
      },
    });
  }
  const derivative = info as FuturesInfo | OptionInfo;
  return orderEvent('FuturesOrder', {
    event_id: eventId,
    operation,
    order: {
      id: order.id,
      seqno: order.seqno,
      ordno: order.ordno,
      account: order.account,
      action: order.action,
      price: order.price,
      quantity: order.quantity,
      time_in_force: order.order_type,
      order_type: order.order_type,
      custom_field: order.custom_field,
      price_type: order.price_type,
      market_type: marketTypeAt(now),
      oc_type: order.octype,
      subaccount: '',
      combo,
    },
    status,
    contract: {
      security_type: info.security_type,
      code: derivative.root,
      full_code: info.code,
      exchange: 'TIM',
      delivery_month: derivative.delivery_month,
      delivery_date: derivative.delivery_date,
      strike_price: 'strike_price' in derivative ? derivative.strike_price : 0,
      option_right: optionRightOf(derivative),
    },
  });
}

/** The deal report of one fill. */
export function dealReport(trade: Trade, info: ContractInfo, deal: Deal, combo = false): OrderEvent {
  const { order } = trade;
  const ordno = `${order.ordno}${deal.seq.slice(-3)}`;
  // Each key named: see the note at the top.
  if (isStockTradeOrder(order)) {
    return orderEvent('StockDeal', {
      event_id: `${order.id}-deal-${deal.seq}`,
      trade_id: order.id,
      seqno: order.seqno,
      ordno,
      exchange_seq: deal.seq,
      broker_id: order.account.broker_id,
      account_id: order.account.account_id,
      action: order.action,
      price: deal.price,
      quantity: deal.quantity,
      ts: deal.ts,
      code: info.code,
      order_cond: order.order_cond,
      order_lot: order.order_lot,
      web_id: trade.status.web_id,
      custom_field: order.custom_field,
    });
  }
  const derivative = info as FuturesInfo | OptionInfo;
  return orderEvent('FuturesDeal', {
    event_id: `${order.id}-deal-${deal.seq}`,
    trade_id: order.id,
    seqno: order.seqno,
    ordno,
    exchange_seq: deal.seq,
    broker_id: order.account.broker_id,
    account_id: order.account.account_id,
    action: order.action,
    price: deal.price,
    quantity: deal.quantity,
    ts: deal.ts,
    code: derivative.root,
    full_code: info.code,
    subaccount: '',
    security_type: info.security_type,
    delivery_month: derivative.delivery_month,
    strike_price: 'strike_price' in derivative ? derivative.strike_price : 0,
    option_right: optionRightOf(derivative),
    market_type: marketTypeAt(deal.ts * 1000),
    combo,
  });
}

function optionRightOf(info: FuturesInfo | OptionInfo): EventOptionRight {
  if (info.security_type !== 'OPT') return 'Future';
  return (info as OptionInfo).option_right === 'C' ? 'OptionCall' : 'OptionPut';
}

/** TAIFEX's night session runs 15:00-05:00 Taiwan time. */
function marketTypeAt(epochMs: number): 'Day' | 'Night' {
  const hour = new Date(epochMs + 8 * 3600_000).getUTCHours();
  return hour >= 15 || hour < 5 ? 'Night' : 'Day';
}

/**
 * The exchange took the order: its status says so (Submitted, or PreSubmitted when it waits for its session to open)
 * and its live quantity is the ordered one.
 */
export function acknowledge(
  status: Omit<TradeStatus, 'deals'>,
  kind: 'stock' | 'futures',
  modifiedPrice: number,
  quantity: number,
  now: number,
  to: 'Submitted' | 'PreSubmitted' = 'Submitted',
): void {
  moveStatus(status, to);
  Object.assign(status, {
    status_code: kind === 'stock' ? '00' : '0000',
    web_id: kind === 'stock' ? '137' : 'Z',
    msg: '委託成功',
    modified_ts: now / 1000,
    modified_price: modifiedPrice,
    order_quantity: quantity,
  });
}

/**
 * The exchange or the broker refused the order for the rules it breaks: it fails with the op_code and the message of
 * the first, and lists them all (status.violations).
 */
export function refuse(
  status: Omit<TradeStatus, 'deals'>,
  violations: readonly [OrderViolation, ...OrderViolation[]],
): void {
  moveStatus(status, 'Failed');
  status.status_code = violations[0].opCode;
  nameViolations(status, violations);
}

/**
 * The rules an order or a change breaks, on the status that answers it: msg names the first and violations lists them
 * all (a refused change's answer lists the change's, not those the order failed with when placed).
 */
export function nameViolations(
  status: Omit<TradeStatus, 'deals'>,
  violations: readonly [OrderViolation, ...OrderViolation[]],
): void {
  status.msg = violations[0].message;
  status.violations = violations.map(({ rule, opCode, message }) => ({ rule, op_code: opCode, msg: message }));
}

/** custom_field is a memo of at most 6 letters or digits; anything else is a malformed request. */
export function requireValidCustomField(value: string): void {
  if (!isValidCustomField(value)) {
    throw new InvalidRequestError(`custom_field must be at most 6 letters or digits, got '${value}'`);
  }
}

/** Cancels what is left of an order: the live quantity drops to what dealt; the reason, if any, becomes the msg. */
export function cancelRemainder(status: Omit<TradeStatus, 'deals'>, at: number, reason: string): void {
  status.cancel_quantity += openQuantity(status);
  status.order_quantity = status.deal_quantity;
  settleStatus(status, 'cancel');
  status.modified_ts = at / 1000;
  if (reason) status.msg = reason;
}
