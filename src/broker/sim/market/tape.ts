// A day's tape of one instrument: every trade with the best bid and ask it met. Trades arrive with the intraday
// U-shape, take place at the bid or the ask around the instrument's fair value, and lock at a price limit the way
// the exchange does: at limit-up nobody sells (no ask), at limit-down nobody buys (no bid).

import type { TradingSession } from '../../../domain/sessions.js';
import { roundDownToTick, stepTicks, type TickTable } from '../../../domain/ticks.js';
import { drawExtraTicks } from '../exchange/spread-model.js';
import { activityProfile, isNightInterval, type RateAt, timesByRate } from './activity.js';
import type { Rng } from './rng.js';

export interface Tape {
  code: string;
  day: string;
  /** Epoch microseconds, in order. */
  times: Float64Array;
  prices: Float64Array;
  volumes: Float64Array;
  bidPrices: Float64Array;
  /** Whole lots (or shares, contracts) at the best bid: 4 bytes each, a large share of a whole market's tapes. */
  bidVolumes: Uint32Array;
  askPrices: Float64Array;
  askVolumes: Uint32Array;
  /** 1 outer (at the ask), 2 inner (at the bid), 0 undetermined (auctions). */
  tickTypes: Uint8Array;
  /** NT$ of turnover per price unit per volume unit: 1000 shares a lot for stocks. */
  amountUnit: number;
  /** The tick grid and limits the book lives on; null for indices, which have no book. */
  rules: PriceRules | null;
}

/** The per-trade arrays of a tape. */
export const TAPE_ARRAYS = [
  'times',
  'prices',
  'volumes',
  'bidPrices',
  'bidVolumes',
  'askPrices',
  'askVolumes',
  'tickTypes',
] as const;

export interface PriceRules {
  ticks: TickTable;
  limitUp: number;
  limitDown: number;
}

/**
 * Trade times over the continuous part of a session, in epoch microseconds, with the intraday shape of the clock
 * mode (the exchange's U-shape in day sessions and its night session's shape, unless told otherwise).
 */
export function tradeTimes(
  session: TradingSession,
  count: number,
  rng: Rng,
  rate: RateAt = activityProfile('exchange', isNightInterval),
): Float64Array {
  return timesByRate(session.continuous, count, rng, rate);
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
  /**
   * The chance, at an instant (epoch ms), that a new quote is a tick wider, and again for each further tick
   * (exchange/spread-model.ts); without it every quote is one tick wide.
   */
  spreadChanceAt?: (epochMs: number) => number;
  /** How many times deeper than one to six typical trades the best levels are (1 without it). */
  bestDepthScale?: number;
  /** The day's mean trade, when the tape holds only its first trades (the mean of `volumes` without it). */
  typicalVolume?: number;
}

/** Prices every trade from its fair value: at the ask or the bid so that the expected price is fair. */
export function buildTape(inputs: TapeInputs): Tape {
  const { times, volumes, rules } = inputs;
  const n = times.length;
  const tape: Tape = {
    code: inputs.code,
    day: inputs.day,
    times,
    volumes,
    prices: new Float64Array(n),
    bidPrices: new Float64Array(n),
    bidVolumes: new Uint32Array(n),
    askPrices: new Float64Array(n),
    askVolumes: new Uint32Array(n),
    tickTypes: new Uint8Array(n),
    amountUnit: inputs.amountUnit,
    rules,
  };
  const typical = inputs.typicalVolume ?? (n > 0 ? volumes.reduce((a, b) => a + b, 0) / n : 1);
  const pricer = new TradePricer({ ...inputs, typicalVolume: typical });
  for (let k = 0; k < n; k++) pricer.price(tape, k, inputs.fair[k]!, k >= inputs.auctionFrom);
  return tape;
}

/**
 * Prices trades one at a time, in order, from their fair values (buildTape's loop, kept apart so that a tape drawn
 * forward can price its trades as it draws them): the quote a trade met carries over to the next.
 */
export class TradePricer {
  private quote: Quote | null = null;
  /** A trade met a wider quote by chance (a book thinned for a moment): the next is quoted afresh. */
  private wide = false;
  private readonly depthOf: number;

  constructor(private readonly inputs: Omit<TapeInputs, 'times' | 'fair' | 'volumes'> & { typicalVolume: number }) {
    this.depthOf = inputs.typicalVolume * (inputs.bestDepthScale ?? 1);
  }

  /** Prices trade k of a tape (its time set) at a fair value; an auction trade matches at the fair value. */
  price(tape: Tape, k: number, fair: number, auction: boolean): void {
    const { rules, rng, spreadChanceAt } = this.inputs;
    const extra =
      auction || !spreadChanceAt ? 0 : drawExtraTicks(spreadChanceAt(tape.times[k]! / 1000), () => rng.next());
    // One-tick quotes are kept while the fair value stays inside them; a wider quote lasts one trade.
    const quote =
      extra === 0 && !this.wide && !auction ? quoteNear(this.quote, fair, rules) : quoteAround(fair, rules, extra);
    this.quote = quote;
    this.wide = extra > 0;
    const atAsk = quote.lock === 'up' || (quote.lock === null && rng.next() < quote.askChance);
    const traded = quote.lock !== null || auction ? quote.fairOnGrid : atAsk ? quote.ask : quote.bid;
    tape.prices[k] = clampToLimits(traded, rules);
    tape.tickTypes[k] = auction ? 0 : atAsk ? 1 : 2;
    tape.bidPrices[k] = quote.bid;
    tape.askPrices[k] = quote.ask;
    tape.bidVolumes[k] = quote.bid === 0 ? 0 : quote.lock === 'up' ? this.depth() * 40 : this.depth();
    tape.askVolumes[k] = quote.ask === 0 ? 0 : quote.lock === 'down' ? this.depth() * 40 : this.depth();
  }

  private depth(): number {
    return Math.max(1, Math.round(this.depthOf * (1 + 5 * this.inputs.rng.next())));
  }
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

/**
 * quoteAround, updating the previous quote in place when the fair value is still between its bid and ask (the usual
 * case: consecutive trades are close in price). Only its TradePricer holds the quote, so reusing it is safe.
 */
function quoteNear(previous: Quote | null, fair: number, rules: PriceRules): Quote {
  if (previous === null || !isInside(previous, fair, rules)) return quoteAround(fair, rules);
  previous.askChance = (fair - previous.bid) / (previous.ask - previous.bid);
  return previous;
}

/** True when a fair value is still strictly within an unlocked quote (and off the limits). */
function isInside(quote: Quote, fair: number, rules: PriceRules): boolean {
  return quote.lock === null && fair >= quote.bid && fair < quote.ask && fair > rules.limitDown;
}

/**
 * The best bid and ask around a fair value, one tick apart or `widerBy` ticks more (split below and above, inside
 * the limits); at a limit the book locks there with one side empty. fairOnGrid is the price nearest the fair value.
 */
export function quoteAround(fair: number, rules: PriceRules, widerBy = 0): Quote {
  const { ticks, limitUp, limitDown } = rules;
  if (fair >= limitUp) return { bid: limitUp, ask: 0, askChance: 1, fairOnGrid: limitUp, lock: 'up' };
  if (fair <= limitDown) return { bid: 0, ask: limitDown, askChance: 0, fairOnGrid: limitDown, lock: 'down' };
  const near = Math.max(roundDownToTick(ticks, fair), limitDown);
  const far = Math.min(stepTicks(ticks, near, 1), limitUp);
  const fairOnGrid = far > near && (fair - near) / (far - near) >= 0.5 ? far : near;
  const below = widerBy >> 1;
  const bid = below > 0 ? Math.max(stepTicks(ticks, near, -below), limitDown) : near;
  const ask = widerBy > below ? Math.min(stepTicks(ticks, far, widerBy - below), limitUp) : far;
  const askChance = ask > bid ? (fair - bid) / (ask - bid) : 0.5;
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

/** The trades of a tape up to an instant (epoch ms): the tape itself when it has none later. */
export function truncateTape(tape: Tape, epochMs: number): Tape {
  const count = publishedCount(tape, epochMs);
  if (count === tape.times.length) return tape;
  return {
    ...tape,
    times: tape.times.slice(0, count),
    prices: tape.prices.slice(0, count),
    volumes: tape.volumes.slice(0, count),
    bidPrices: tape.bidPrices.slice(0, count),
    bidVolumes: tape.bidVolumes.slice(0, count),
    askPrices: tape.askPrices.slice(0, count),
    askVolumes: tape.askVolumes.slice(0, count),
    tickTypes: tape.tickTypes.slice(0, count),
  };
}
