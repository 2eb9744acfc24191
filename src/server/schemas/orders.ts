// Schemas of the orders API: place, cancel and update bodies, the account selector of the trade listings, and the
// Trade JSON of the official Shioaji HTTP server (the OpenAPI document comes from these).

import Type, { type Static } from 'typebox';
import { TRADE_PAGES } from '../../contract/wire.js';
import type { AccountSelector } from '../../domain/accounts.js';
import { COMBO_TYPES, EXCHANGES, SECURITY_TYPES } from '../../domain/contracts.js';
import { InvalidRequestError } from '../../domain/errors.js';
import { MAX_ORDER_PRICE, MAX_ORDER_QUANTITY } from '../../domain/order-rules.js';
import {
  ACTIONS,
  type ComboTrade,
  type Deal,
  FUTURES_OC_TYPE_INPUTS,
  FUTURES_OC_TYPES,
  FUTURES_PRICE_TYPES,
  type FuturesOrderInput,
  type FuturesTrade,
  ORDER_STATUSES,
  ORDER_TYPES,
  type OrderType,
  STOCK_ORDER_CONDS,
  STOCK_ORDER_LOTS,
  STOCK_PRICE_TYPES,
  type StockOrderInput,
  type StockTrade,
  type TradeContract,
  type TradeStatus,
} from '../../domain/orders.js';
import type { TradesPageRequest } from '../../gateway/trade-pages.js';
import {
  AccountRequestSchema,
  AccountSchema,
  AccountSelectorSchema,
  type AccountSelectorWire,
  selectorFieldsOf,
  selectorOf,
} from './accounts.js';
import { ComboRefSchema, ContractRefSchema } from './market-data.js';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

// Every number of a request has bounds: the exchanges' rules (lot sizes, price limits) answer a Failed trade with
// status.msg, so the schema refuses only what no order can be. Non-finite numbers never get here (validation.ts).
const Price = (description: string) => Type.Number({ minimum: 0, maximum: MAX_ORDER_PRICE, description });
const Quantity = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_ORDER_QUANTITY, description });
/** A day: the answer never waits that long, and only 0 (answer at once) changes what it does. */
const MAX_TIMEOUT_MS = 86_400_000;
const Timeout = (description: string) => Type.Number({ minimum: 0, maximum: MAX_TIMEOUT_MS, description });

// ---------------------------------------------------------------------------------------------------------------
// Accounts in request bodies

/** The trade listings' body: the selector flat or under `account`, as every account-scoped request. */
export const TradesBodySchema = Type.Object(AccountRequestSchema.properties, {
  additionalProperties: false,
  title: 'TradesRequest',
  description:
    '`{}` lists the trades of every account; `{account_type}` those of one type; `{broker_id, account_id}` ' +
    '(flat or under `account`) those of one account',
});

const PageDate = (description: string) =>
  Type.String({
    format: 'date',
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    description: `YYYY-MM-DD, Taiwan time; ${description}`,
  });

/**
 * order/trades: the selector, and optional paging. Without any paging field it answers as the official server does
 * (today's trades and the working orders); with one it reads older trades out of the journal, a page at a time.
 */
export const TradesPageBodySchema = Type.Object(
  {
    ...AccountRequestSchema.properties,
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: TRADE_PAGES.maxLimit,
        description: `paging: at most this many trades (1 to ${TRADE_PAGES.maxLimit}; ${TRADE_PAGES.defaultLimit} when paging without it)`,
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'paging: the X-Next-Cursor header of the previous page, as it came; the first page without it',
      }),
    ),
    begin_date: Type.Optional(PageDate('paging: orders placed on or after this day (all history when omitted)')),
    end_date: Type.Optional(PageDate('paging: orders placed on or before this day (up to now when omitted)')),
  },
  {
    additionalProperties: false,
    title: 'TradesPageRequest',
    description:
      '`{}` lists the trades of every account; `{account_type}` those of one type; `{broker_id, account_id}` ' +
      '(flat or under `account`) those of one account. Any of limit, cursor, begin_date and end_date pages through ' +
      'the history instead of listing today',
  },
);

/** The paging fields of an order/trades body; undefined when it has none (the official call: today's trades). */
export function tradesPageOf(body: Static<typeof TradesPageBodySchema> | undefined): TradesPageRequest | undefined {
  if (!body) return undefined;
  const { limit, cursor, begin_date: beginDate, end_date: endDate } = body;
  if (limit === undefined && cursor === undefined && beginDate === undefined && endDate === undefined) return undefined;
  return { limit, cursor, beginDate, endDate };
}

/** The selector of an order's `account`, without the echoed Account fields. */
export function orderAccountOf(account: AccountSelectorWire | undefined): AccountSelector | undefined {
  return account === undefined ? undefined : selectorFieldsOf(account);
}

/** The selector of a trades body; undefined when it names nothing (every account). */
export function tradesSelectorOf(body: Static<typeof TradesBodySchema> | undefined): AccountSelector | undefined {
  const selector = selectorOf(body);
  return Object.keys(selector).length === 0 ? undefined : selector;
}

// ---------------------------------------------------------------------------------------------------------------
// Request bodies

const orderFields = {
  action: Type.Enum([...ACTIONS], { description: 'Buy or Sell' }),
  price: Price('limit price; 0 for MKT and MKP'),
  custom_field: Type.Optional(
    Type.String({
      maxLength: 6,
      pattern: '^[A-Za-z0-9]*$',
      description: 'a memo echoed in order and deal reports: up to 6 letters or digits',
    }),
  ),
  account: Type.Optional(AccountSelectorSchema),
  ca: Type.Optional(Type.String({ description: 'the signature the 1.7.9 SDK sends (empty); ignored: sjgate signs' })),
};

/**
 * Time in force: 1.7.9 names it time_in_force and keeps order_type as its legacy name, sending both. Either is
 * enough; both must then agree (orderTermsOf).
 */
function timeInForceFields(description: string) {
  return {
    time_in_force: Type.Optional(Type.Enum([...ORDER_TYPES], { description: `${description} (1.7.9 name)` })),
    order_type: Type.Optional(
      Type.Enum([...ORDER_TYPES], { description: `${description}; the legacy name of time_in_force` }),
    ),
  };
}

/**
 * An order body as the port takes it: order_type from time_in_force or its legacy name (400 when neither is given
 * or they differ), the ignored ca dropped, the account reduced to its selector.
 */
export function orderTermsOf<
  T extends { time_in_force?: OrderType; order_type?: OrderType; ca?: string; account?: AccountSelectorWire },
>(
  order: T,
  field: string,
): Omit<T, 'time_in_force' | 'order_type' | 'ca' | 'account'> & {
  order_type: OrderType;
  account: AccountSelector | undefined;
} {
  const { time_in_force: timeInForce, order_type: legacy, ca: _signature, account, ...rest } = order;
  if (timeInForce !== undefined && legacy !== undefined && timeInForce !== legacy) {
    throw new InvalidRequestError(
      `${field}.time_in_force (${timeInForce}) and its legacy name ${field}.order_type (${legacy}) differ; give one, or both equal`,
    );
  }
  const orderType = timeInForce ?? legacy;
  if (orderType === undefined) {
    throw new InvalidRequestError(
      `${field} needs time_in_force (ROD, IOC or FOK); order_type, its legacy name, is accepted too`,
    );
  }
  return { ...rest, order_type: orderType, account: orderAccountOf(account) };
}

export const StockOrderSchema = Type.Object(
  {
    ...orderFields,
    quantity: Quantity('lots (1,000 shares) for Common, Fixing and BlockTrade; shares for Odd and IntradayOdd'),
    price_type: Type.Enum([...STOCK_PRICE_TYPES], { description: 'LMT, MKT or MKP' }),
    ...timeInForceFields('ROD, IOC or FOK'),
    order_lot: Type.Optional(
      Type.Enum([...STOCK_ORDER_LOTS], {
        description:
          'Common (default), BlockTrade, Fixing (after-hours fixed price), Odd (after-hours odd lot), ' + 'IntradayOdd',
      }),
    ),
    order_cond: Type.Optional(
      Type.Enum([...STOCK_ORDER_CONDS], {
        description:
          'Cash (default), Netting, MarginTrading, ShortSelling, SBLShort, SBLShortPriceExempt or Emerging; ' +
          'the simulator refuses SBLShort and SBLShortPriceExempt (a Failed trade saying why)',
      }),
    ),
    daytrade_short: Type.Optional(Type.Boolean({ description: 'sell first, buy back the same day; default false' })),
  },
  { additionalProperties: false, title: 'StockOrder' },
);

export const FuturesOrderSchema = Type.Object(
  {
    ...orderFields,
    quantity: Quantity('contracts'),
    price_type: Type.Enum([...FUTURES_PRICE_TYPES], { description: 'LMT, MKT or MKP (range market)' }),
    ...timeInForceFields('ROD, IOC or FOK; TAIFEX refuses MKT with ROD'),
    octype: Type.Optional(
      Type.Enum([...FUTURES_OC_TYPE_INPUTS], {
        description: 'Auto (default), New (also NewPosition), Cover or DayTrade',
      }),
    ),
  },
  { additionalProperties: false, title: 'FuturesOrder' },
);

export const PlaceOrderBodySchema = Type.Object(
  {
    contract: ContractRefSchema,
    // 1.7.9 sends the one it does not use as null: the route drops it before validation (unusedOrderIsAbsent).
    stock_order: Type.Optional(StockOrderSchema),
    futures_order: Type.Optional(FuturesOrderSchema),
    timeout: Type.Optional(
      Timeout('milliseconds; 0 returns at once with status Inactive and empty ids (they arrive in the order events)'),
    ),
  },
  {
    additionalProperties: false,
    title: 'PlaceOrderRequest',
    description:
      'exactly one of stock_order (stocks) and futures_order (futures and options); the other absent or null',
  },
);

// A combo leg by code. The legacy form gives each leg its action (and may echo a whole Contract); the newest form
// leaves actions out and takes the direction from order.action.
const ComboOrderLegSchema = Type.Object(
  {
    ...ContractRefSchema.properties,
    security_type: Type.Enum([...SECURITY_TYPES], { description: 'FUT or OPT' }),
    action: Type.Optional(Type.Enum([...ACTIONS], { description: 'legacy form: every leg has one, or none has' })),
    symbol: Type.Optional(Type.String({ description: 'ignored (Contract field)' })),
    category: Type.Optional(Type.String({ description: 'ignored (Contract field)' })),
    delivery_month: Type.Optional(Type.String({ description: 'ignored (Contract field)' })),
    strike_price: Type.Optional(
      Type.Number({ minimum: 0, maximum: MAX_ORDER_PRICE, description: 'ignored (Contract field)' }),
    ),
    option_right: Type.Optional(Type.String({ description: 'ignored (Contract field)' })),
    target_code: Type.Optional(Nullable(Type.String({ description: 'ignored (Contract field)' }))),
  },
  { additionalProperties: false, title: 'ComboOrderLeg' },
);

export const PlaceComboOrderBodySchema = Type.Object(
  {
    combo_contract: Type.Object(
      {
        ...ComboRefSchema.properties,
        legs: Type.Array(ComboOrderLegSchema, {
          maxItems: 8,
          description: 'exactly 2 TAIFEX legs; another count is a 400',
        }),
      },
      { additionalProperties: false, title: 'ComboOrderContract' },
    ),
    order: Type.Object(
      {
        ...FuturesOrderSchema.properties,
        price: Type.Number({
          minimum: -MAX_ORDER_PRICE,
          maximum: MAX_ORDER_PRICE,
          description: "the combo's net price as its quotes show it (far minus near for a spread; may be negative)",
        }),
        combo_type: Type.Optional(ComboRefSchema.properties.combo_type),
      },
      { additionalProperties: false, title: 'ComboOrder' },
    ),
    timeout: Type.Optional(Timeout('milliseconds; 0 answers at once (Inactive)')),
  },
  { additionalProperties: false, title: 'PlaceComboOrderRequest' },
);

const TradeId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'the id of the trade (order.id of the Trade that place_order returned)',
});

export const TradeIdBodySchema = Type.Object(
  { trade_id: TradeId },
  { additionalProperties: false, title: 'TradeIdRequest' },
);

export const UpdatePriceBodySchema = Type.Object(
  { trade_id: TradeId, price: Price('the new limit price') },
  { additionalProperties: false, title: 'UpdatePriceRequest' },
);

export const UpdateQtyBodySchema = Type.Object(
  {
    trade_id: TradeId,
    quantity: Quantity('how many to cancel (reduce by); the order keeps its price and queue position'),
  },
  { additionalProperties: false, title: 'UpdateQtyRequest' },
);

export const IdempotencyHeadersSchema = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        '1 to 128 visible ASCII characters; a retried place_order with the same key returns the first Trade ' +
        'instead of placing a second order',
    }),
  ),
});

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,128}$/;

/** Whether an Idempotency-Key header value is usable: 1 to 128 visible ASCII characters. */
export const isValidIdempotencyKey = (key: string): boolean => IDEMPOTENCY_KEY.test(key);

// ---------------------------------------------------------------------------------------------------------------
// The Trade, as the official server answers it

const TradeContractSchema = Type.Object(
  {
    security_type: Type.Enum([...SECURITY_TYPES]),
    exchange: Type.Enum([...EXCHANGES]),
    code: Type.String({ description: 'the code as ordered (e.g. TXFR1)' }),
    target_code: Nullable(
      Type.String({ description: 'the real contract of a continuous-month alias (TXFR1 → TXFL6); else null' }),
    ),
  },
  { title: 'TradeContract' },
);

const tradeOrderFields = {
  id: Type.String({ description: 'the trade id: cancel and update name the trade by it; empty until submitted' }),
  seqno: Type.String(),
  ordno: Type.String({ description: 'the exchange order number; empty until submitted' }),
  action: Type.Enum([...ACTIONS]),
  price: Type.Number(),
  quantity: Type.Integer(),
  time_in_force: Type.Enum([...ORDER_TYPES], { description: 'ROD, IOC or FOK (1.7.9 name); equal to order_type' }),
  order_type: Type.Enum([...ORDER_TYPES], { description: 'the legacy name of time_in_force' }),
  custom_field: Type.String(),
  account: AccountSchema,
  ca: Type.String({ description: 'signature; empty in simulation' }),
};

const StockTradeOrderSchema = Type.Object(
  {
    ...tradeOrderFields,
    price_type: Type.Enum([...STOCK_PRICE_TYPES]),
    order_cond: Type.Enum([...STOCK_ORDER_CONDS]),
    order_lot: Type.Enum([...STOCK_ORDER_LOTS]),
  },
  { title: 'StockTradeOrder' },
);

const FuturesTradeOrderSchema = Type.Object(
  {
    ...tradeOrderFields,
    price_type: Type.Enum([...FUTURES_PRICE_TYPES]),
    octype: Type.Enum([...FUTURES_OC_TYPES]),
  },
  { title: 'FuturesTradeOrder' },
);

const DealSchema = Type.Object(
  {
    seq: Type.String({ description: "'000001', '000002', ... per order" }),
    price: Type.Number(),
    quantity: Type.Integer(),
    ts: Type.Number({ description: 'epoch seconds' }),
  },
  { title: 'Deal' },
);

const RULE_VIOLATIONS =
  "sjgate's, not Shioaji's: every exchange or broker rule a refused new order, cancel or update breaks, in the order " +
  'they are checked; the first is msg (and status_code of a new order). Absent on orders no rule refused (and on the ' +
  'live broker, which names one)';

const RuleViolationSchema = Type.Object(
  {
    rule: Type.String({ description: "the rule's name, e.g. priceOnTickGrid" }),
    op_code: Type.String({ description: 'op_code of the order event, had this rule been the first' }),
    msg: Type.String({ description: "Shioaji's message for the rule, or English where it has none" }),
  },
  { title: 'RuleViolation' },
);

const TradeStatusSchema = Type.Object(
  {
    id: Type.String({ description: 'same as order.id' }),
    status: Type.Enum([...ORDER_STATUSES]),
    status_code: Type.String(),
    web_id: Type.String(),
    order_ts: Type.Number({ description: 'epoch seconds (float)' }),
    msg: Type.String({ description: 'the reason when Failed; the answer of the last operation otherwise' }),
    modified_ts: Type.Number({ description: 'epoch seconds of the last change; 0 before acknowledgement' }),
    modified_price: Type.Number(),
    order_quantity: Type.Integer({ description: 'the live quantity: ordered less cancelled; 0 until acknowledged' }),
    deal_quantity: Type.Integer(),
    cancel_quantity: Type.Integer({ description: 'cumulative: update_qty reductions and the cancelled remainder' }),
    deals: Type.Array(DealSchema),
    violations: Type.Optional(Type.Array(RuleViolationSchema, { description: RULE_VIOLATIONS })),
  },
  { title: 'TradeStatus' },
);

export const StockTradeSchema = Type.Object(
  { contract: TradeContractSchema, order: StockTradeOrderSchema, status: TradeStatusSchema },
  { title: 'StockTrade' },
);

export const FuturesTradeSchema = Type.Object(
  { contract: TradeContractSchema, order: FuturesTradeOrderSchema, status: TradeStatusSchema },
  { title: 'FuturesTrade' },
);

export const TradeSchema = Type.Union([StockTradeSchema, FuturesTradeSchema], {
  title: 'Trade',
  description: 'order has order_cond and order_lot for stocks, octype for futures and options',
});

const ComboTradeLegSchema = Type.Object(
  { ...TradeContractSchema.properties, action: Type.Enum([...ACTIONS]) },
  { title: 'ComboTradeLeg' },
);

export const ComboTradeSchema = Type.Object(
  {
    contract: Type.Object({ legs: Type.Tuple([ComboTradeLegSchema, ComboTradeLegSchema]) }),
    order: Type.Object(
      {
        id: tradeOrderFields.id,
        seqno: tradeOrderFields.seqno,
        ordno: tradeOrderFields.ordno,
        action: tradeOrderFields.action,
        price: Type.Number({ description: 'the net price' }),
        quantity: tradeOrderFields.quantity,
        time_in_force: tradeOrderFields.time_in_force,
        order_type: tradeOrderFields.order_type,
        price_type: Type.Enum([...FUTURES_PRICE_TYPES]),
        octype: Type.Enum([...FUTURES_OC_TYPES]),
        account: AccountSchema,
        combo_type: Type.Enum([...COMBO_TYPES]),
      },
      { title: 'ComboTradeOrder' },
    ),
    status: Type.Object(
      {
        ...Type.Omit(TradeStatusSchema, ['deals']).properties,
        deals: Type.Record(Type.String(), Type.Array(DealSchema), { description: 'deals per leg code; {} before any' }),
      },
      { title: 'ComboTradeStatus' },
    ),
  },
  { title: 'ComboTrade' },
);

// Compile-time proof that the Trade schemas and the domain types describe the same JSON, and that every validated
// order body is a valid input of the port (once the account's echoed fields are dropped).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Fits<A, B> = [A] extends [B] ? true : false;
type WithoutAccount<T> = Omit<T, 'account'>;
const proofs: [
  Same<Static<typeof TradeContractSchema>, TradeContract>,
  Same<Static<typeof DealSchema>, Deal>,
  Same<Static<typeof TradeStatusSchema>, TradeStatus>,
  Same<Static<typeof StockTradeSchema>, StockTrade>,
  Same<Static<typeof FuturesTradeSchema>, FuturesTrade>,
  Same<Static<typeof ComboTradeSchema>, ComboTrade>,
  Fits<
    WithoutAccount<ReturnType<typeof orderTermsOf<Static<typeof StockOrderSchema>>>>,
    WithoutAccount<StockOrderInput>
  >,
  Fits<
    WithoutAccount<ReturnType<typeof orderTermsOf<Static<typeof FuturesOrderSchema>>>>,
    WithoutAccount<FuturesOrderInput>
  >,
] = [true, true, true, true, true, true, true, true];
void proofs;
