// How many ticks apart the best bid and ask are (docs/matching.md, "The quoted spread"). Most quotes are one tick
// wide; each trade's quote is wider by one more tick with a chance p, and again with p for each further tick (at most
// MOST_EXTRA_TICKS more), so P(spread >= 1 + j ticks) = p^j. p grows as the book gets thinner (fewer trades an hour),
// as the tick gets small against the instrument's daily move, in the first minutes of a session and at night (on the
// always-open clock, at the Taipei hours of the exchange's sessions). The best level's depth grows with how busy the
// instrument is (docs/matching.md, "Depth at the best").

import type { ContractInfo } from '../../../domain/contracts.js';
import { type ClockMode, type Interval, type TradingSession, tradingSession } from '../../../domain/sessions.js';
import { type TickTable, tickAt } from '../../../domain/ticks.js';
import { activeHours, isNightInterval } from '../market/activity.js';
import { dailyVolatilityOf } from './depth-model.js';

/** The chance of an extra tick for an instrument that trades once an hour; it falls as 1/sqrt(trades an hour). */
export const THIN_BOOK_CHANCE = 1.2;
/** A daily move of this many ticks (σ_daily·price/tick) neither widens nor narrows quotes. */
export const NEUTRAL_DAILY_TICKS = 20;
/** The tick-regime factor, sqrt(daily ticks / NEUTRAL_DAILY_TICKS), is kept within these bounds. */
export const TICK_REGIME_BOUNDS = { min: 0.5, max: 2.5 };
/** The first minutes of each session, when quotes are wider by OPENING_FACTOR. */
export const OPENING_MS = 15 * 60_000;
export const OPENING_FACTOR = 2;
/** The futures night session (15:00-05:00 on the exchange clock): thinner books, wider quotes. */
export const NIGHT_FACTOR = 1.5;
/** p never passes this, so even the quietest book is sometimes one tick wide. */
export const MOST_EXTRA_CHANCE = 0.75;
export const MOST_EXTRA_TICKS = 4;

/**
 * How much the tick size widens or narrows quotes: the square root of the instrument's daily move in ticks over
 * NEUTRAL_DAILY_TICKS, within TICK_REGIME_BOUNDS. A tick that is large against the price (a cheap stock, a
 * far out-of-the-money option worth a few ticks) pins the quote at one tick; a tick that is small against it (an
 * index future, a deep in-the-money option, a stock just below a tick boundary) leaves room between bid and ask.
 */
export function tickRegimeFactor(dailyVolatility: number, price: number, tick: number): number {
  const dailyTicks = (dailyVolatility * price) / tick;
  const { min, max } = TICK_REGIME_BOUNDS;
  return Math.min(max, Math.max(min, Math.sqrt(dailyTicks / NEUTRAL_DAILY_TICKS)));
}

/** The tick-regime factor of an instrument on a tick grid, at its reference price. */
export function tickRegimeOf(info: ContractInfo, ticks: TickTable): number {
  const price = Math.max(info.reference, 1e-9);
  return tickRegimeFactor(dailyVolatilityOf(info), price, tickAt(ticks, price));
}

/** p away from the open and the night: THIN_BOOK_CHANCE/sqrt(trades an hour) times the tick regime, capped. */
export function baseExtraTickChance(tradesPerHour: number, tickRegime: number): number {
  return Math.min(MOST_EXTRA_CHANCE, (THIN_BOOK_CHANCE / Math.sqrt(Math.max(1, tradesPerHour))) * tickRegime);
}

/** The time-of-day factor at an instant of an exchange session's interval: the opening minutes, the night session. */
export function timeOfDayFactor(interval: Interval, epochMs: number): number {
  const opening = epochMs < interval.start + OPENING_MS ? OPENING_FACTOR : 1;
  return opening * (isNightInterval(interval) ? NIGHT_FACTOR : 1);
}

/**
 * The intervals whose opening minutes and nights widen quotes: the session's own on the exchange clock. The
 * always-open clock has no opens, so its day keeps the exchange's clock face: the same trading day's exchange
 * session (stocks 09:00-13:25; futures and options 15:00-05:00 the evening before and 08:45-13:45), which its
 * always-open session contains, widens quotes at the same Taipei hours; the hours outside it quote as at midday.
 */
export function wideningIntervals(mode: ClockMode, session: TradingSession, info: ContractInfo): Interval[] {
  if (mode === 'exchange') return session.continuous;
  const derivative = info.security_type === 'FUT' || info.security_type === 'OPT';
  return tradingSession('exchange', derivative ? 'futures' : 'stock', session.day).continuous;
}

/** Trades an hour at which the best level holds one to six typical trades; busier books hold more. */
export const DEPTH_NEUTRAL_TRADES_PER_HOUR = 100;

/** How many times deeper than one to six typical trades the best level is: sqrt(trades an hour / 100), at least 1. */
export function bestDepthScale(tradesPerHour: number): number {
  return Math.max(1, Math.sqrt(tradesPerHour / DEPTH_NEUTRAL_TRADES_PER_HOUR));
}

/** What a tape's quotes need: the chance p of each extra tick at an instant (epoch ms), and the best level's scale. */
export interface QuoteShape {
  spreadChanceAt: (epochMs: number) => number;
  bestDepthScale: number;
}

/** The quote shape of an instrument on a tick grid that prints `trades` continuous trades over a session. */
export function quoteShape(
  mode: ClockMode,
  session: TradingSession,
  trades: number,
  info: ContractInfo,
  ticks: TickTable,
): QuoteShape {
  const perHour = trades / Math.max(activeHours(mode, session), 1 / 60);
  const base = baseExtraTickChance(perHour, tickRegimeOf(info, ticks));
  // The day cut where the time-of-day factor changes, found once: the chance is asked for at every trade.
  const chanceFrom = (interval: Interval, t: number) =>
    Math.min(MOST_EXTRA_CHANCE, base * timeOfDayFactor(interval, t));
  const spans = wideningIntervals(mode, session, info).flatMap((interval) => {
    const openingEnd = Math.min(interval.end, interval.start + OPENING_MS);
    return [
      { end: interval.start, chance: base },
      { end: openingEnd, chance: chanceFrom(interval, interval.start) },
      { end: interval.end, chance: chanceFrom(interval, openingEnd) },
    ];
  });
  const spreadChanceAt = (t: number) => {
    for (const span of spans) if (t < span.end) return span.chance;
    return base;
  };
  return { spreadChanceAt, bestDepthScale: bestDepthScale(perHour) };
}

/** Extra ticks for one quote: one more with chance p, again for each further tick, at most MOST_EXTRA_TICKS. */
export function drawExtraTicks(chance: number, uniform: () => number): number {
  let extra = 0;
  while (extra < MOST_EXTRA_TICKS && chance > 0 && uniform() < chance) extra++;
  return extra;
}
