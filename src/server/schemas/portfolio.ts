// Schemas of the portfolio API: the account selector with each query's extras, and every payload of the spec's
// "Portfolio" resources of the official Shioaji HTTP server, field by field, integers where the spec says int.

import Type, { type Static } from 'typebox';
import { ACTIONS, STOCK_ORDER_CONDS } from '../../domain/orders.js';
import type {
  AccountBalance,
  Currency,
  DateRange,
  FuturePosition,
  FuturePositionDetail,
  FutureProfitDetail,
  FutureProfitLoss,
  FutureProfitLossSummary,
  Margin,
  PositionUnit,
  ProfitLossSummary,
  ProfitLossTotal,
  Settlement,
  StockPosition,
  StockPositionDetail,
  StockProfitDetail,
  StockProfitLoss,
  StockProfitLossSummary,
  TradingLimits,
} from '../../domain/portfolio.js';
import { AccountSelectorSchema } from './accounts.js';

const POSITION_UNITS = ['Common', 'Share'] as const satisfies readonly PositionUnit[];
const CURRENCIES = ['TWD', 'USD', 'HKD', 'EUR', 'CAD', 'BAS'] as const satisfies readonly Currency[];

// ---------------------------------------------------------------------------------------------------------------
// Request bodies: the account selector (flat or under `account`, an Account object may be sent as is) and extras

/** Which account types a query takes: S or F (S when omitted), or only one of them. */
const ACCOUNT_TYPES = {
  either: Type.Enum(['S', 'F'], {
    description: 'S stock or F futures; omitted: S, or the type of the account broker_id and account_id name',
  }),
  stock: Type.Enum(['S'], { description: 'S: this query is about a stock account; may be omitted' }),
  futures: Type.Enum(['F'], { description: 'F: this query is about a futures account; may be omitted' }),
} as const;

type AccountTypes = keyof typeof ACCOUNT_TYPES;

/** The selector's fields, with account_type narrowed to what the query takes (also inside `account`). */
function selectorFieldsOf<T extends AccountTypes>(types: T) {
  return { ...AccountSelectorSchema.properties, account_type: Type.Optional(ACCOUNT_TYPES[types]) };
}

export function accountBody<T extends AccountTypes, P extends Type.TProperties>(types: T, title: string, extra: P) {
  const fields = selectorFieldsOf(types);
  return Type.Object(
    {
      ...fields,
      account: Type.Optional(
        Type.Object(fields, {
          additionalProperties: false,
          description: 'the account nested instead of flat; an Account from /auth/accounts may be sent as is',
        }),
      ),
      ...extra,
    },
    {
      additionalProperties: false,
      title,
      description:
        '`{}` (or no body) means the default account of the type; broker_id and account_id (flat or under ' +
        '`account`) name another',
    },
  );
}

const DatePattern = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';
const DateText = (description: string) =>
  Type.String({ pattern: DatePattern, description: `YYYY-MM-DD; ${description}` });

const Unit = Type.Enum([...POSITION_UNITS], {
  default: 'Common',
  description: 'Common (default): quantities in lots of 1,000 shares; Share: in shares, odd lots included',
});
const DetailId = (of: string) =>
  Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: `the id of a row of ${of}` });
const dateRange = {
  begin_date: Type.Optional(DateText('first day of the range; today when omitted')),
  end_date: Type.Optional(DateText('last day of the range, inclusive; today when omitted')),
};

export const StockAccountBodySchema = accountBody('stock', 'StockAccountRequest', {});
export const FuturesAccountBodySchema = accountBody('futures', 'FuturesAccountRequest', {});
export const PositionsBodySchema = accountBody('either', 'PositionsRequest', { unit: Type.Optional(Unit) });
export const PositionDetailBodySchema = accountBody('either', 'PositionDetailRequest', {
  detail_id: DetailId('position_unit'),
});
export const ProfitLossBodySchema = accountBody('either', 'ProfitLossRequest', {
  ...dateRange,
  unit: Type.Optional(Unit),
});
export const ProfitLossDetailBodySchema = accountBody('either', 'ProfitLossDetailRequest', {
  detail_id: DetailId('profit_loss'),
  unit: Type.Optional(Unit),
});
export const ProfitLossSummaryBodySchema = accountBody('either', 'ProfitLossSummaryRequest', dateRange);

/** begin_date and end_date as given; the port defaults both to today. */
export function dateRangeOf(body: DateRange): DateRange {
  return {
    ...(body.begin_date === undefined ? {} : { begin_date: body.begin_date }),
    ...(body.end_date === undefined ? {} : { end_date: body.end_date }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Responses

const Direction = Type.Enum([...ACTIONS], { description: 'Buy (long) or Sell (short)' });
const Cond = Type.Enum([...STOCK_ORDER_CONDS], {
  description: 'Cash, Netting, MarginTrading, ShortSelling or Emerging',
});
const CurrencySchema = Type.Enum([...CURRENCIES]);
const Float = (description?: string) => Type.Number(description === undefined ? {} : { description });
const Int = (description?: string) => Type.Integer(description === undefined ? {} : { description });
const DAY = Type.String({ description: 'YYYY-MM-DD' });
const QUANTITY = 'lots for unit Common, shares for unit Share';

export const AccountBalanceSchema = Type.Object(
  {
    acc_balance: Float('the bank balance of the settlement account, NT$'),
    date: Type.String({ description: "'YYYY-MM-DD HH:MM:SS.ffffff', Taiwan time" }),
    errmsg: Type.String({ description: 'empty when fine' }),
  },
  { title: 'AccountBalance' },
);

const MARGIN_FIELDS = [
  'yesterday_balance',
  'today_balance',
  'deposit_withdrawal',
  'fee',
  'tax',
  'initial_margin',
  'maintenance_margin',
  'margin_call',
  'risk_indicator',
  'royalty_revenue_expenditure',
  'equity',
  'equity_amount',
  'option_openbuy_market_value',
  'option_opensell_market_value',
  'option_open_position',
  'option_settle_profitloss',
  'future_open_position',
  'today_future_open_position',
  'future_settle_profitloss',
  'available_margin',
  'plus_margin',
  'plus_margin_indicator',
  'security_collateral_amount',
  'order_margin_premium',
  'collateral_amount',
] as const satisfies readonly (keyof Margin)[];

export const MarginSchema = Type.Object(
  Object.fromEntries(MARGIN_FIELDS.map((name) => [name, Float()])) as Record<
    (typeof MARGIN_FIELDS)[number],
    Type.TNumber
  >,
  { title: 'Margin', description: 'NT$ amounts of a futures account; every field a number' },
);

const positionFields = {
  id: Int('the position id: detail_id of position_detail'),
  code: Type.String(),
  direction: Direction,
  quantity: Int(QUANTITY),
  price: Float('average cost price'),
  last_price: Float(),
  pnl: Float('unrealized profit and loss, NT$'),
};

export const StockPositionSchema = Type.Object(
  {
    ...positionFields,
    yd_quantity: Int('held at the end of the previous trading day'),
    cond: Cond,
    margin_purchase_amount: Int(),
    collateral: Int(),
    short_sale_margin: Int(),
    interest: Int(),
  },
  { title: 'StockPosition' },
);

export const FuturePositionSchema = Type.Object(
  { ...positionFields, quantity: Int('contracts') },
  { title: 'FuturePosition' },
);

// A stock row also fits the futures schema (it has every futures field): the stock schema comes first in each union.
export const PositionsSchema = Type.Union([Type.Array(StockPositionSchema), Type.Array(FuturePositionSchema)], {
  description: 'StockPosition rows for a stock account, FuturePosition rows for a futures account',
});

const positionDetailFields = {
  date: DAY,
  code: Type.String(),
  quantity: Int(),
  price: Float('cost price'),
  last_price: Float(),
  dseq: Type.String({ description: 'the order book number' }),
  direction: Direction,
  pnl: Float(),
  currency: CurrencySchema,
  fee: Float(),
};

export const StockPositionDetailSchema = Type.Object(
  {
    ...positionDetailFields,
    cond: Cond,
    ex_dividends: Int(),
    interest: Int(),
    margintrading_amt: Int(),
    collateral: Int(),
  },
  { title: 'StockPositionDetail' },
);

export const FuturePositionDetailSchema = Type.Object(
  { ...positionDetailFields, entry_quantity: Int('the quantity opened') },
  { title: 'FuturePositionDetail' },
);

export const PositionDetailsSchema = Type.Union(
  [Type.Array(StockPositionDetailSchema), Type.Array(FuturePositionDetailSchema)],
  { description: 'the trades that make up one position' },
);

const profitLossFields = {
  id: Int('detail_id of profit_loss_detail'),
  code: Type.String(),
  quantity: Int(),
  pnl: Float('realized profit and loss, NT$'),
  date: DAY,
};

export const StockProfitLossSchema = Type.Object(
  {
    ...profitLossFields,
    dseq: Type.String(),
    price: Float(),
    pr_ratio: Float('profit ratio, %'),
    cond: Cond,
    seqno: Type.String(),
  },
  { title: 'StockProfitLoss' },
);

export const FutureProfitLossSchema = Type.Object(
  {
    ...profitLossFields,
    entry_price: Float(),
    cover_price: Float(),
    tax: Int(),
    fee: Int(),
    direction: Direction,
  },
  { title: 'FutureProfitLoss' },
);

export const ProfitLossesSchema = Type.Union([Type.Array(StockProfitLossSchema), Type.Array(FutureProfitLossSchema)], {
  description: 'one row per closing trade in the date range',
});

const profitDetailFields = {
  date: DAY,
  code: Type.String(),
  quantity: Int(),
  dseq: Type.String(),
  currency: CurrencySchema,
};

export const StockProfitDetailSchema = Type.Object(
  {
    ...profitDetailFields,
    fee: Int(),
    tax: Int(),
    price: Float(),
    cost: Int(),
    rep_margintrading_amt: Int(),
    rep_collateral: Int(),
    rep_margin: Int(),
    shortselling_fee: Int(),
    ex_dividend_amt: Int(),
    interest: Int(),
    trade_type: Type.Enum(['Common', 'DayTrade']),
    cond: Cond,
  },
  { title: 'StockProfitDetail' },
);

export const FutureProfitDetailSchema = Type.Object(
  {
    ...profitDetailFields,
    fee: Float(),
    tax: Float(),
    direction: Direction,
    entry_date: DAY,
    entry_quantity: Int(),
    entry_seqno: Type.String(),
    entry_price: Float(),
    cover_price: Float(),
    pnl: Int(),
  },
  { title: 'FutureProfitDetail' },
);

export const ProfitDetailsSchema = Type.Union(
  [Type.Array(StockProfitDetailSchema), Type.Array(FutureProfitDetailSchema)],
  { description: 'the opening and closing trades of one profit_loss row' },
);

const summaryFields = {
  code: Type.String(),
  quantity: Int(),
  entry_price: Float(),
  cover_price: Float(),
  pnl: Float(),
  currency: CurrencySchema,
};

export const StockProfitLossSummarySchema = Type.Object(
  {
    ...summaryFields,
    entry_cost: Int('excluding fee and tax'),
    cover_cost: Int(),
    buy_cost: Int(),
    sell_cost: Int(),
    pr_ratio: Float(),
    cond: Cond,
  },
  { title: 'StockProfitLossSummary' },
);

export const FutureProfitLossSummarySchema = Type.Object(
  { ...summaryFields, direction: Direction, tax: Int(), fee: Int() },
  { title: 'FutureProfitLossSummary' },
);

export const ProfitLossTotalSchema = Type.Object(
  {
    entry_amount: Float(),
    cover_amount: Float(),
    quantity: Int(),
    buy_cost: Float(),
    sell_cost: Float(),
    pnl: Float(),
    pr_ratio: Float(),
  },
  { title: 'ProfitLossTotal' },
);

export const ProfitLossSummarySchema = Type.Object(
  {
    profitloss_sum: Type.Union([Type.Array(StockProfitLossSummarySchema), Type.Array(FutureProfitLossSummarySchema)], {
      description: 'one row per code (and direction for futures)',
    }),
    total: ProfitLossTotalSchema,
  },
  { title: 'ProfitLossSummary' },
);

export const SettlementSchema = Type.Object(
  {
    date: DAY,
    amount: Float('NT$ to receive (positive) or to pay (negative)'),
    T: Int('trading days after the trade: 0, 1 or 2'),
  },
  { title: 'Settlement' },
);

export const TradingLimitsSchema = Type.Object(
  {
    trading_limit: Int(),
    trading_used: Int(),
    trading_available: Int(),
    margin_limit: Int(),
    margin_used: Int(),
    margin_available: Int(),
    short_limit: Int(),
    short_used: Int(),
    short_available: Int(),
  },
  { title: 'TradingLimits', description: 'NT$ amounts' },
);

// Compile-time proof that every response schema describes exactly the domain's payload, and that the request extras
// are what the port takes.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Fits<A, B> = [A] extends [B] ? true : false;
const proofs: [
  Same<Static<typeof AccountBalanceSchema>, AccountBalance>,
  Same<Static<typeof MarginSchema>, Margin>,
  Same<Static<typeof StockPositionSchema>, StockPosition>,
  Same<Static<typeof FuturePositionSchema>, FuturePosition>,
  Same<Static<typeof StockPositionDetailSchema>, StockPositionDetail>,
  Same<Static<typeof FuturePositionDetailSchema>, FuturePositionDetail>,
  Same<Static<typeof StockProfitLossSchema>, StockProfitLoss>,
  Same<Static<typeof FutureProfitLossSchema>, FutureProfitLoss>,
  Same<Static<typeof StockProfitDetailSchema>, StockProfitDetail>,
  Same<Static<typeof FutureProfitDetailSchema>, FutureProfitDetail>,
  Same<Static<typeof StockProfitLossSummarySchema>, StockProfitLossSummary>,
  Same<Static<typeof FutureProfitLossSummarySchema>, FutureProfitLossSummary>,
  Same<Static<typeof ProfitLossTotalSchema>, ProfitLossTotal>,
  Same<Static<typeof ProfitLossSummarySchema>, ProfitLossSummary>,
  Same<Static<typeof SettlementSchema>, Settlement>,
  Same<Static<typeof TradingLimitsSchema>, TradingLimits>,
  Fits<Static<typeof ProfitLossBodySchema>['unit'], PositionUnit | undefined>,
  Fits<Static<typeof ProfitLossBodySchema>['begin_date'], DateRange['begin_date']>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];
void proofs;
