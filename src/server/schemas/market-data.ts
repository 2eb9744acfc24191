// Schemas of the market-data API: the contract references clients send, the request bodies, and every response
// record (the OpenAPI document comes from these).

import Type, { type Static } from 'typebox';
import { COMBO_TYPES, SECURITY_TYPES } from '../../domain/contracts.js';
import {
  CHANGE_TYPES,
  type ContractRef,
  type CreditEnquire,
  type DailyQuotes,
  type InstrumentRef,
  type Kbars,
  type KbarsQuery,
  MAX_SNAPSHOTS,
  type Notice,
  type Punish,
  SCANNER_TYPES,
  type ScannerItem,
  type ScannerQuery,
  type ShortStockSource,
  type Snapshot,
  TICKS_QUERY_TYPES,
  type Ticks,
  type TicksQuery,
} from '../../domain/market-data.js';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Column = <T extends Type.TSchema>(item: T, description: string) => Type.Array(item, { description });

// format date (ajv-formats, full mode) also refuses days that do not exist, such as 2026-02-30 and 2026-13-01
const DateText = (description: string) =>
  Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: `YYYY-MM-DD; ${description}` });
const TimeText = (description: string) =>
  Type.String({
    pattern: '^([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(\\.\\d{1,6})?$',
    description: `HH:MM:SS or HH:MM:SS.ffffff, Taiwan time; ${description}`,
  });

// ---------------------------------------------------------------------------------------------------------------
// Contract references in request bodies

export const contractRefFields = {
  security_type: Type.Optional(
    Type.Enum([...SECURITY_TYPES], { description: 'STK, FUT, OPT, IND or WRT; resolved from the code when omitted' }),
  ),
  exchange: Type.Optional(
    Type.Enum(['TSE', 'OTC', 'OES', 'TAIFEX', ''], { description: 'TSE, OTC, OES or TAIFEX; may be omitted' }),
  ),
  code: Type.String({ minLength: 1, maxLength: 40, description: 'product code, e.g. 2330, TXFR1, IX0001' }),
  target_code: Type.Optional(
    Nullable(Type.String({ description: 'ignored; accepted so a Contract object can be sent back as is' })),
  ),
  region: Type.Optional(Type.Literal('TW', { description: 'TW; the only market served' })),
};

/** A contract by code: exactly the fields of a Contract, so a Contract from the contracts API is accepted as is. */
export const ContractRefSchema = Type.Object(contractRefFields, { additionalProperties: false, title: 'ContractRef' });

// A leg may carry `action` only so that the combo rules can answer it with their 400 message (as the contracts API).
const ComboLegRefSchema = Type.Object(
  {
    ...contractRefFields,
    action: Type.Optional(Type.Unknown({ description: 'not allowed: a combo has no direction (400)' })),
  },
  { additionalProperties: false, title: 'ComboLegRef' },
);

/**
 * A combo by its legs. The leg count is checked by the combo rules (400 with their message, as every combo
 * construction error), so the schema only bounds it. The other ComboContract fields are accepted and ignored.
 */
export const ComboRefSchema = Type.Object(
  {
    legs: Type.Array(ComboLegRefSchema, {
      maxItems: 8,
      description: 'exactly 2 legs (futures or options of TAIFEX); another count is a 400',
    }),
    combo_type: Type.Optional(
      Nullable(
        Type.Enum([...COMBO_TYPES], {
          description: 'derived from the legs when omitted or null; 400 if it does not fit them',
        }),
      ),
    ),
    code: Type.Optional(Nullable(Type.String({ description: 'ignored (ComboContract field)' }))),
    region: Type.Optional(Type.Literal('TW', { description: 'ignored (ComboContract field)' })),
    exchange: Type.Optional(Type.Enum(['TAIFEX', ''], { description: 'ignored (ComboContract field)' })),
    managed: Type.Optional(Type.Boolean({ description: 'ignored (ComboContract field)' })),
  },
  { additionalProperties: false, title: 'ComboRef' },
);

export const InstrumentRefSchema = Type.Union([ContractRefSchema, ComboRefSchema], {
  title: 'InstrumentRef',
  description: 'a contract {security_type, exchange, code} or a combo {legs: [2 contracts], combo_type?}',
});

// ---------------------------------------------------------------------------------------------------------------
// Request bodies

export const TicksBodySchema = Type.Object(
  {
    contract: InstrumentRefSchema,
    date: Type.Optional(
      DateText('the trading day; the latest one when omitted. Futures days start with the night session before'),
    ),
    query_type: Type.Optional(
      Type.Enum([...TICKS_QUERY_TYPES], {
        default: 'AllDay',
        description: 'AllDay: the whole day; RangeTime: time_start..time_end; LastCount: the last last_cnt ticks',
      }),
    ),
    // 1.7.9 sends both as null outside RangeTime: null means not given.
    time_start: Type.Optional(Nullable(TimeText('required with RangeTime; null is not given'))),
    time_end: Type.Optional(Nullable(TimeText('required with RangeTime; null is not given'))),
    last_cnt: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 100_000, description: 'how many ticks; required with LastCount' }),
    ),
  },
  { additionalProperties: false, title: 'TicksRequest' },
);

export const KbarsBodySchema = Type.Object(
  {
    contract: InstrumentRefSchema,
    start: Type.Optional(DateText('first day; today when omitted')),
    end: Type.Optional(DateText('last day, inclusive; today when omitted. At most 30 days after start')),
  },
  { additionalProperties: false, title: 'KbarsRequest' },
);

export const SnapshotsBodySchema = Type.Object(
  {
    contracts: Type.Array(InstrumentRefSchema, {
      minItems: 0,
      maxItems: MAX_SNAPSHOTS,
      description: `at most ${MAX_SNAPSHOTS} contracts and combos, mixed freely`,
    }),
  },
  { additionalProperties: false, title: 'SnapshotsRequest' },
);

export const ScannerBodySchema = Type.Object(
  {
    scanner_type: Type.Enum([...SCANNER_TYPES], { description: 'what the stocks are ranked by' }),
    date: Type.Optional(DateText('the trading day; the latest one when omitted')),
    ascending: Type.Optional(
      Type.Boolean({ default: true, description: 'true: largest first; false: smallest first' }),
    ),
    count: Type.Optional(Type.Integer({ minimum: 0, maximum: 200, default: 200, description: 'how many rows' })),
  },
  { additionalProperties: false, title: 'ScannerRequest' },
);

/** credit_enquire and short_stock_sources. */
export const StockContractsBodySchema = Type.Object(
  {
    contracts: Type.Array(ContractRefSchema, {
      minItems: 1,
      maxItems: MAX_SNAPSHOTS,
      description: 'stocks only: {security_type: STK, exchange: TSE or OTC, code}',
    }),
  },
  { additionalProperties: false, title: 'StockContractsRequest' },
);

export const DailyQuotesBodySchema = Type.Object(
  {
    date: Type.Optional(DateText('the trading day; the latest one when omitted')),
    exclude: Type.Optional(Type.Boolean({ default: true, description: 'leave warrants out' })),
  },
  { additionalProperties: false, title: 'DailyQuotesRequest' },
);

// ---------------------------------------------------------------------------------------------------------------
// Responses

const VOLUME = 'lots (1,000 shares) for stocks, contracts for futures and options';
const ISO_DATETIME = 'ISO 8601 Taiwan wall clock without offset, up to microseconds';

export const TicksSchema = Type.Object(
  {
    datetime: Column(Type.String(), `time of each trade, ${ISO_DATETIME}`),
    close: Column(Type.Number(), 'trade price (NTD; index points for indices; net price for combos)'),
    volume: Column(Type.Integer(), `trade volume, ${VOLUME}`),
    bid_price: Column(Type.Number(), 'best bid at the trade'),
    bid_volume: Column(Type.Integer(), `volume at the best bid, ${VOLUME}`),
    ask_price: Column(Type.Number(), 'best ask at the trade'),
    ask_volume: Column(Type.Integer(), `volume at the best ask, ${VOLUME}`),
    tick_type: Column(Type.Integer(), '1 outer (buy side), 2 inner (sell side), 0 undetermined'),
  },
  { title: 'Ticks', description: 'columnar: every key holds an array of the same length; no ticks = empty arrays' },
);

export const KbarsSchema = Type.Object(
  {
    datetime: Column(
      Type.String(),
      `end of each one-minute bar (right-labelled: 09:01 covers 09:00-09:01), ${ISO_DATETIME}`,
    ),
    Open: Column(Type.Number(), 'first trade price of the bar'),
    High: Column(Type.Number(), 'highest trade price of the bar'),
    Low: Column(Type.Number(), 'lowest trade price of the bar'),
    Close: Column(Type.Number(), 'last trade price of the bar'),
    Volume: Column(Type.Integer(), `traded volume, ${VOLUME}`),
    Amount: Column(Type.Number(), 'traded value (NTD; price x volume x unit)'),
  },
  { title: 'Kbars', description: 'columnar one-minute bars: every key holds an array of the same length' },
);

export const SnapshotSchema = Type.Object(
  {
    datetime: Type.String({ description: `time of the snapshot, ${ISO_DATETIME}` }),
    code: Type.String({ description: 'product code' }),
    exchange: Type.String({ description: "TSE, OTC, OES or TAIFEX; '' for a combo" }),
    open: Type.Number({ description: 'opening price' }),
    high: Type.Number({ description: 'highest price of the day' }),
    low: Type.Number({ description: 'lowest price of the day' }),
    close: Type.Number({ description: 'last price (net price for a combo)' }),
    tick_type: Type.Enum(['None', 'Buy', 'Sell'], { description: 'side of the last trade' }),
    change_price: Type.Number({ description: 'close minus the reference price' }),
    change_rate: Type.Number({ description: 'change against the reference price, percent' }),
    change_type: Type.Enum([...CHANGE_TYPES], { description: 'LimitUp, Up, Unchanged, Down or LimitDown' }),
    average_price: Type.Number({ description: 'volume-weighted average price of the day' }),
    volume: Type.Integer({ description: `volume of the last trade, ${VOLUME}` }),
    total_volume: Type.Integer({ description: `volume of the day, ${VOLUME}` }),
    amount: Type.Number({ description: 'value of the last trade, NTD' }),
    total_amount: Type.Number({ description: 'value traded in the day, NTD' }),
    yesterday_volume: Type.Number({ description: `total volume of the previous trading day, ${VOLUME}` }),
    buy_price: Type.Number({ description: 'best bid' }),
    buy_volume: Type.Number({ description: `volume at the best bid, ${VOLUME}` }),
    sell_price: Type.Number({ description: 'best ask' }),
    sell_volume: Type.Integer({ description: `volume at the best ask, ${VOLUME}` }),
    volume_ratio: Type.Number({ description: 'total_volume / yesterday_volume' }),
  },
  { title: 'Snapshot' },
);

export const ScannerItemSchema = Type.Object(
  {
    date: Type.String({ description: 'trading day, YYYY-MM-DD' }),
    code: Type.String({ description: 'stock code' }),
    name: Type.String({ description: 'stock name' }),
    datetime: Type.String({ description: `time of the last trade, ${ISO_DATETIME}` }),
    open: Type.Number({ description: 'opening price' }),
    high: Type.Number({ description: 'highest price of the day' }),
    low: Type.Number({ description: 'lowest price of the day' }),
    close: Type.Number({ description: 'last price' }),
    price_range: Type.Number({ description: 'high minus low' }),
    tick_type: Type.Integer({
      description: 'side of the last trade: 1 inner, 2 outer, 0 undetermined (the opposite of the ticks codes)',
    }),
    change_price: Type.Number({ description: 'close minus the reference price' }),
    change_type: Type.Integer({ description: '1 LimitUp, 2 Up, 3 Unchanged, 4 Down, 5 LimitDown' }),
    average_price: Type.Number({ description: 'volume-weighted average price of the day' }),
    volume: Type.Integer({ description: 'volume of the last trade, lots' }),
    total_volume: Type.Integer({ description: 'volume of the day, lots' }),
    amount: Type.Number({ description: 'value of the last trade, NTD' }),
    total_amount: Type.Number({ description: 'value traded in the day, NTD' }),
    yesterday_volume: Type.Number({ description: 'total volume of the previous trading day, lots' }),
    volume_ratio: Type.Number({ description: 'total_volume / yesterday_volume' }),
    buy_price: Type.Number({ description: 'best bid' }),
    buy_volume: Type.Integer({ description: 'volume at the best bid, lots' }),
    sell_price: Type.Number({ description: 'best ask' }),
    sell_volume: Type.Integer({ description: 'volume at the best ask, lots' }),
    bid_orders: Type.Integer({ description: 'number of trades at the bid (inner) in the day' }),
    bid_volumes: Type.Integer({ description: 'volume traded at the bid (inner) in the day, lots' }),
    ask_orders: Type.Integer({ description: 'number of trades at the ask (outer) in the day' }),
    ask_volumes: Type.Integer({ description: 'volume traded at the ask (outer) in the day, lots' }),
    rank_value: Type.Number({ description: 'the value ranked by scanner_type (e.g. the change percent)' }),
  },
  { title: 'ScannerItem' },
);

export const CreditEnquireSchema = Type.Object(
  {
    update_time: Type.String({ description: 'when the balances were updated, YYYY-MM-DD HH:MM:SS.ffffff Taiwan time' }),
    system: Type.String({ description: "the broker's credit system the quota belongs to, e.g. ALL" }),
    stock_id: Type.String({ description: 'stock code' }),
    margin_unit: Type.Integer({ description: 'margin purchase balance (融資餘額), lots' }),
    short_unit: Type.Integer({ description: 'short sale balance (融券餘額), lots' }),
    margin_loan_ratio: Type.Number({ description: 'margin loan ratio, percent (e.g. 60); 0 when not marginable' }),
    short_margin_ratio: Type.Number({
      description: 'short sale margin ratio, percent (e.g. 90); 0 when not shortable',
    }),
  },
  { title: 'CreditEnquire' },
);

export const ShortStockSourceSchema = Type.Object(
  {
    code: Type.String({ description: 'stock code' }),
    short_stock_source: Type.Integer({ description: 'shares available to borrow for short selling (借券賣出)' }),
    datetime: Type.String({ description: 'time of the figure, ISO 8601 Taiwan wall clock without offset' }),
  },
  { title: 'ShortStockSource' },
);

export const PunishSchema = Type.Object(
  {
    code: Column(Type.String(), 'stock code of each disposition stock (處置股)'),
    start_date: Column(Type.String(), 'first trading day of the measure, YYYY-MM-DD'),
    end_date: Column(Type.String(), 'last trading day of the measure, YYYY-MM-DD'),
    updated_at: Column(Type.String(), 'when the row was published, ISO 8601 Taiwan wall clock without offset'),
    interval: Column(Type.String(), "match interval of the periodic call auction, e.g. '5分鐘', '20分鐘'"),
    unit_limit: Column(
      Nullable(Type.Number()),
      'single-order size, lots, from which full prepayment applies; null: none',
    ),
    total_limit: Column(
      Nullable(Type.Number()),
      "a day's cumulative order size, lots, from which full prepayment applies; null: none",
    ),
    description: Column(Type.String(), 'the measure as announced'),
    announced_date: Column(Type.String(), 'day of the announcement, YYYY-MM-DD'),
  },
  { title: 'Punish', description: 'columnar: every key holds an array of the same length, one entry per stock' },
);

export const NoticeSchema = Type.Object(
  {
    code: Column(Type.String(), 'stock code of each attention stock (注意股)'),
    updated_at: Column(Type.String(), 'when the row was published, ISO 8601 Taiwan wall clock without offset'),
    close: Column(Type.Number(), 'closing price of the announced day, NTD'),
    reason: Column(Type.String(), 'the abnormal-trading criterion that was met'),
    announced_date: Column(Type.String(), 'day of the announcement, YYYY-MM-DD'),
  },
  { title: 'Notice', description: 'columnar: every key holds an array of the same length, one entry per stock' },
);

export const DailyQuotesSchema = Type.Object(
  {
    Date: Column(Type.String(), 'trading day, YYYY-MM-DD'),
    Code: Column(Type.String(), 'security code'),
    Open: Column(Type.Number(), 'opening price'),
    High: Column(Type.Number(), 'highest price'),
    Low: Column(Type.Number(), 'lowest price'),
    Close: Column(Type.Number(), 'closing price'),
    Volume: Column(Type.Integer(), 'traded volume, shares'),
    Transaction: Column(Type.Integer(), 'number of trades'),
    Amount: Column(Type.Number(), 'traded value, NTD'),
  },
  { title: 'DailyQuotes', description: 'columnar: one entry per security that traded on the day' },
);

// Compile-time proof that the response schemas and the domain types describe the same JSON, and that every
// validated body is a valid query of the port.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Fits<A, B> = [A] extends [B] ? true : false;
const proofs: [
  Same<Static<typeof TicksSchema>, Ticks>,
  Same<Static<typeof KbarsSchema>, Kbars>,
  Same<Static<typeof SnapshotSchema>, Snapshot>,
  Same<Static<typeof ScannerItemSchema>, ScannerItem>,
  Same<Static<typeof CreditEnquireSchema>, CreditEnquire>,
  Same<Static<typeof ShortStockSourceSchema>, ShortStockSource>,
  Same<Static<typeof PunishSchema>, Punish>,
  Same<Static<typeof NoticeSchema>, Notice>,
  Same<Static<typeof DailyQuotesSchema>, DailyQuotes>,
  Fits<Static<typeof ContractRefSchema>, ContractRef>,
  Fits<Static<typeof InstrumentRefSchema>, InstrumentRef>,
  Fits<Omit<Static<typeof TicksBodySchema>, 'time_start' | 'time_end'>, Omit<TicksQuery, 'time_start' | 'time_end'>>,
  Fits<Static<typeof KbarsBodySchema>, KbarsQuery>,
  Fits<Static<typeof SnapshotsBodySchema>['contracts'], InstrumentRef[]>,
  Fits<Static<typeof ScannerBodySchema>, ScannerQuery>,
  Fits<Static<typeof StockContractsBodySchema>['contracts'], ContractRef[]>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];
void proofs;
