// How SinoPac's reports move the gateway's view of an order: an order or deal event applied to its Trade, and, after a
// session was down, the events a fresher Trade implies that were never reported (so a client misses nothing and sees
// nothing twice).

import { canReach, statusForQuantities } from '../../domain/order-states.js';
import {
  type Deal,
  type FuturesDealEvent,
  type FuturesOrderEvent,
  isStockTrade,
  OP_CODE_OK,
  type Operation,
  type OrderEvent,
  type OrderState,
  orderEvent,
  type StockDealEvent,
  type StockOrderEvent,
  type Trade,
} from '../../domain/orders.js';

/**
 * What the gateway keeps of a live order: the Trade as last known, and the keys of the deals already reported to
 * clients as events (a Trade may know a deal before its event arrives: place_order can answer with it).
 */
export interface TrackedOrder {
  trade: Trade;
  dealKeys: string[];
  accountKey: string;
  placedAt: number;
  /** Order events applied as SinoPac sent them (not echoes): tells whether a command's own report came first. */
  ops?: number;
  /**
   * Operations reported from a command's answer before SinoPac's order event for them came (`echoKey`): that event,
   * when it comes, is the same change and is not reported again.
   */
  echoes?: string[];
}

export type OrderBody = StockOrderEvent | FuturesOrderEvent;
export type DealBody = StockDealEvent | FuturesDealEvent;

export const isDealState = (state: OrderState): boolean => state === 'StockDeal' || state === 'FuturesDeal';

/** The order id an event is about. */
export function orderIdOf(state: OrderState, body: OrderBody | DealBody): string {
  return isDealState(state) ? (body as DealBody).trade_id : (body as OrderBody).order.id;
}

/**
 * One key per fill, the same whether it came as an event or was read back from a Trade after a restart: its time (to
 * the microsecond SinoPac stamps), price and quantity. The two reports number fills differently, so no sequence is.
 */
export const dealKey = (deal: { price: number; quantity: number; ts: number }): string =>
  `${deal.ts}:${deal.price}:${deal.quantity}`;

/** What tells an operation's own report from another: its type and whether it succeeded. */
export const echoKey = (operation: Operation): string =>
  `${operation.op_type}:${operation.op_code === OP_CODE_OK ? 'ok' : 'failed'}`;

/**
 * Whether an order event is the echo of an operation already reported from a command's answer; consumes the echo.
 * An echo changes nothing: the answer was at least as fresh, and applying it late could undo a later change.
 */
export function consumeEcho(tracked: TrackedOrder, body: OrderBody): boolean {
  const index = tracked.echoes?.indexOf(echoKey(body.operation)) ?? -1;
  if (index < 0) return false;
  tracked.echoes!.splice(index, 1);
  const { order } = tracked.trade;
  if (!order.ordno && body.order.ordno) order.ordno = body.order.ordno;
  if (!order.seqno && body.order.seqno) order.seqno = body.order.seqno;
  return true;
}

/** Applies an order event (a New, Cancel, UpdatePrice or UpdateQty, or its refusal) to the order's status. */
export function applyOrderEvent(tracked: TrackedOrder, body: OrderBody): void {
  const { status } = tracked.trade;
  const { operation } = body;
  if (operation.op_code !== OP_CODE_OK) {
    status.msg = operation.op_msg;
    if (operation.op_type === 'New') status.status = 'Failed';
    return;
  }
  const order = tracked.trade.order;
  if (body.order.ordno) order.ordno = body.order.ordno;
  if (body.order.seqno) order.seqno = body.order.seqno;
  status.cancel_quantity = body.status.cancel_quantity;
  status.order_quantity = liveQuantity(body.status.order_quantity, status.cancel_quantity, order.quantity);
  if (body.status.modified_price) status.modified_price = body.status.modified_price;
  if (operation.op_type === 'UpdatePrice') order.price = body.status.modified_price || order.price;
  status.modified_ts = body.status.exchange_ts;
  if (body.status.web_id) status.web_id = body.status.web_id;
  settle(tracked, operation.op_type === 'Cancel' ? 'cancel' : 'deal');
}

/**
 * Adds a deal event's fill to the order unless the Trade already holds it; true when the event is to be reported,
 * false when this fill was reported before (SinoPac sent it twice, or a read-back reported it first).
 */
export function applyDealEvent(tracked: TrackedOrder, body: DealBody): boolean {
  const { status } = tracked.trade;
  const key = dealKey(body);
  if (tracked.dealKeys.includes(key)) return false;
  tracked.dealKeys.push(key);
  if (!status.deals.some((deal) => dealKey(deal) === key)) {
    status.deals.push({
      seq: String(status.deals.length + 1).padStart(6, '0'),
      price: body.price,
      quantity: body.quantity,
      ts: body.ts,
    });
    status.deal_quantity += body.quantity;
  }
  settle(tracked, 'deal');
  return true;
}

function settle(tracked: TrackedOrder, closedBy: 'deal' | 'cancel'): void {
  const { status } = tracked.trade;
  const next = statusForQuantities(status, closedBy);
  if (next !== status.status && canReach(status.status, next)) status.status = next;
}

/**
 * The events a newer Trade implies beyond what was reported: one deal event per fill never reported, then a Cancel
 * when the order was cancelled meanwhile. Applies them to `tracked` as it goes.
 */
export function catchUp(tracked: TrackedOrder, fresh: Trade): OrderEvent[] {
  const before = tracked.trade.status.status;
  const events = absorb(tracked, fresh);
  if (fresh.status.status === 'Cancelled' && before !== 'Cancelled') {
    events.push(operationEvent(tracked.trade, { op_type: 'Cancel', op_code: OP_CODE_OK, op_msg: '' }));
  }
  return events;
}

/**
 * The events of a command's answer that SinoPac has not reported yet: the operation itself (from the answer, its echo
 * expected) and one deal event per fill the answer holds that was not reported. A New comes before its deals, any
 * other operation after them. Applies them to `tracked`.
 */
export function answerEvents(tracked: TrackedOrder, fresh: Trade, operation: Operation): OrderEvent[] {
  const deals = absorb(tracked, fresh);
  const event = operationEvent(tracked.trade, operation);
  tracked.echoes = [...(tracked.echoes ?? []), echoKey(operation)];
  return operation.op_type === 'New' ? [event, ...deals] : [...deals, event];
}

/** Takes a fresher Trade as the order's state, keeping the deals reported; the events of the fills it adds. */
export function absorb(tracked: TrackedOrder, fresh: Trade): OrderEvent[] {
  const events: OrderEvent[] = [];
  for (const deal of fresh.status.deals) {
    const body = dealBodyOf(fresh, deal);
    if (applyDealEvent(tracked, body)) events.push(dealEvent(fresh, body));
  }
  tracked.trade = { ...fresh, status: { ...fresh.status, deals: tracked.trade.status.deals } } as Trade;
  const { status, order } = tracked.trade;
  status.deal_quantity = status.deals.reduce((sum, deal) => sum + deal.quantity, 0);
  status.order_quantity = liveQuantity(status.order_quantity, status.cancel_quantity, order.quantity);
  return events;
}

/**
 * The gateway's order_quantity is the live quantity, what was ordered less what was cancelled. SinoPac's reports and
 * Trades may count the cancelled part in their order_quantity or not, so the smaller reading is the live one.
 */
function liveQuantity(reported: number, cancelled: number, ordered: number): number {
  return Math.min(reported, ordered - cancelled);
}

function dealEvent(trade: Trade, body: DealBody): OrderEvent {
  return isStockTrade(trade)
    ? orderEvent('StockDeal', body as StockDealEvent)
    : orderEvent('FuturesDeal', body as FuturesDealEvent);
}

function dealBodyOf(trade: Trade, deal: Deal): DealBody {
  const common = {
    event_id: `${trade.order.id}-deal-${deal.seq}`,
    trade_id: trade.order.id,
    seqno: trade.order.seqno,
    // The deal's ordno: the order's, then the deal's sequence (its last three digits), as SinoPac numbers them.
    ordno: `${trade.order.ordno}${deal.seq.slice(-3)}`,
    exchange_seq: deal.seq,
    broker_id: trade.order.account.broker_id,
    account_id: trade.order.account.account_id,
    action: trade.order.action,
    code: trade.contract.code,
    price: deal.price,
    quantity: deal.quantity,
    web_id: trade.status.web_id,
    custom_field: trade.order.custom_field,
    ts: deal.ts,
  };
  if (isStockTrade(trade)) {
    return { ...common, order_cond: trade.order.order_cond, order_lot: trade.order.order_lot } as StockDealEvent;
  }
  return {
    ...common,
    subaccount: '',
    security_type: trade.contract.security_type,
    delivery_month: '',
    strike_price: 0,
    option_right: 'Future',
    market_type: 'Day',
    combo: false,
  } as unknown as FuturesDealEvent;
}

/** An order event of `operation` as the Trade stands after it. */
function operationEvent(trade: Trade, operation: Operation): OrderEvent {
  const { order, status, contract } = trade;
  const common = {
    event_id: `${order.id}-${operation.op_type}-${Math.round(status.modified_ts * 1e6)}`,
    operation,
    status: {
      id: order.id,
      exchange_ts: status.modified_ts,
      modified_price: status.modified_price,
      cancel_quantity: status.cancel_quantity,
      order_quantity: status.order_quantity,
      web_id: status.web_id,
    },
  };
  if (isStockTrade(trade)) {
    const { ca: _ca, ...fields } = trade.order;
    return orderEvent('StockOrder', {
      ...common,
      order: fields,
      contract: { ...contract, symbol: contract.code, name: '', currency: 'TWD' },
    } as unknown as StockOrderEvent);
  }
  const { ca: _ca, octype, ...fields } = trade.order;
  return orderEvent('FuturesOrder', {
    ...common,
    order: { ...fields, oc_type: octype, market_type: 'Day', subaccount: '', combo: false },
    contract: { ...contract, delivery_month: '', strike_price: 0, option_right: 'Future' },
  } as unknown as FuturesOrderEvent);
}
