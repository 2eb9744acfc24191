// The wire payloads of the market-data SSE families, as the official server sends them: prices and amounts as
// decimal strings, volumes and counts as numbers, `date` YYYY-MM-DD and `time` HH:MM:SS.ffffff on the Taiwan wall
// clock, index quotes with PascalCase keys. Pure functions of a day's context, its running state and the book.

import { CHANGE_TYPE_NUMBERS, changeTypeOf } from '../../../domain/market-data.js';
import type { Book } from '../market/book.js';
import { taipeiDateTime } from '../market/history.js';
import type { QuoteContext } from './day-context.js';
import type { DayState } from './day-state.js';
import type { Breadth } from './index-breadth.js';

type Payload = Record<string, unknown>;

/** A price as the decimal string the wire carries, without float noise or trailing zeros (595.5 -> "595.5"). */
export function decimal(value: number, digits = 4): string {
  const text = value.toFixed(digits);
  const trimmed = digits > 0 ? text.replace(/\.?0+$/, '') : text;
  return trimmed === '-0' ? '0' : trimmed;
}

/** NTD turnover: to the cent, in whole dollars from a billion on (sums that large carry float noise below 1). */
export const money = (value: number): string => decimal(value, Math.abs(value) >= 1e9 ? 0 : 2);

const percent = (value: number) => decimal(value, 2);

/**
 * A number rounded as the derived streams (kbar, calculated_index, the contributions) carry it: those payloads hold
 * JSON numbers where the quote families hold decimal strings.
 */
export const rounded = (value: number, digits = 2): number => Number(decimal(value, digits));

/** The date as the derived streams write it, YYYY/MM/DD. */
export const slashedDate = (date: string): string => date.replaceAll('-', '/');

function dateAndTime(epochUs: number): { date: string; time: string } {
  const datetime = taipeiDateTime(epochUs);
  return { date: datetime.slice(0, 10), time: datetime.slice(11) };
}

/** The trade part every tick and quote shares: the last trade and the day so far. */
function tradeFields(context: QuoteContext, state: DayState) {
  const change = state.close - context.reference;
  return {
    open: decimal(state.open),
    avg_price: decimal(state.averagePrice, 2),
    close: decimal(state.close),
    high: decimal(state.high),
    low: decimal(state.low),
    amount: money(state.last.amount),
    total_amount: money(state.amount),
    volume: state.last.volume,
    total_volume: state.volume,
    tick_type: state.last.tickType,
    chg_type: CHANGE_TYPE_NUMBERS[changeTypeOf(state.close, context.reference, context.limits)],
    price_chg: decimal(change),
    pct_chg: context.reference ? percent((change / context.reference) * 100) : '0',
  };
}

function stockTickFields(context: QuoteContext, state: DayState, simtrade: boolean) {
  const { date, time } = dateAndTime(state.last.timeUs);
  const trade = tradeFields(context, state);
  return {
    code: context.code,
    date,
    time,
    open: trade.open,
    avg_price: trade.avg_price,
    close: trade.close,
    high: trade.high,
    low: trade.low,
    amount: trade.amount,
    total_amount: trade.total_amount,
    volume: trade.volume,
    total_volume: trade.total_volume,
    tick_type: trade.tick_type,
    chg_type: trade.chg_type,
    price_chg: trade.price_chg,
    pct_chg: trade.pct_chg,
    bid_side_total_vol: state.sides.bidVolume,
    ask_side_total_vol: state.sides.askVolume,
    bid_side_total_cnt: state.sides.bidCount,
    ask_side_total_cnt: state.sides.askCount,
    closing_oddlot_shares: 0,
    closing_oddlot_close: null,
    closing_oddlot_amount: null,
    closing_oddlot_bid_price: null,
    closing_oddlot_ask_price: null,
    fixed_trade_vol: state.fixed.volume,
    fixed_trade_amount: state.fixed.amount === null ? null : money(state.fixed.amount),
    suspend: context.suspend,
    simtrade,
  };
}

/** tick_stk: a stock's (or warrant's) trade; the same struct for intraday odd lots (volumes in shares). */
export function tickStk(context: QuoteContext, state: DayState, simtrade: boolean): Payload {
  return { ...stockTickFields(context, state, simtrade), intraday_odd: context.intradayOdd };
}

/** quote_stk: the tick fields without intraday_odd, with the book as of the trade and the SBL balance. */
export function quoteStk(
  context: QuoteContext,
  state: DayState,
  book: Book,
  previous: Book | null,
  simtrade: boolean,
): Payload {
  return {
    ...stockTickFields(context, state, simtrade),
    ...bookFields(book, previous),
    avail_borrowing: context.availBorrowing,
  };
}

export function bidAskStk(
  context: QuoteContext,
  epochUs: number,
  book: Book,
  previous: Book | null,
  simtrade: boolean,
): Payload {
  return {
    code: context.code,
    ...dateAndTime(epochUs),
    ...bookFields(book, previous),
    suspend: context.suspend,
    simtrade,
    intraday_odd: context.intradayOdd,
  };
}

const underlyingAt = (context: QuoteContext, epochUs: number) =>
  decimal(context.underlyingAt ? context.underlyingAt(epochUs / 1000) : 0);

/** tick_fop: a futures, option or futures-combo trade (a combo's prices are net prices of the whole combo). */
export function tickFop(context: QuoteContext, state: DayState, simtrade: boolean): Payload {
  const { date, time } = dateAndTime(state.last.timeUs);
  const trade = tradeFields(context, state);
  return {
    code: context.code,
    date,
    time,
    open: trade.open,
    underlying_price: underlyingAt(context, state.last.timeUs),
    bid_side_total_vol: state.sides.bidVolume,
    ask_side_total_vol: state.sides.askVolume,
    avg_price: trade.avg_price,
    close: trade.close,
    high: trade.high,
    low: trade.low,
    amount: trade.amount,
    total_amount: trade.total_amount,
    volume: trade.volume,
    total_volume: trade.total_volume,
    tick_type: trade.tick_type,
    chg_type: trade.chg_type,
    price_chg: trade.price_chg,
    pct_chg: trade.pct_chg,
    simtrade,
  };
}

const NO_DERIVED = {
  first_derived_bid_price: '0',
  first_derived_ask_price: '0',
  first_derived_bid_vol: 0,
  first_derived_ask_vol: 0,
};

export function bidAskFop(
  context: QuoteContext,
  epochUs: number,
  book: Book,
  previous: Book | null,
  simtrade: boolean,
): Payload {
  const { date, time } = dateAndTime(epochUs);
  const { bid_price, bid_volume, diff_bid_vol, ask_price, ask_volume, diff_ask_vol } = bookFields(book, previous);
  return {
    code: context.code,
    date,
    time,
    bid_total_vol: sum(book.bid.volumes),
    ask_total_vol: sum(book.ask.volumes),
    bid_price,
    bid_volume,
    diff_bid_vol,
    ask_price,
    ask_volume,
    diff_ask_vol,
    ...NO_DERIVED,
    underlying_price: underlyingAt(context, epochUs),
    simtrade,
  };
}

export function quoteFop(
  context: QuoteContext,
  state: DayState,
  book: Book,
  previous: Book | null,
  simtrade: boolean,
): Payload {
  const { date, time } = dateAndTime(state.last.timeUs);
  const trade = tradeFields(context, state);
  return {
    code: context.code,
    date,
    time,
    underlying_price: underlyingAt(context, state.last.timeUs),
    ...trade,
    bid_side_total_vol: state.sides.bidVolume,
    ask_side_total_vol: state.sides.askVolume,
    bid_side_total_cnt: state.sides.bidCount,
    ask_side_total_cnt: state.sides.askCount,
    ...bookFields(book, previous),
    ...NO_DERIVED,
    simtrade,
  };
}

const CATEGORY_KEYS = [
  'FundAmount',
  'FundVolume',
  'FundCount',
  'StockAmount',
  'StockVolume',
  'StockCount',
  'BullAmount',
  'BullVolume',
  'BullCount',
  'BearAmount',
  'BearVolume',
  'BearCount',
  'TIBAmount',
  'TIBVolume',
  'TIBCount',
  'FixedAmount',
  'FixedVolume',
  'FixedCount',
  'EstimateAmountSum',
] as const;
const NO_CATEGORIES = Object.fromEntries(CATEGORY_KEYS.map((key) => [key, null]));

/**
 * quote_idx: an index value with the day so far. Volume and turnover are the index tape's (as its ticks and
 * snapshot); Count is the member stocks' trades since the previous index value, CountSum their trades today.
 */
export function quoteIdx(context: QuoteContext, state: DayState, breadth: Breadth, count: number): Payload {
  const index = context.index!;
  const { date, time } = dateAndTime(state.last.timeUs);
  return {
    exchange: context.exchange,
    code: context.code,
    Date: date,
    Time: time,
    Reference: decimal(context.reference),
    Open: decimal(state.open),
    High: decimal(state.high),
    Low: decimal(state.low),
    Close: decimal(state.close),
    AmountSum: money(state.amount),
    Amount: money(state.last.amount),
    Volume: state.last.volume,
    VolSum: state.volume,
    Count: count,
    CountSum: breadth.trades,
    PrevDate: index.previousDay,
    PrevAmountSum: money(index.previousAmount),
    NoTrade: breadth.noTrade,
    RaiseStop: breadth.byChange.LimitUp,
    Raise: breadth.byChange.Up,
    Flat: breadth.byChange.Unchanged,
    Fall: breadth.byChange.Down,
    FallStop: breadth.byChange.LimitDown,
    ...NO_CATEGORIES,
  };
}

/**
 * calculated_index (1.7.1): the index recomputed from its constituents at each of their trades, the day's range so
 * far, its turnover and its change from the reference, as numbers (the live server's form, which clients read).
 */
export function calculatedIndex(context: QuoteContext, state: DayState, simtrade: boolean): Payload {
  const { date, time } = dateAndTime(state.last.timeUs);
  const change = state.close - context.reference;
  return {
    code: context.code,
    date: slashedDate(date),
    time,
    open: rounded(state.open),
    high: rounded(state.high),
    low: rounded(state.low),
    close: rounded(state.close),
    total_amount: Math.round(state.amount),
    price_chg: rounded(change),
    pct_chg: rounded(context.reference === 0 ? 0 : (change / context.reference) * 100),
    simtrade,
  };
}

/** The five levels of both sides, prices as strings, with each level's volume change since the previous book. */
function bookFields(book: Book, previous: Book | null) {
  return {
    bid_price: book.bid.prices.map((price) => decimal(price)),
    bid_volume: book.bid.volumes.slice(),
    diff_bid_vol: diff(book.bid.volumes, previous?.bid.volumes),
    ask_price: book.ask.prices.map((price) => decimal(price)),
    ask_volume: book.ask.volumes.slice(),
    diff_ask_vol: diff(book.ask.volumes, previous?.ask.volumes),
  };
}

const diff = (volumes: number[], previous: number[] | undefined) =>
  volumes.map((volume, level) => (previous ? volume - previous[level]! : 0));

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

export function sameBook(a: Book, b: Book | null): boolean {
  if (!b) return false;
  for (let level = 0; level < a.bid.prices.length; level++) {
    if (a.bid.prices[level] !== b.bid.prices[level] || a.bid.volumes[level] !== b.bid.volumes[level]) return false;
    if (a.ask.prices[level] !== b.ask.prices[level] || a.ask.volumes[level] !== b.ask.volumes[level]) return false;
  }
  return true;
}
