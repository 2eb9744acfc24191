// A day's tape drawn forward in time, so that its first trades can be built without the rest: the trades up to an
// instant are exactly the first trades of the whole day's tape. Each random part has its own stream and is drawn one
// trade at a time: the sizes (counted once to know the day's trades), the times (sorted uniforms drawn as successive
// order statistics), the own noise (a Brownian bridge sampled forward toward its end point) and the prices. Sweeps
// that start among the trades kept are laid whole. Used for stocks on the always-open clock, whose day is long.

import type { QuoteShape } from '../exchange/spread-model.js';
import { forwardTimesByRate, type RateBins, sizeStream } from './activity.js';
import { Rng } from './rng.js';
import { addSweeps, MOST_SWEEP_LEVELS } from './sweeps.js';
import { buildTape, type PriceRules, type Tape, truncateTape } from './tape.js';

export interface ForwardDay {
  code: string;
  day: string;
  /** What the day's random streams are keyed by (seed, clock mode, code, day). */
  keys: (string | number)[];
  /** Continuous trading: the lots it trades, the mean trade, and how busy it is over the session (rateBins). */
  volume: number;
  meanTrade: number;
  bins: RateBins;
  /** The day's last print: when (epoch ms, after every continuous trade), its lots and price (the close). */
  closeAtMs: number;
  closingVolume: number;
  closePrice: number;
  /** The share of the day's variance accrued by an instant (epoch ms): the own noise's clock. */
  shareAt: (epochMs: number) => number;
  /** The log fair value at an instant without the own noise, given the share accrued. */
  trendAt: (epochMs: number, share: number) => number;
  /** Standard deviation of the own noise over the whole day, in logs. */
  volatility: number;
  rules: PriceRules;
  amountUnit: number;
  quoteShape: (trades: number) => QuoteShape;
}

/** The trades of a day's tape up to an instant (epoch ms; Infinity for the whole day); `trades` is countTrades(day). */
export function forwardTape(day: ForwardDay, trades: number, untilMs: number): Tape {
  const stream = (name: string) => new Rng(...day.keys, name);
  const { times, published } = continuousTimes(day, trades, untilMs, stream('times'));
  const closes = day.closeAtMs <= untilMs;
  const length = times.length + (closes ? 1 : 0);
  const allTimes = new Float64Array(length);
  allTimes.set(times);
  const volumes = new Float64Array(length);
  const nextSize = sizeStream(day.volume, day.meanTrade, stream('sizes'));
  for (let k = 0; k < times.length; k++) volumes[k] = nextSize();
  const fair = fairValues(day, times, stream('own'));
  const fairAll = new Float64Array(length);
  fairAll.set(fair);
  if (closes) {
    allTimes[trades] = day.closeAtMs * 1000;
    volumes[trades] = day.closingVolume;
    fairAll[trades] = day.closePrice;
  }
  const tape = buildTape({
    code: day.code,
    day: day.day,
    times: allTimes,
    fair: fairAll,
    volumes,
    rules: day.rules,
    amountUnit: day.amountUnit,
    auctionFrom: trades,
    rng: stream('prices'),
    typicalVolume: (day.volume + day.closingVolume) / (trades + 1),
    ...day.quoteShape(trades),
  });
  addSweeps(tape, trades, [trades], fairAll[0] ?? 0, closes ? trades : published);
  return truncateTape(tape, untilMs);
}

/** The day's continuous trades: how many sizes its volume is drawn in. */
export function countTrades(day: ForwardDay): number {
  const next = sizeStream(day.volume, day.meanTrade, new Rng(...day.keys, 'sizes'));
  let trades = 0;
  while (next() > 0) trades++;
  return trades;
}

/**
 * The continuous trades' times up to an instant, and MOST_SWEEP_LEVELS more (a sweep that starts before the instant
 * moves later trades up to it); `published` is how many were at or before the instant before any sweep.
 */
function continuousTimes(day: ForwardDay, trades: number, untilMs: number, rng: Rng) {
  const nextTime = forwardTimesByRate(day.bins, trades, rng);
  const lastUs = day.closeAtMs * 1000 - 1;
  let times: Float64Array = new Float64Array(Math.min(trades, 1024));
  let count = 0;
  let published = 0;
  while (count < trades && count < published + MOST_SWEEP_LEVELS) {
    const us = Math.min(nextTime(), lastUs);
    if (count === times.length) times = grown(times, trades);
    times[count++] = us;
    if (us <= untilMs * 1000 && published === count - 1) published = count;
  }
  return { times: times.slice(0, count), published };
}

function grown(array: Float64Array, most: number): Float64Array {
  const larger = new Float64Array(Math.min(most, array.length * 2));
  larger.set(array);
  return larger;
}

/** The fair value at each time: the trend plus the own noise, a bridge to zero at the day's end drawn forward. */
function fairValues(day: ForwardDay, timesUs: Float64Array, rng: Rng): Float64Array {
  const fair = new Float64Array(timesUs.length);
  let own = 0;
  let accrued = 0;
  for (let k = 0; k < timesUs.length; k++) {
    const ms = timesUs[k]! / 1000;
    const share = day.shareAt(ms);
    if (share >= 1) own = 0;
    else if (share > accrued) {
      const step = share - accrued;
      const rest = 1 - accrued;
      own += -own * (step / rest) + day.volatility * Math.sqrt((step * (1 - share)) / rest) * rng.normal();
      accrued = share;
    }
    fair[k] = Math.exp(day.trendAt(ms, share) + own);
  }
  return fair;
}
