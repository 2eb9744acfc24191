// Trading sessions of a trading day, in Taiwan time, for the two clock modes of the simulator.
//
// exchange:    stocks trade continuously 09:00-13:25, match a closing auction at 13:30 and the after-hours
//              fixed-price session at 14:30; futures trade the night session from 15:00 of the previous
//              trading day to 05:00, then the day session 08:45-13:45 (the night belongs to the next day).
// always-open: one continuous session per trading day that runs until the next day begins, so the market
//              moves at any hour: stocks from 00:00 of the day to 00:00 of the next trading day (a day's trades
//              carry its date; a weekend or holiday trades as part of the trading day before it), futures from
//              14:45 of the previous trading day to 14:45 (the exchange's own refresh time for the night session).

import { nextTradingDay, previousTradingDay, tradingDayOnOrAfter, tradingDayOnOrBefore } from './calendar.js';
import { EXPIRY_CLOSE } from './final-settlement.js';
import { contractDayAt, nextContractRefresh, stockListingDayAt } from './listing.js';
import { addDays, taipeiDate, taipeiInstant } from './time.js';

export type ClockMode = 'always-open' | 'exchange';

/**
 * Taiwan time of the official server's daily refresh of its upstream client (a new login), which clients observe
 * as health.last_maintenance changing. The bridge renews its SinoPac session then; the simulator reports the same.
 */
export const DAILY_MAINTENANCE_AT = '08:22';
export type MarketKind = 'stock' | 'futures';

export interface Interval {
  start: number;
  end: number;
}

export interface TradingSession {
  day: string;
  /** Continuous trading, in time order. */
  continuous: Interval[];
  /** Single-price auctions after the continuous part: the closing auction, then the fixed-price match. */
  auctions: number[];
  /** When the day's trading is over: the close is known from here on. */
  end: number;
}

const at = (day: string, time: string) => taipeiInstant(day, time);

/** Sessions built lately, by mode, market and day: read on every snapshot, order and tape, and never changed. */
const SESSIONS_KEPT_PER_MARKET = 16;
const sessionsKept: Record<ClockMode, Record<MarketKind, Map<string, TradingSession>>> = {
  exchange: { stock: new Map(), futures: new Map() },
  'always-open': { stock: new Map(), futures: new Map() },
};

export function tradingSession(mode: ClockMode, market: MarketKind, day: string): TradingSession {
  const kept = sessionsKept[mode][market];
  let session = kept.get(day);
  if (session === undefined) {
    session = frozenSession(sessionOf(mode, market, day));
    if (kept.size >= SESSIONS_KEPT_PER_MARKET) kept.delete(kept.keys().next().value!);
    kept.set(day, session);
  }
  return session;
}

/** A session shared by every caller: frozen, so that no caller can change it for the others. */
function frozenSession(session: TradingSession): TradingSession {
  for (const interval of session.continuous) Object.freeze(interval);
  Object.freeze(session.continuous);
  Object.freeze(session.auctions);
  return Object.freeze(session);
}

function sessionOf(mode: ClockMode, market: MarketKind, day: string): TradingSession {
  const previous = previousTradingDay(day);
  if (mode === 'always-open') {
    const interval =
      market === 'stock'
        ? { start: at(day, '00:00'), end: at(nextTradingDay(day), '00:00') }
        : { start: at(previous, '14:45'), end: at(day, '14:45') };
    return { day, continuous: [interval], auctions: [], end: interval.end };
  }
  if (market === 'stock') {
    return {
      day,
      continuous: [{ start: at(day, '09:00'), end: at(day, '13:25') }],
      auctions: [at(day, '13:30'), at(day, '14:30')],
      end: at(day, '14:30'),
    };
  }
  const nightStart = at(previous, '15:00');
  return {
    day,
    continuous: [
      { start: nightStart, end: nightStart + 14 * 3600_000 },
      { start: at(day, '08:45'), end: at(day, '13:45') },
    ],
    auctions: [],
    end: at(day, '13:45'),
  };
}

/**
 * The session of a futures or options contract on a day: on its last trading day it stops at 13:30 (TAIFEX closes
 * an expiring contract with the underlying market) and has no night session after; in always-open mode too, so an
 * expiring contract's day and its final settlement are the same in both modes.
 */
export function contractSession(mode: ClockMode, day: string, lastTradingDay: string | undefined): TradingSession {
  const session = tradingSession(mode, 'futures', day);
  if (lastTradingDay !== day) return session;
  const close = at(day, EXPIRY_CLOSE);
  return {
    day,
    continuous: session.continuous
      .filter((interval) => interval.start < close)
      .map((interval) => ({ start: interval.start, end: Math.min(interval.end, close) })),
    auctions: [],
    end: close,
  };
}

/**
 * The instant a stock day's close is fixed: the closing auction (exchange) or the end of the session
 * (always-open). The market's random walk is pinned to the closes at these instants.
 */
export function closeAnchor(mode: ClockMode, day: string): number {
  return mode === 'always-open' ? at(nextTradingDay(day), '00:00') : at(day, '13:30');
}

/** The trading day whose stock close anchor is the first at or after an instant. */
export function anchorDayOf(mode: ClockMode, epochMs: number): string {
  let day = tradingDayOnOrAfter(new Date(epochMs - 86400_000 * 7).toISOString().slice(0, 10));
  while (closeAnchor(mode, day) < epochMs) day = nextTradingDay(day);
  return day;
}

/**
 * The trading day a market is on at an instant: it moves on at its listing refresh (stocks at 08:00, futures at
 * 14:45), except that always-open stocks move on at midnight, so that a day's trades carry its date.
 */
export function sessionDayAt(market: MarketKind, epochMs: number, mode: ClockMode = 'exchange'): string {
  // Every day boundary falls on a whole minute of the Taiwan clock, so the answer holds for the whole minute.
  const minute = Math.floor(epochMs / 60_000);
  const last = lastSessionDays[market === 'futures' ? 'futures' : mode];
  if (last.minute !== minute) {
    last.day = dayAtUncached(market, epochMs, mode);
    last.minute = minute;
  }
  return last.day;
}

/** The last answer of sessionDayAt for each market and clock mode (futures move alike in both modes). */
const lastSessionDays = {
  futures: { minute: Number.NaN, day: '' },
  'always-open': { minute: Number.NaN, day: '' },
  exchange: { minute: Number.NaN, day: '' },
};

function dayAtUncached(market: MarketKind, epochMs: number, mode: ClockMode): string {
  if (market === 'futures') return contractDayAt(epochMs);
  return mode === 'always-open' ? tradingDayOnOrBefore(taipeiDate(epochMs)) : stockListingDayAt(epochMs);
}

/** The next time a listing may roll after an instant: the exchange's refresh times, and midnight on always-open. */
export function nextListingRefresh(mode: ClockMode, epochMs: number): number {
  const refresh = nextContractRefresh(epochMs);
  return mode === 'always-open' ? Math.min(refresh, at(addDays(taipeiDate(epochMs), 1), '00:00')) : refresh;
}

/** True while continuous trading or an auction of the day is running. */
export function isTrading(session: TradingSession, epochMs: number): boolean {
  return session.continuous.some((i) => epochMs >= i.start && epochMs < i.end);
}

/** Total continuous trading time of a session, in ms. */
export function continuousLength(session: TradingSession): number {
  return session.continuous.reduce((sum, i) => sum + i.end - i.start, 0);
}

/** True while the stock market of a clock mode is trading (always, in always-open): when intraday caps count. */
export function isStockTradingHours(mode: ClockMode, epochMs: number): boolean {
  const session = tradingSession(mode, 'stock', sessionDayAt('stock', epochMs, mode));
  const closingAuction = session.auctions[0];
  return (
    isTrading(session, epochMs) ||
    (closingAuction !== undefined && epochMs >= session.continuous[0]!.end && epochMs <= closingAuction)
  );
}

/** Intraday odd lots match by call auction every 5 seconds (TWSE since 2024-12-02), the first at 09:10. */
export const ODD_LOT_AUCTION_MS = 5000;

/**
 * The odd-lot call auctions of a stock day, in epoch ms: every 5 s from 09:10 to 13:30 and the after-hours one at
 * 14:30 (exchange); every 5 s through the whole session (always-open).
 */
export function oddLotAuctions(mode: ClockMode, day: string): number[] {
  const from = mode === 'exchange' ? at(day, '09:10') : at(day, '00:00') + ODD_LOT_AUCTION_MS;
  const to = mode === 'exchange' ? at(day, '13:30') : at(nextTradingDay(day), '00:00') - ODD_LOT_AUCTION_MS;
  const slots: number[] = [];
  for (let t = from; t <= to; t += ODD_LOT_AUCTION_MS) slots.push(t);
  if (mode === 'exchange') slots.push(at(day, '14:30'));
  return slots;
}

/**
 * When the exchange shows trial matches (試撮, simtrade) before an auction: stocks 08:30-09:00 and 13:25-13:30,
 * futures 14:50-15:00 before the night session and 08:30-08:45 before the day session. None in always-open.
 */
export function trialWindows(mode: ClockMode, market: MarketKind, day: string): Interval[] {
  if (mode === 'always-open') return [];
  if (market === 'stock') {
    return [
      { start: at(day, '08:30'), end: at(day, '09:00') },
      { start: at(day, '13:25'), end: at(day, '13:30') },
    ];
  }
  return [
    { start: at(previousTradingDay(day), '14:50'), end: at(previousTradingDay(day), '15:00') },
    { start: at(day, '08:30'), end: at(day, '08:45') },
  ];
}
