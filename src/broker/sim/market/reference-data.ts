// The simulator's reference data of stocks: credit balances, shares available to borrow, and the regulatory
// lists of disposition (處置) and attention (注意) stocks. Pure functions of the seed and today's StockInfo list, so
// they always agree with the catalog the contracts API serves.

import { nextTradingDay, previousTradingDay, tradingDayOnOrAfter } from '../../../domain/calendar.js';
import type { StockInfo } from '../../../domain/contracts.js';
import type { CreditEnquire, Notice, Punish, ShortStockSource } from '../../../domain/market-data.js';
import { addDays, TAIPEI_OFFSET_MS } from '../../../domain/time.js';
import { unitOf } from '../random.js';

/** The simulated broker has one credit system covering TSE and OTC; 'ALL' is the value the SDK's example shows. */
export const CREDIT_SYSTEM = 'ALL';
/** Stock reference data is refreshed with the stock catalog at 08:00 of its day. */
const REFRESH_TIME = '08:00:00';
/** The exchanges announce attention and disposition stocks after the close of the announced day. */
const ANNOUNCE_TIME = '17:30:00';
/** A disposition measure lasts this many trading days. */
const DISPOSITION_DAYS = 10;
const BLOCK_MS = 14 * 86400_000;

/** 'YYYY-MM-DDTHH:MM:SS', the Taiwan wall clock of an instant without offset (as the official server). */
function taipeiDateTime(epochMs: number): string {
  return new Date(epochMs + TAIPEI_OFFSET_MS).toISOString().slice(0, 19);
}

/** Credit balances of each stock as of the morning refresh of its catalog day. */
export function creditEnquires(stocks: readonly StockInfo[]): CreditEnquire[] {
  return stocks.map((stock) => ({
    update_time: `${stock.update_date} ${REFRESH_TIME}.000000`,
    system: CREDIT_SYSTEM,
    stock_id: stock.code,
    margin_unit: stock.margin_trading_balance,
    short_unit: stock.short_selling_balance,
    margin_loan_ratio: stock.margin_loan_ratio,
    short_margin_ratio: stock.short_margin_ratio,
  }));
}

/** Shares a stock's lenders offer on its catalog day: whole lots, a share of its credit quota; 0 if not lendable. */
function lendableShares(stock: StockInfo, seed: number): number {
  if (!stock.sbl_shortable) return 0;
  // Lendable ETFs and disposition stocks may have no credit quota; they still have lenders.
  const baseLots = Math.max(stock.margin_quota_lots, stock.short_quota_lots, 100);
  const share = 0.02 + 0.18 * unitOf(seed, 'sbl-source', stock.code, stock.update_date);
  return Math.round(baseLots * share) * 1000;
}

export function shortStockSources(stocks: readonly StockInfo[], seed: number, at: number): ShortStockSource[] {
  const datetime = taipeiDateTime(at);
  return stocks.map((stock) => ({ code: stock.code, short_stock_source: lendableShares(stock, seed), datetime }));
}

/**
 * The 14-calendar-day block that contains a day. The simulator draws disposition once per block (regulatoryState
 * in catalog/stocks.ts counts blocks from the epoch), so one measure covers the trading days of a block.
 */
export function dispositionBlock(day: string): { first: string; last: string } {
  const first = new Date(Math.floor(Date.parse(day) / BLOCK_MS) * BLOCK_MS).toISOString().slice(0, 10);
  return { first, last: addDays(first, 13) };
}

/**
 * First and last trading day of the disposition measure in force on a trading day: it starts on the block's first
 * trading day and lasts 10 trading days, so it always contains the day (a block has at most 10 weekdays).
 */
export function dispositionPeriod(day: string): { start: string; end: string } {
  const start = tradingDayOnOrAfter(dispositionBlock(day).first);
  let end = start;
  for (let i = 1; i < DISPOSITION_DAYS; i++) end = nextTradingDay(end);
  return { start, end };
}

function dispositionText(stock: StockInfo, start: string, end: string): string {
  const interval = stock.disposition_match_interval_min;
  const single = stock.disposition_max_lots_single_order;
  const total = stock.disposition_max_lots_total_orders;
  const matching = `自${start}起至${end}止，以人工管制之撮合終端機執行撮合作業，約每${interval}分鐘撮合一次`;
  if (stock.disposition_level >= 2) {
    return `第二次處置：十個營業日內再次達處置標準；${matching}；投資人每日委託買賣單筆達${single}張或多筆累積達${total}張以上時，應收取全部之買進價金或賣出證券`;
  }
  return `第一次處置：連續三個營業日達公布注意交易資訊標準；${matching}；投資人每日委託買賣單筆達${single}張或多筆累積達${total}張以上時，應收取全部之買進價金或賣出證券`;
}

/** The disposition stocks of the catalog day, columnar: exactly the stocks with disposition_level > 0. */
export function punishList(stocks: readonly StockInfo[]): Punish {
  const punish: Punish = {
    code: [],
    start_date: [],
    end_date: [],
    updated_at: [],
    interval: [],
    unit_limit: [],
    total_limit: [],
    description: [],
    announced_date: [],
  };
  for (const stock of stocks) {
    if (stock.disposition_level <= 0) continue;
    const { start, end } = dispositionPeriod(stock.update_date);
    const announced = previousTradingDay(start);
    const interval = stock.disposition_match_interval_min;
    punish.code.push(stock.code);
    punish.start_date.push(start);
    punish.end_date.push(end);
    punish.updated_at.push(`${announced}T${ANNOUNCE_TIME}`);
    punish.interval.push(interval === null ? '' : `${interval}分鐘`);
    punish.unit_limit.push(stock.disposition_max_lots_single_order);
    punish.total_limit.push(stock.disposition_max_lots_total_orders);
    punish.description.push(dispositionText(stock, start, end));
    punish.announced_date.push(announced);
  }
  return punish;
}

/** Attention criteria of the TWSE and TPEx, each with the range its figure is drawn from. */
const ATTENTION_REASONS: readonly { text: (figure: number) => string; min: number; max: number }[] = [
  { text: (x) => `最近六個營業日（含當日）累積收盤價漲幅達${x}%`, min: 25, max: 45 },
  { text: (x) => `最近六個營業日（含當日）累積收盤價跌幅達${x}%`, min: 25, max: 35 },
  { text: (x) => `最近三十個營業日（含當日）起迄兩個營業日收盤價漲幅達${x}%`, min: 100, max: 140 },
  { text: (x) => `當日成交量較最近六十個營業日日平均成交量放大為${x}倍`, min: 5, max: 12 },
  { text: (x) => `最近六個營業日（含當日）累積週轉率達${x}%`, min: 50, max: 90 },
  { text: (x) => `當日週轉率達${x}%`, min: 10, max: 25 },
  { text: (x) => `最近六個營業日（含當日）當日沖銷成交量占總成交量比率達${x}%`, min: 60, max: 75 },
];

function attentionReason(stock: StockInfo, seed: number): string {
  const draw = (what: string) => unitOf(seed, what, stock.code, stock.update_date);
  const reason = ATTENTION_REASONS[Math.floor(draw('notice-reason') * ATTENTION_REASONS.length)]!;
  const figure = (reason.min + (reason.max - reason.min) * draw('notice-figure')).toFixed(2);
  return reason.text(Number(figure));
}

/** The attention stocks of the catalog day, columnar: exactly the stocks with attention_flag, announced the day before. */
export function noticeList(stocks: readonly StockInfo[], seed: number): Notice {
  const notice: Notice = { code: [], updated_at: [], close: [], reason: [], announced_date: [] };
  for (const stock of stocks) {
    if (!stock.attention_flag) continue;
    const announced = previousTradingDay(stock.update_date);
    notice.code.push(stock.code);
    notice.updated_at.push(`${announced}T${ANNOUNCE_TIME}`);
    notice.close.push(stock.reference);
    notice.reason.push(attentionReason(stock, seed));
    notice.announced_date.push(announced);
  }
  return notice;
}
