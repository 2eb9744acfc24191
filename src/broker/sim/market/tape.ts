// A day's tape of one instrument: every trade with the best bid and ask it met. Trades arrive with the intraday
// U-shape, take place at the bid or the ask around the instrument's fair value, and lock at a price limit the way
// the exchange does: at limit-up nobody sells (no ask), at limit-down nobody buys (no bid).

import { continuousLength, type TradingSession } from '../../../domain/sessions.js';
import { roundDownToTick, stepTicks, type TickTable } from '../../../domain/ticks.js';
import type { Rng } from './rng.js';

export interface Tape {
  code: string;
  day: string;
  /** Epoch microseconds, in order. */
  times: Float64Array;
  prices: Float64Array;
  volumes: Float64Array;
  bidPrices: Float64Array;
  bidVolumes: Float64Array;
  askPrices: Float64Array;
  askVolumes: Float64Array;
  /** 1 outer (at the ask), 2 inner (at the bid), 0 undetermined (auctions). */
  tickTypes: Uint8Array;
  /** NT$ of turnover per price unit per volume unit: 1000 shares a lot for stocks. */
  amountUnit: number;
  /** The tick grid and limits the book lives on; null for indices, which have no book. */
  rules: PriceRules | null;
}

export interface PriceRules {
  ticks: TickTable;
  limitUp: number;
  limitDown: number;
}

/** Intraday activity: busiest at the open and the close, about a fifth of it at midday. */
const U_FLOOR = 0.5;
const U_DEPTH = 2.5;
const U_CDF_POINTS = 1024;
const INVERSE_U = inverseUShape();

function inverseUShape(): Float64Array {
  const cdf = (x: number) => (U_FLOOR * x + (U_DEPTH * ((2 * x - 1) ** 3 + 1)) / 6) / (U_FLOOR + U_DEPTH / 3);
  const table = new Float64Array(U_CDF_POINTS + 1);
  let x = 0;
  for (let i = 0; i <= U_CDF_POINTS; i++) {
    const target = i / U_CDF_POINTS;
    while (x < 1 && cdf(x) < target) x += 1 / (U_CDF_POINTS * 64);
    table[i] = Math.min(x, 1);
  }
  return table;
}

function uShapeQuantile(u: number): number {
  const position = u * U_CDF_POINTS;
  const i = Math.min(Math.floor(position), U_CDF_POINTS - 1);
  return INVERSE_U[i]! + (position - i) * (INVERSE_U[i + 1]! - INVERSE_U[i]!);
}

/** Trade times over the continuous part of a session, U-shaped within each interval, in epoch microseconds. */
export function tradeTimes(session: TradingSession, count: number, rng: Rng): Float64Array {
  const times = new Float64Array(count);
  const total = continuousLength(session);
  let written = 0;
  session.continuous.forEach((interval, index) => {
    const last = index === session.continuous.length - 1;
    const share = last ? count - written : Math.round((count * (interval.end - interval.start)) / total);
    const spacings = new Float64Array(share + 1);
    let sum = 0;
    for (let k = 0; k <= share; k++) {
      sum -= Math.log(1 - rng.next());
      spacings[k] = sum;
    }
    const lengthUs = (interval.end - interval.start) * 1000;
    for (let k = 0; k < share; k++) {
      times[written + k] = interval.start * 1000 + Math.floor(uShapeQuantile(spacings[k]! / sum) * lengthUs);
    }
    written += share;
  });
  return times;
}

/** Splits a day's volume over its trades: every trade at least one unit, the rest by heavy-tailed weights. */
export function splitVolume(total: number, count: number, rng: Rng): Float64Array {
  const volumes = new Float64Array(count);
  if (count === 0) return volumes;
  const extra = Math.max(0, total - count);
  const weights = new Float64Array(count);
  let sum = 0;
  for (let k = 0; k < count; k++) {
    weights[k] = Math.exp(1.1 * rng.normal());
    sum += weights[k]!;
  }
  let cumulative = 0;
  let given = 0;
  for (let k = 0; k < count; k++) {
    cumulative += weights[k]!;
    const upTo = Math.round((extra * cumulative) / sum);
    volumes[k] = 1 + upTo - given;
    given = upTo;
  }
  return volumes;
}

export interface TapeInputs {
  code: string;
  day: string;
  times: Float64Array;
  /** The fair value at each trade time. */
  fair: Float64Array;
  volumes: Float64Array;
  rules: PriceRules;
  amountUnit: number;
  /** Trades that are auctions, matched at exactly their fair value (the closing auction, the fixed-price match). */
  auctionFrom: number;
  rng: Rng;
}

/** Prices every trade from its fair value: at the ask or the bid so that the expected price is fair. */
export function buildTape(inputs: TapeInputs): Tape {
  const { times, fair, volumes, rules, rng } = inputs;
  const n = times.length;
  const tape: Tape = {
    code: inputs.code,
    day: inputs.day,
    times,
    volumes,
    prices: new Float64Array(n),
    bidPrices: new Float64Array(n),
    bidVolumes: new Float64Array(n),
    askPrices: new Float64Array(n),
    askVolumes: new Float64Array(n),
    tickTypes: new Uint8Array(n),
    amountUnit: inputs.amountUnit,
    rules,
  };
  const typical = n > 0 ? volumes.reduce((a, b) => a + b, 0) / n : 1;
  const depth = () => Math.max(1, Math.round(typical * (1 + 5 * rng.next())));
  for (let k = 0; k < n; k++) {
    const quote = quoteAround(fair[k]!, rules);
    const auction = k >= inputs.auctionFrom;
    const atAsk = quote.lock === 'up' || (quote.lock === null && rng.next() < quote.askChance);
    const traded = quote.lock !== null || auction ? quote.fairOnGrid : atAsk ? quote.ask : quote.bid;
    tape.prices[k] = clampToLimits(traded, rules);
    tape.tickTypes[k] = auction ? 0 : atAsk ? 1 : 2;
    tape.bidPrices[k] = quote.bid;
    tape.askPrices[k] = quote.ask;
    tape.bidVolumes[k] = quote.bid === 0 ? 0 : quote.lock === 'up' ? depth() * 40 : depth();
    tape.askVolumes[k] = quote.ask === 0 ? 0 : quote.lock === 'down' ? depth() * 40 : depth();
  }
  return tape;
}

interface Quote {
  bid: number;
  ask: number;
  askChance: number;
  fairOnGrid: number;
  lock: 'up' | 'down' | null;
}

function clampToLimits(price: number, rules: PriceRules): number {
  return Math.min(rules.limitUp, Math.max(rules.limitDown, price));
}

/** The best bid and ask around a fair value; at a limit the book locks there with one side empty. */
export function quoteAround(fair: number, rules: PriceRules): Quote {
  const { ticks, limitUp, limitDown } = rules;
  if (fair >= limitUp) return { bid: limitUp, ask: 0, askChance: 1, fairOnGrid: limitUp, lock: 'up' };
  if (fair <= limitDown) return { bid: 0, ask: limitDown, askChance: 0, fairOnGrid: limitDown, lock: 'down' };
  const bid = Math.max(roundDownToTick(ticks, fair), limitDown);
  const ask = Math.min(stepTicks(ticks, bid, 1), limitUp);
  const askChance = ask > bid ? (fair - bid) / (ask - bid) : 0.5;
  const fairOnGrid = askChance >= 0.5 ? ask : bid;
  return { bid, ask, askChance, fairOnGrid, lock: null };
}

/** How many trades of a tape had happened by an instant (epoch ms). */
export function publishedCount(tape: Pick<Tape, 'times'>, epochMs: number): number {
  const limit = epochMs * 1000;
  let low = 0;
  let high = tape.times.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (tape.times[mid]! <= limit) low = mid + 1;
    else high = mid;
  }
  return low;
}
