// Sweeps: now and then a marketable order takes several price levels at once, and the tape prints a burst of trades
// within milliseconds at successive prices, after which the price falls back to where the market was (the book
// refills). They are laid over a built tape: the trades after a sweep's first one are moved up to it in time and
// priced level by level, so the number of trades, their volumes and every other trade stay as they were.

import { stepTicks } from '../../../domain/ticks.js';
import { Rng } from './rng.js';
import type { Tape } from './tape.js';

/** The chance that a continuous trade starts a sweep. */
export const SWEEP_CHANCE = 0.01;
/** Levels a sweep takes: 2 plus a geometric number (mostly 2 or 3), at most this many. */
export const MOST_SWEEP_LEVELS = 8;
const MORE_LEVELS_CHANCE = 0.5;
/** Microseconds between the trades of a sweep. */
const SWEEP_STEP_US = 800;

/**
 * Lays sweeps over the continuous trades of a tape (those before `auctionFrom`, other than the call auctions at
 * `auctions`), in place. The tape's day has `auctionFrom + 1` trades.
 */
export function addSweeps(tape: Tape, auctionFrom: number, auctions: readonly number[], fairAtStart: number): void {
  if (!tape.rules) return;
  const rng = sweepStream(tape, auctionFrom, fairAtStart);
  for (let k = 0; k < auctionFrom - 1; ) k = sweepFrom(tape, k, rng, auctionFrom, auctions);
}

/** The stream a tape's sweeps are drawn from, keyed by its trades (`auctionFrom + 1`) and first fair value. */
export function sweepStream(tape: Tape, auctionFrom: number, fairAtStart: number): Rng {
  return new Rng('sweeps', tape.code, tape.day, auctionFrom + 1, Math.round(fairAtStart * 1e4));
}

/**
 * Decides whether continuous trade k starts a sweep, and lays it (the trades it takes must be in the tape); returns
 * the next trade to decide on, past the sweep.
 */
export function sweepFrom(tape: Tape, k: number, rng: Rng, auctionFrom: number, auctions: readonly number[]): number {
  if (rng.next() >= SWEEP_CHANCE) return k + 1;
  let levels = 2;
  while (levels < MOST_SWEEP_LEVELS && rng.next() < MORE_LEVELS_CHANCE) levels++;
  const direction = rng.next() < 0.5 ? 1 : -1;
  if (tape.bidPrices[k] === 0 || tape.askPrices[k] === 0 || auctions.includes(k)) return k + 1;
  const nextAuction = auctions.find((a) => a > k) ?? auctionFrom;
  return sweep(tape, k, Math.min(levels, nextAuction - k, auctionFrom - k), direction);
}

/** A sweep from trade `first` over `levels` trades; returns the index after its last trade. */
function sweep(tape: Tape, first: number, levels: number, direction: 1 | -1): number {
  const { ticks, limitUp, limitDown } = tape.rules!;
  const start = direction === 1 ? tape.askPrices[first]! : tape.bidPrices[first]!;
  const bid = tape.bidPrices[first]!;
  const ask = tape.askPrices[first]!;
  for (let i = 0; i < levels; i++) {
    const k = first + i;
    const price = stepTicks(ticks, start, direction * i);
    if (price > limitUp || price < limitDown) return k;
    if (i > 0) tape.times[k] = Math.min(tape.times[k]!, tape.times[first]! + i * SWEEP_STEP_US);
    tape.prices[k] = price;
    tape.tickTypes[k] = direction === 1 ? 1 : 2;
    // The level taken is the best price of its side at that trade, and the other side follows one tick behind it
    // (the sweep's own remainder, or traders chasing it): the quote stays a tick wide as it climbs.
    const behind = i === 0 ? (direction === 1 ? bid : ask) : stepTicks(ticks, price, -direction);
    tape.askPrices[k] = direction === 1 ? price : behind;
    tape.bidPrices[k] = direction === 1 ? behind : price;
  }
  return first + levels;
}
