// How busy the simulated market is, and when: trade sizes by price, the intraday shape of trading in each session,
// and how much of an exchange day an always-open hour carries. docs/market-activity.md gives the real figures these
// are calibrated to.

import { isTradingDay } from '../../../domain/calendar.js';
import { type ClockMode, continuousLength, type Interval, type TradingSession } from '../../../domain/sessions.js';
import { addDays, nthWeekdayOfMonth, TAIPEI_OFFSET_MS, taipeiDate, taipeiMinuteOfDay } from '../../../domain/time.js';
import type { Rng } from './rng.js';

const HOUR_MS = 3600_000;
/** In always-open mode an hour carries this share of an exchange day's volume: the market never sleeps. */
export const ALWAYS_OPEN_HOURLY_SHARE = 0.1;

const DAY_MS = 86400_000;

/** What the activity profiles ask of a Taiwan calendar day, computed once per day (they ask for every minute). */
interface DayFacts {
  /** Taiwan midnight, epoch ms. */
  midnight: number;
  trading: boolean;
  /** Minute of the day of the US cash open. */
  usOpen: number;
}

const dayFacts = new Map<number, DayFacts>();

/** The facts of the Taiwan day an instant falls in, `offset` days later. */
export function dayFactsAt(epochMs: number, offset = 0): DayFacts {
  const index = Math.floor((epochMs + TAIPEI_OFFSET_MS) / DAY_MS) + offset;
  let facts = dayFacts.get(index);
  if (!facts) {
    const midnight = index * DAY_MS - TAIPEI_OFFSET_MS;
    const date = taipeiDate(midnight);
    facts = { midnight, trading: isTradingDay(date), usOpen: usOpenMinute(date) };
    if (dayFacts.size > 20_000) dayFacts.clear();
    dayFacts.set(index, facts);
  }
  return facts;
}

/** Minutes since Taiwan midnight (fractional). */
export const minuteOfDay = (epochMs: number): number =>
  ((((epochMs + TAIPEI_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS) / 60_000;

/** Always-open activity on a weekend or holiday, relative to a trading day's: the market is quieter, never shut. */
const ALWAYS_OPEN_DAY_OFF = 0.75;

/** How busy the always-open market is on the calendar day of an instant: 1 on trading days, less on days off. */
function dayWeight(epochMs: number): number {
  return dayFactsAt(epochMs).trading ? 1 : ALWAYS_OPEN_DAY_OFF;
}

/**
 * The hours of a session's continuous trading, weekends and holidays counted at their weight on the always-open
 * clock: what its volume and its most trades scale with.
 */
export function activeHours(mode: ClockMode, session: TradingSession): number {
  if (mode === 'exchange') return continuousLength(session) / HOUR_MS;
  let hours = 0;
  for (const { start, end } of session.continuous) {
    for (let t = start; t < end; t += HOUR_MS) hours += (dayWeight(t) * Math.min(HOUR_MS, end - t)) / HOUR_MS;
  }
  return hours;
}

/** The factor by which an always-open session's volume exceeds the exchange day's (1 on the exchange clock). */
export function sessionVolumeFactor(mode: ClockMode, session: TradingSession): number {
  return mode === 'exchange' ? 1 : ALWAYS_OPEN_HOURLY_SHARE * activeHours(mode, session);
}

/**
 * The most trades an instrument prints in an active hour on average: the busiest Taiwan stocks reach about 100,000
 * trades in an exchange day; the always-open clock's day is long, so its tapes are kept below a trade a second.
 */
export function maxTradesPerHour(mode: ClockMode): number {
  return mode === 'exchange' ? 24_000 : 3_000;
}

/** The fewest trades a stock prints in an active hour: none on the exchange, one every five minutes on always-open. */
export function minTradesPerHour(mode: ClockMode): number {
  return mode === 'exchange' ? 0 : 12;
}

/** Hours of continuous stock trading in an exchange day (09:00-13:25). */
export const EXCHANGE_STOCK_HOURS = 4 + 25 / 60;
/** Trades an hour on the exchange from which a stock is among the busiest (2330 averages about 7,000). */
const BUSY_TRADES_PER_HOUR = 6_000;

/**
 * A stock's trades in an active always-open hour, from its trades in an exchange hour: the busiest (2330 and a
 * dozen others) at the cap of 3,000, about one a second; quieter ones far fewer (the rate falls as the power 2.5 of
 * the exchange rate below the busiest), so that the whole listing trading around the clock stays near two and a half
 * million trades a weekday, less than an exchange day.
 */
export function alwaysOpenTradesPerHour(exchangePerHour: number): number {
  const scale = Math.min(1, exchangePerHour / BUSY_TRADES_PER_HOUR) ** 1.5;
  return Math.min(maxTradesPerHour('always-open'), 0.45 * exchangePerHour * scale);
}

// ---- trade sizes ----

/** Tail index of trade sizes: a power law, so most trades are small and a few are very large. */
const SIZE_TAIL = 2.2;

/** Daily lots above which a stock's trades grow larger rather than only more numerous. */
const HEAVY_VOLUME_LOTS = 40_000;

/**
 * The mean board-lot trade of a stock, in lots: about one lot for the dearest stocks, more the cheaper a lot is;
 * ETFs trade in larger clips than stocks of the same price, and so do the names with the heaviest volume.
 */
export function meanStockTradeLots(price: number, etf: boolean, typicalLots: number): number {
  const lotMillions = (price * 1000) / 1e6;
  const byPrice = 1 + (etf ? 1.5 : 1) * 0.54 * Math.max(lotMillions, 0.005) ** -0.65;
  return byPrice * Math.max(1, typicalLots / HEAVY_VOLUME_LOTS) ** 0.3;
}

/** Futures and options: contracts per trade (the day's volume over its trades; see docs/market-activity.md). */
export const MEAN_FUTURES_TRADE = 2.2;
export const MEAN_OPTION_TRADE = 3;

/** E[floor(X)] of a Lomax variable X of shape SIZE_TAIL and the given scale: the mean extra units of a trade. */
function meanExtraUnits(scale: number): number {
  const terms = 2000;
  let total = 0;
  for (let k = 1; k <= terms; k++) total += (1 + k / scale) ** -SIZE_TAIL;
  // The rest of the series, as an integral.
  return total + (scale / (SIZE_TAIL - 1)) * (1 + (terms + 0.5) / scale) ** (1 - SIZE_TAIL);
}

/** Scales on a log grid and the mean trade (1 + mean extra units) each gives, increasing: built once. */
const SCALE_GRID = Array.from({ length: 241 }, (_, i) => 10 ** (-3 + i / 40));
const MEAN_GRID = SCALE_GRID.map((scale) => 1 + meanExtraUnits(scale));

/** The Lomax scale whose sizes 1 + floor(X) average `mean` units (log-interpolated on the grid). */
function scaleFor(mean: number): number {
  let i = 1;
  while (i < MEAN_GRID.length - 1 && MEAN_GRID[i]! < mean) i++;
  const [m0, m1] = [MEAN_GRID[i - 1]!, MEAN_GRID[i]!];
  const weight = Math.min(1, Math.max(0, (mean - m0) / (m1 - m0)));
  return SCALE_GRID[i - 1]! * (SCALE_GRID[i]! / SCALE_GRID[i - 1]!) ** weight;
}

/** Sizes up to this many units are drawn from a table; larger ones from the power law itself. */
const TABLE_SIZES = 32;

/** A sampler of trade sizes 1 + floor(X): P(size <= k) tabled for small k, the power law beyond. */
function sizeSampler(scale: number, rng: Rng): () => number {
  const cdf = new Float64Array(TABLE_SIZES + 1);
  for (let k = 1; k <= TABLE_SIZES; k++) cdf[k] = 1 - (1 + k / scale) ** -SIZE_TAIL;
  const tabled = cdf[TABLE_SIZES]!;
  return () => {
    const u = rng.next();
    if (u >= tabled) return 1 + Math.floor(scale * ((1 - u) ** (-1 / SIZE_TAIL) - 1));
    let low = 1;
    let high = TABLE_SIZES;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (u < cdf[mid]!) high = mid;
      else low = mid + 1;
    }
    return low;
  };
}

/**
 * A day's volume as a sequence of trades: each at least one unit, sizes heavy-tailed around a mean, drawn until the
 * volume is used up (the last trade takes what is left). The number of trades follows from the sizes.
 */
export function tradeSizes(total: number, mean: number, rng: Rng): Float64Array {
  const next = sizeStream(total, mean, rng);
  let sizes = new Float64Array(Math.ceil((1.1 * Math.max(0, total)) / Math.max(1, mean)) + 16);
  let count = 0;
  for (let size = next(); size > 0; size = next()) {
    if (count === sizes.length) {
      const grown = new Float64Array(sizes.length * 2);
      grown.set(sizes);
      sizes = grown;
    }
    sizes[count++] = size;
  }
  return sizes.slice(0, count);
}

/** tradeSizes one trade at a time: each call gives the next trade's size, 0 once the volume is used up. */
export function sizeStream(total: number, mean: number, rng: Rng): () => number {
  let left = Math.max(0, Math.round(total));
  if (left === 0) return () => 0;
  const draw = sizeSampler(scaleFor(Math.max(1.0001, mean)), rng);
  return () => {
    if (left <= 0) return 0;
    const size = Math.min(left, draw());
    left -= size;
    return size;
  };
}

/** The mean trade of a session: the usual one, unless the trade rate would pass its cap or fall below its floor. */
export function sessionTradeMean(mode: ClockMode, session: TradingSession, volume: number, mean: number): number {
  const fewest = minTradesPerHour(mode) * activeHours(mode, session);
  const most = maxTradesPerHour(mode) * activeHours(mode, session);
  const atMost = fewest > 0 ? Math.max(1, volume / fewest) : mean;
  return Math.max(Math.min(mean, atMost), volume / most);
}

// ---- when trades happen ----

/** Intraday activity in the exchange's day sessions: busiest at the open and the close, about a fifth at midday. */
const U_FLOOR = 0.5;
const U_DEPTH = 2.5;

/** The U-shape's density at a position 0..1 of a session, averaging 1 over the session. */
export function uDensity(x: number): number {
  return (U_FLOOR + U_DEPTH * (2 * x - 1) ** 2) / (U_FLOOR + U_DEPTH / 3);
}

/** Taipei minute of the US cash open on a date: 21:30 in US daylight saving time, 22:30 otherwise. */
export function usOpenMinute(date: string): number {
  const year = date.slice(0, 4);
  const summerFrom = nthWeekdayOfMonth(`${year}03`, 0, 2)!;
  const summerTo = nthWeekdayOfMonth(`${year}11`, 0, 1)!;
  const summer = date >= addDays(summerFrom, 1) && date < addDays(summerTo, 1);
  return (summer ? 21 : 22) * 60 + 30;
}

/**
 * Activity of the futures night session (15:00-05:00) relative to the day session's average: a burst at the
 * 15:00 open, a larger one around the US cash open, thin after 01:00. About 30% of a day's contracts trade here.
 */
export function nightSessionRate(epochMs: number): number {
  const minute = minuteOfDay(epochMs);
  const night = dayFactsAt(epochMs, minute >= 15 * 60 ? 0 : -1);
  const sinceOpen = (epochMs - night.midnight) / 60_000 - 15 * 60;
  const fromUsOpen = (epochMs - night.midnight) / 60_000 - night.usOpen;
  const base = minute >= 60 && minute < 15 * 60 ? 0.06 : 0.1;
  const open = 0.5 * Math.exp(-sinceOpen / 30);
  const us = fromUsOpen >= 0 ? 0.45 * Math.exp(-fromUsOpen / 75) : 0.2 * Math.exp(fromUsOpen / 30);
  return base + open + us;
}

/**
 * Activity on the always-open clock relative to its average, by the Taiwan hour: busiest in Taiwan's trading
 * hours, with the US open's burst in the evening and a quieter early morning; on days off evenly, at three quarters.
 */
export function alwaysOpenRate(epochMs: number): number {
  return dayFactsAt(epochMs).trading ? hourRate(epochMs) : ALWAYS_OPEN_DAY_OFF;
}

function hourRate(epochMs: number): number {
  const minute = minuteOfDay(epochMs);
  const fromUsOpen = minute - dayFactsAt(epochMs).usOpen;
  const us = fromUsOpen >= 0 ? 0.4 * Math.exp(-fromUsOpen / 75) : 0;
  if (minute >= 9 * 60 && minute < 13 * 60 + 30) return 1.4;
  if (minute >= 60 && minute < 8 * 60) return 0.75;
  if (minute >= 8 * 60 && minute < 9 * 60) return 0.9;
  return 1 + us;
}

/** The rate of trading at an instant of an interval of a session, for a clock mode and a market. */
export type RateAt = (epochMs: number, interval: Interval) => number;

export function activityProfile(mode: ClockMode, night: (interval: Interval) => boolean): RateAt {
  if (mode === 'always-open') return (t) => alwaysOpenRate(t);
  return (t, interval) =>
    night(interval) ? nightSessionRate(t) : uDensity((t - interval.start) / (interval.end - interval.start));
}

/** The futures night session: the interval that starts at 15:00. */
export const isNightInterval = (interval: Interval): boolean => taipeiMinuteOfDay(interval.start) === 15 * 60;

const BIN_MS = 60_000;

/** Minute bins over a session's continuous intervals, each weighted by the rate at its middle and its length. */
export interface RateBins {
  starts: Float64Array;
  lengths: Float64Array;
  weights: Float64Array;
  total: number;
}

export function rateBins(intervals: Interval[], rate: RateAt): RateBins {
  const count = intervals.reduce((sum, { start, end }) => sum + Math.max(0, Math.ceil((end - start) / BIN_MS)), 0);
  const bins = { starts: new Float64Array(count), lengths: new Float64Array(count), weights: new Float64Array(count) };
  let total = 0;
  let i = 0;
  for (const interval of intervals) {
    for (let start = interval.start; start < interval.end; start += BIN_MS, i++) {
      const length = Math.min(BIN_MS, interval.end - start);
      bins.starts[i] = start;
      bins.lengths[i] = length;
      bins.weights[i] = rate(start + length / 2, interval) * length;
      total += bins.weights[i]!;
    }
  }
  return { ...bins, total };
}

/** The instant (epoch microseconds) a cumulative weight falls at, walking the bins on from a position. */
class BinWalk {
  private bin = 0;
  private before = 0;

  constructor(private readonly bins: RateBins) {}

  timeAt(target: number): number {
    const { starts, lengths, weights } = this.bins;
    while (this.bin < weights.length - 1 && this.before + weights[this.bin]! < target) {
      this.before += weights[this.bin++]!;
    }
    const weight = weights[this.bin]!;
    const within = weight > 0 ? Math.min(1, Math.max(0, (target - this.before) / weight)) : 0;
    return Math.floor((starts[this.bin]! + within * lengths[this.bin]!) * 1000);
  }
}

/**
 * `count` trade times (epoch microseconds, in order) over the continuous intervals of a session, as a Poisson
 * process of the given rate conditioned on its count: minute bins weighted by the rate, uniform inside a bin.
 */
export function timesByRate(intervals: Interval[], count: number, rng: Rng, rate: RateAt): Float64Array {
  const bins = rateBins(intervals, rate);
  const times = new Float64Array(count);
  if (count === 0 || bins.total <= 0) return times;
  // Sorted uniforms from exponential spacings, walked through the bins in order.
  const spacings = new Float64Array(count + 1);
  let sum = 0;
  for (let k = 0; k <= count; k++) {
    sum -= Math.log(1 - rng.next());
    spacings[k] = sum;
  }
  const walk = new BinWalk(bins);
  for (let k = 0; k < count; k++) times[k] = walk.timeAt((spacings[k]! / sum) * bins.total);
  return times;
}

/**
 * timesByRate drawn forward, one trade at a time, so that the first trades can be drawn without the rest: each
 * call gives the next of `count` sorted uniforms (the next order statistic given the last) mapped through the
 * session's minute bins (rateBins). Epoch microseconds; NaN after the last.
 */
export function forwardTimesByRate(bins: RateBins, count: number, rng: Rng): () => number {
  const walk = new BinWalk(bins);
  let drawn = 0;
  let uniform = 0;
  return () => {
    if (drawn >= count || bins.total <= 0) return Number.NaN;
    uniform = 1 - (1 - uniform) * (1 - rng.next()) ** (1 / (count - drawn));
    drawn++;
    return walk.timeAt(uniform * bins.total);
  };
}

/** True when an instant falls in a trading day's futures night session (15:00 to 05:00 the next morning). */
export function inNightSession(epochMs: number): boolean {
  const minute = minuteOfDay(epochMs);
  if (minute >= 15 * 60) return dayFactsAt(epochMs).trading;
  if (minute < 5 * 60) return dayFactsAt(epochMs, -1).trading;
  return false;
}
