// What the whole-market figures read of a stock's day (index breadth, index components and contributions, the
// scanner rankings, the daily quotes): when each trade was published, at what price and volume, and the turnover so
// far. A digest shares its tape's arrays (no copies) and adds only the running turnover, so while the tape is kept
// it costs 8 bytes a trade, and once the tape is evicted from the bounded tape cache the digest keeps a third of it
// (no book). Every listed stock's digest of the day can be kept while tapes are built for what is queried or
// subscribed.

import { publishedCount, type Tape } from './tape.js';

/** The columns of a tape that the day's figures are counted from. */
export type TradeSeries = Pick<Tape, 'times' | 'prices' | 'volumes' | 'amountUnit'>;

export interface TapeDigest extends TradeSeries {
  /** Turnover (NT$) after each trade: amounts[k] is the sum over trades 0..k. */
  amounts: Float64Array;
}

export function digestOf(tape: Tape): TapeDigest {
  const amounts = new Float64Array(tape.times.length);
  let amount = 0;
  for (let k = 0; k < tape.times.length; k++) {
    amount += tape.prices[k]! * tape.volumes[k]! * tape.amountUnit;
    amounts[k] = amount;
  }
  const { times, prices, volumes, amountUnit } = tape;
  return { times, prices, volumes, amountUnit, amounts };
}

/** A run of trades in prices, lots and NT$: a day so far, or a minute's bar. */
export interface Ohlcv {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  /** NT$ of turnover. */
  amount: number;
}

export interface TradeStats extends Ohlcv {
  count: number;
}

/** The day so far of a series' first count trades (zeros when none), as snapshots, rankings and daily quotes show. */
export function tradeStats(series: TradeSeries, count: number): TradeStats {
  let high = Number.NEGATIVE_INFINITY;
  let low = Number.POSITIVE_INFINITY;
  let volume = 0;
  let amount = 0;
  for (let k = 0; k < count; k++) {
    const price = series.prices[k]!;
    if (price > high) high = price;
    if (price < low) low = price;
    volume += series.volumes[k]!;
    amount += price * series.volumes[k]! * series.amountUnit;
  }
  const traded = count > 0;
  return {
    count,
    open: traded ? series.prices[0]! : 0,
    high: traded ? high : 0,
    low: traded ? low : 0,
    close: traded ? series.prices[count - 1]! : 0,
    volume,
    amount,
  };
}

/** How many of the digest's trades are published at an instant (epoch ms), as publishedCount counts a tape's. */
export const digestCount = (digest: TapeDigest, epochMs: number): number => publishedCount(digest, epochMs);

/** Values of the last two days asked for (today's, and yesterday's around the day change), by code. */
export class TwoDayCache<T> {
  private readonly days = new Map<string, Map<string, T>>();

  peek(code: string, day: string): T | undefined {
    return this.days.get(day)?.get(code);
  }

  get(code: string, day: string, make: () => T): T {
    let values = this.days.get(day);
    if (!values) {
      values = new Map();
      this.days.set(day, values);
      if (this.days.size > 2) this.days.delete(this.days.keys().next().value!);
    }
    let value = values.get(code);
    if (value === undefined) {
      value = make();
      values.set(code, value);
    }
    return value;
  }
}
