// Orders as Shioaji models them: enums, order requests, the Trade JSON of the HTTP server
// (docs/official-behaviour.md), the order_event payloads (docs/shioaji-model.md) and the life cycle of an order's status.

import type { Account, AccountSelector } from './accounts.js';
import type { ComboType, Exchange, SecurityType } from './contracts.js';
import { InvalidRequestError } from './errors.js';
import type { StatusViolation } from './order-violations.js';

export const ACTIONS = ['Buy', 'Sell'] as const;
export type Action = (typeof ACTIONS)[number];

export const STOCK_PRICE_TYPES = ['LMT', 'MKT', 'MKP'] as const;
export type StockPriceType = (typeof STOCK_PRICE_TYPES)[number];

/** MKP is TAIFEX's range-market order (範圍市價, MWP). */
export const FUTURES_PRICE_TYPES = ['LMT', 'MKT', 'MKP'] as const;
export type FuturesPriceType = (typeof FUTURES_PRICE_TYPES)[number];

export type PriceType = StockPriceType | FuturesPriceType;

export const ORDER_TYPES = ['ROD', 'IOC', 'FOK'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

/** Common 整股, BlockTrade 鉅額, Fixing 盤後定價, Odd 盤後零股, IntradayOdd 盤中零股. */
export const STOCK_ORDER_LOTS = ['Common', 'BlockTrade', 'Fixing', 'Odd', 'IntradayOdd'] as const;
export type StockOrderLot = (typeof STOCK_ORDER_LOTS)[number];

/** Cash 現股, Netting 餘額交割, MarginTrading 融資, ShortSelling 融券, Emerging 興櫃. */
export const STOCK_ORDER_CONDS = [
  'Cash',
  'Netting',
  'MarginTrading',
  'ShortSelling',
  // 1.7.9: short sales on borrowed securities (借券賣出); the simulator refuses them (order-rules.ts)
  'SBLShort',
  'SBLShortPriceExempt',
  'Emerging',
] as const;
export type StockOrderCond = (typeof STOCK_ORDER_CONDS)[number];

export const FUTURES_OC_TYPES = ['Auto', 'New', 'Cover', 'DayTrade'] as const;
export type FuturesOCType = (typeof FUTURES_OC_TYPES)[number];

/** What a client may send as octype: NewPosition is the SDK's name for New after the exchange resolves Auto. */
export const FUTURES_OC_TYPE_INPUTS = [...FUTURES_OC_TYPES, 'NewPosition'] as const;
export type FuturesOCTypeInput = (typeof FUTURES_OC_TYPE_INPUTS)[number];

export const ORDER_STATUSES = [
  'PendingSubmit',
  'PreSubmitted',
  'Submitted',
  'Failed',
  'Cancelled',
  'Filled',
  'PartFilled',
  'Inactive',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Board lot: Common, Fixing and BlockTrade quantities count lots of this many shares. */
export const BOARD_LOT_SHARES = 1000;

export const normalizeOcType = (octype: FuturesOCTypeInput): FuturesOCType =>
  octype === 'NewPosition' ? 'New' : octype;

/** custom_field is a memo echoed in events: at most 6 ASCII letters or digits (empty is the default). */
export function isValidCustomField(value: string): boolean {
  return /^[A-Za-z0-9]{0,6}$/.test(value);
}

/** True when a stock order's quantity counts shares (odd lots) rather than board lots. */
export const isOddLot = (lot: StockOrderLot): boolean => lot === 'Odd' || lot === 'IntradayOdd';

/** Shares a stock order covers: lots x 1,000 for board-lot orders, the quantity itself for odd lots. */
export const orderShares = (lot: StockOrderLot, quantity: number): number =>
  isOddLot(lot) ? quantity : quantity * BOARD_LOT_SHARES;

// ---------------------------------------------------------------------------------------------------------------
// Order requests

interface OrderRequestFields {
  action: Action;
  /** 0 for MKT and MKP. */
  price: number;
  /** Stocks: lots (Common, Fixing, BlockTrade) or shares (Odd, IntradayOdd); futures and options: contracts. */
  quantity: number;
  order_type: OrderType;
  custom_field: string;
  /** Omitted: the default account of the order's type. */
  account?: AccountSelector | undefined;
}

/** A stock order with its defaults applied. */
export interface StockOrderRequest extends OrderRequestFields {
  price_type: StockPriceType;
  order_lot: StockOrderLot;
  order_cond: StockOrderCond;
  /** Sell first, buy back the same day (現股當沖先賣). */
  daytrade_short: boolean;
}

/**
 * A futures or options order with its defaults applied. It never holds order_lot: the field tells the two kinds of
 * order apart (a discriminated union on order_lot), so the wire shape needs no field of its own for the kind.
 */
export interface FuturesOrderRequest extends OrderRequestFields {
  price_type: FuturesPriceType;
  octype: FuturesOCType;
  order_lot?: never;
}

/** A combo order: price is the net price (buy legs minus sell legs); the quantity applies to both legs. */
export interface ComboOrderRequest extends FuturesOrderRequest {
  combo_type?: ComboType | undefined;
}

export type OrderRequest = StockOrderRequest | FuturesOrderRequest;

export const isStockOrder = (order: OrderRequest): order is StockOrderRequest => order.order_lot !== undefined;

/** A stock order as a client sends it: the fields with defaults may be left out. */
export type StockOrderInput = Omit<StockOrderRequest, 'order_lot' | 'order_cond' | 'daytrade_short' | 'custom_field'> &
  Partial<Pick<StockOrderRequest, 'order_lot' | 'order_cond' | 'daytrade_short' | 'custom_field'>>;

export type FuturesOrderInput = Omit<FuturesOrderRequest, 'octype' | 'custom_field'> & {
  octype?: FuturesOCTypeInput | undefined;
  custom_field?: string | undefined;
};

// The defaults come before the spread and are set again after it when the input holds undefined: on Node 20, a literal
// that adds keys after a spread (`{ ...input, order_lot }`) takes V8's slow path, microseconds per key, per order.

/**
 * Refuses a number that is not finite among the top-level fields (price, quantity, ...) before anything is built
 * from them: JSON.parse reads 1e400 as Infinity, JSON.stringify writes it as null, and an order or a journal row
 * holding one cannot be answered or restored. The HTTP API refuses them first (422); this guards every other caller.
 */
export function requireFiniteNumbers(fields: object, what: string): void {
  const bad = Object.entries(fields).filter(([, value]) => typeof value === 'number' && !Number.isFinite(value));
  if (bad.length === 0) return;
  const named = bad.map(([name, value]) => `${name} must be a finite number, got ${value}`).join('; ');
  throw new InvalidRequestError(`${what}: ${named}`);
}

export function stockOrderRequest(input: StockOrderInput): StockOrderRequest {
  requireFiniteNumbers(input, 'stock_order');
  const lot: StockOrderLot = 'Common';
  const cond: StockOrderCond = 'Cash';
  const request = { order_lot: lot, order_cond: cond, daytrade_short: false, custom_field: '', ...input };
  request.order_lot ??= 'Common';
  request.order_cond ??= 'Cash';
  request.daytrade_short ??= false;
  request.custom_field ??= '';
  return request as StockOrderRequest;
}

export function futuresOrderRequest(input: FuturesOrderInput): FuturesOrderRequest {
  requireFiniteNumbers(input, 'futures_order');
  const request = { octype: 'Auto' as FuturesOCTypeInput, custom_field: '', ...input };
  request.octype = normalizeOcType(request.octype ?? 'Auto');
  request.custom_field ??= '';
  return request as FuturesOrderRequest;
}

// ---------------------------------------------------------------------------------------------------------------
// Trade JSON (docs/official-behaviour.md)

/** The minimal contract of a Trade; target_code is the resolved month for a continuous alias (TMFR1 → TMFE6). */
export interface TradeContract {
  security_type: SecurityType;
  exchange: Exchange;
  code: string;
  target_code: string | null;
}

interface TradeOrderFields {
  /** The trade id: cancel and update name the trade by it. */
  id: string;
  seqno: string;
  ordno: string;
  action: Action;
  price: number;
  quantity: number;
  /** ROD, IOC or FOK: the 1.7.9 name of order_type; always equal to it. */
  time_in_force: OrderType;
  order_type: OrderType;
  custom_field: string;
  account: Account;
  /** Signature; empty in simulation. */
  ca: string;
}

export interface StockTradeOrder extends TradeOrderFields {
  price_type: StockPriceType;
  order_cond: StockOrderCond;
  order_lot: StockOrderLot;
}

/** Never holds order_lot, which tells a stock order from this one (see FuturesOrderRequest). */
export interface FuturesTradeOrder extends TradeOrderFields {
  price_type: FuturesPriceType;
  octype: FuturesOCType;
  order_lot?: never;
}

export type TradeOrder = StockTradeOrder | FuturesTradeOrder;

export const isStockTradeOrder = (order: TradeOrder): order is StockTradeOrder => order.order_lot !== undefined;

export interface Deal {
  /** '000001', '000002', ... per order. */
  seq: string;
  price: number;
  quantity: number;
  /** Epoch seconds. */
  ts: number;
}

export interface TradeStatus {
  /** Same as order.id. */
  id: string;
  status: OrderStatus;
  status_code: string;
  web_id: string;
  /** Epoch seconds (float). */
  order_ts: number;
  /** '委託成功' when accepted; the reason when Failed. */
  msg: string;
  /** Epoch seconds of the last change; 0 before the exchange acknowledged the order. */
  modified_ts: number;
  modified_price: number;
  /** The live quantity: the order's quantity less what was cancelled; 0 until acknowledged. */
  order_quantity: number;
  deal_quantity: number;
  /** Cumulative: update_qty reductions and the cancelled remainder. */
  cancel_quantity: number;
  deals: Deal[];
  /** sjgate's: every rule a refused new order or change breaks, the first being msg (order-violations.ts). */
  violations?: StatusViolation[];
}

export interface StockTrade {
  contract: TradeContract;
  order: StockTradeOrder;
  status: TradeStatus;
}

export interface FuturesTrade {
  contract: TradeContract;
  order: FuturesTradeOrder;
  status: TradeStatus;
}

export type Trade = StockTrade | FuturesTrade;

export const isStockTrade = (trade: Trade): trade is StockTrade => isStockTradeOrder(trade.order);

// Combo trades: legs carry their own action; deals are keyed by leg code. Times follow the Trade JSON
// decision (order_ts/modified_ts epoch seconds) rather than the ISO order_datetime of some doc samples.

export interface ComboTradeLeg extends TradeContract {
  action: Action;
}

export interface ComboTradeOrder {
  id: string;
  seqno: string;
  ordno: string;
  action: Action;
  price: number;
  quantity: number;
  /** The 1.7.9 name of order_type; always equal to it. */
  time_in_force: OrderType;
  order_type: OrderType;
  price_type: FuturesPriceType;
  octype: FuturesOCType;
  account: Account;
  combo_type: ComboType;
}

export interface ComboTradeStatus extends Omit<TradeStatus, 'deals'> {
  /** Deals per leg code; {} before any fill. */
  deals: Record<string, Deal[]>;
}

export interface ComboTrade {
  contract: { legs: [ComboTradeLeg, ComboTradeLeg] };
  order: ComboTradeOrder;
  status: ComboTradeStatus;
}

// ---------------------------------------------------------------------------------------------------------------
// Order life cycle (order-states.ts holds the moves between statuses)

/** Orders in these states never change again. */
export const FINAL_ORDER_STATUSES: readonly OrderStatus[] = ['Filled', 'Cancelled', 'Failed'];

export const isFinalStatus = (status: OrderStatus): boolean => FINAL_ORDER_STATUSES.includes(status);

export interface OrderQuantities {
  order_quantity: number;
  deal_quantity: number;
  cancel_quantity: number;
}

/** What is still working at the exchange: the live quantity less what was filled. */
export const openQuantity = (q: Pick<OrderQuantities, 'order_quantity' | 'deal_quantity'>): number =>
  Math.max(0, q.order_quantity - q.deal_quantity);

// ---------------------------------------------------------------------------------------------------------------
// order_event payloads (docs/shioaji-model.md; spec 001 "Order and deal reports")

export const ORDER_STATES = ['StockOrder', 'StockDeal', 'FuturesOrder', 'FuturesDeal'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

export const OP_TYPES = ['New', 'Cancel', 'UpdatePrice', 'UpdateQty'] as const;
export type OpType = (typeof OP_TYPES)[number];

/** op_code of a successful operation; anything else is a failure explained by op_msg. */
export const OP_CODE_OK = '00';

export type MarketType = 'Day' | 'Night';
export type EventOptionRight = 'Future' | 'OptionCall' | 'OptionPut';

export interface Operation {
  op_type: OpType;
  op_code: string;
  op_msg: string;
}

export interface OrderEventStatus {
  id: string;
  /** Epoch seconds. */
  exchange_ts: number;
  modified_price: number;
  cancel_quantity: number;
  order_quantity: number;
  web_id: string;
}

export interface StockOrderEvent {
  /** An opaque receipt id, unique per report (1.7.9). */
  event_id: string;
  operation: Operation;
  order: {
    id: string;
    seqno: string;
    ordno: string;
    account: Account;
    action: Action;
    price: number;
    quantity: number;
    /** The 1.7.9 name of order_type; always equal to it. */
    time_in_force: OrderType;
    order_type: OrderType;
    price_type: StockPriceType;
    order_cond: StockOrderCond;
    order_lot: StockOrderLot;
    custom_field: string;
  };
  status: OrderEventStatus;
  contract: {
    security_type: SecurityType;
    exchange: Exchange;
    code: string;
    symbol: string;
    name: string;
    currency: string;
  };
}

export interface StockDealEvent {
  /** An opaque receipt id, unique per report (1.7.9). */
  event_id: string;
  /** The order's id. */
  trade_id: string;
  seqno: string;
  /** The order's ordno followed by the deal's sequence. */
  ordno: string;
  exchange_seq: string;
  broker_id: string;
  account_id: string;
  action: Action;
  code: string;
  order_cond: StockOrderCond;
  order_lot: StockOrderLot;
  price: number;
  quantity: number;
  web_id: string;
  custom_field: string;
  /** Epoch seconds. */
  ts: number;
}

export interface FuturesOrderEvent {
  /** An opaque receipt id, unique per report (1.7.9). */
  event_id: string;
  operation: Operation;
  order: {
    id: string;
    seqno: string;
    ordno: string;
    account: Account;
    action: Action;
    price: number;
    quantity: number;
    /** The 1.7.9 name of order_type; always equal to it. */
    time_in_force: OrderType;
    order_type: OrderType;
    price_type: FuturesPriceType;
    market_type: MarketType;
    oc_type: FuturesOCType;
    subaccount: string;
    combo: boolean;
    /** The spec keeps custom_field in futures reports (only cond and lot are replaced by oc_type). */
    custom_field: string;
  };
  status: OrderEventStatus;
  contract: {
    security_type: SecurityType;
    /** The product root, e.g. TMF. */
    code: string;
    /** The contract, e.g. TMFF6. */
    full_code: string;
    /** The SDK reports 'TIM' for TAIFEX here. */
    exchange: string;
    delivery_month: string;
    delivery_date: string;
    strike_price: number;
    option_right: EventOptionRight;
  };
}

export interface FuturesDealEvent {
  /** An opaque receipt id, unique per report (1.7.9). */
  event_id: string;
  trade_id: string;
  seqno: string;
  ordno: string;
  exchange_seq: string;
  broker_id: string;
  account_id: string;
  action: Action;
  /** The product root. */
  code: string;
  full_code: string;
  price: number;
  quantity: number;
  subaccount: string;
  security_type: SecurityType;
  delivery_month: string;
  strike_price: number;
  option_right: EventOptionRight;
  market_type: MarketType;
  combo: boolean;
  /** Epoch seconds. */
  ts: number;
}

export interface OrderEventBodies {
  StockOrder: StockOrderEvent;
  StockDeal: StockDealEvent;
  FuturesOrder: FuturesOrderEvent;
  FuturesDeal: FuturesDealEvent;
}

/** The wrapped SSE form: {state, data: {<state>: body}}. */
export type OrderEventOf<S extends OrderState> = { state: S; data: { [K in S]: OrderEventBodies[S] } };

export type OrderEvent = { [S in OrderState]: OrderEventOf<S> }[OrderState];

export function orderEvent<S extends OrderState>(state: S, body: OrderEventBodies[S]): OrderEventOf<S> {
  return { state, data: { [state]: body } as { [K in S]: OrderEventBodies[S] } };
}

/** The body of a wrapped event. */
export function orderEventBody<S extends OrderState>(event: OrderEventOf<S>): OrderEventBodies[S] {
  return event.data[event.state];
}

/** The status of an order the venue has not answered yet: PendingSubmit while placing, Inactive without ids. */
export function blankStatus(id: string, status: 'PendingSubmit' | 'Inactive', orderTs: number): TradeStatus {
  return {
    id,
    status,
    status_code: status === 'PendingSubmit' ? '0' : '',
    web_id: '',
    order_ts: orderTs,
    msg: '',
    modified_ts: 0,
    modified_price: 0,
    order_quantity: 0,
    deal_quantity: 0,
    cancel_quantity: 0,
    deals: [],
  };
}
