// Call auctions (集合競價): how the exchange picks the one price a batch of orders matches at, the market's own
// orders in such a batch, and how big each auction of the simulated day is. docs/exchange-rules.md tells the rules.

import type { StockInfo } from '../../../domain/contracts.js';
import type { ClockMode } from '../../../domain/sessions.js';
import { stepTicks } from '../../../domain/ticks.js';
import { taipeiInstant } from '../../../domain/time.js';
import { unitOf } from '../random.js';
import { normalOf } from './daily.js';
import { type PriceRules, quoteAround, type Tape } from './tape.js';

export interface AuctionOrder {
  side: 'Buy' | 'Sell';
  /** On the tick grid; a market order counts at the limit it may reach (limit-up to buy, limit-down to sell). */
  price: number;
  quantity: number;
}

export interface Uncross {
  price: number;
  volume: number;
}

/** Every tick price from `low` to `high`, on the grid. */
function gridBetween(rules: PriceRules, low: number, high: number): number[] {
  const prices = [low];
  let price = low;
  while (price < high) {
    const next = stepTicks(rules.ticks, price, 1);
    if (next <= price) break;
    prices.push(next);
    price = next;
  }
  return prices;
}

/**
 * The uncross of a batch (TWSE Operating Rules Art. 58-3; TAIFEX's call-auction rule is the same): the price that
 * executes the most volume such that every buy above it and every sell below it fills and, at the price itself, at
 * least one side fills whole; among equals, the least imbalance left at the price, then the price nearest the
 * reference (the session's last trade, or the auction reference price before the first), then the higher price.
 * Null when nothing crosses.
 */
export function uncross(orders: AuctionOrder[], rules: PriceRules, reference: number): Uncross | null {
  const buys = orders.filter((o) => o.side === 'Buy' && o.quantity > 0);
  const sells = orders.filter((o) => o.side === 'Sell' && o.quantity > 0);
  if (buys.length === 0 || sells.length === 0) return null;
  const low = Math.min(...sells.map((o) => o.price));
  const high = Math.max(...buys.map((o) => o.price));
  if (low > high) return null;
  let best: (Uncross & { imbalance: number; distance: number }) | null = null;
  for (const price of gridBetween(rules, low, high)) {
    const demand = sum(buys, (o) => o.price >= price);
    const supply = sum(sells, (o) => o.price <= price);
    const volume = Math.min(demand, supply);
    const fillsBetter = sum(buys, (o) => o.price > price) <= volume && sum(sells, (o) => o.price < price) <= volume;
    if (!fillsBetter || volume === 0) continue;
    const candidate = { price, volume, imbalance: Math.abs(demand - supply), distance: Math.abs(price - reference) };
    if (!best || better(candidate, best)) best = candidate;
  }
  return best && { price: best.price, volume: best.volume };
}

type Ranked = Uncross & { imbalance: number; distance: number };

function better(a: Ranked, b: Ranked): boolean {
  if (a.volume !== b.volume) return a.volume > b.volume;
  if (a.imbalance !== b.imbalance) return a.imbalance < b.imbalance;
  if (a.distance !== b.distance) return a.distance < b.distance;
  return a.price > b.price;
}

function sum(orders: AuctionOrder[], counted: (order: AuctionOrder) => boolean): number {
  let total = 0;
  for (const order of orders) if (counted(order)) total += order.quantity;
  return total;
}

/** A user's order in an auction, with its place in the random priority among orders of one price, in [0, 1). */
export interface RankedOrder {
  order: AuctionOrder;
  position: number;
}

/**
 * What each user order gets of an uncross of `batch` (the market's orders and the users'): a buy above the price
 * (a sell below it) fills whole; at the price, the side's remainder goes in random priority (as TWSE ranks the
 * orders of one price in the day's first odd-lot match): the market's orders at the price spread evenly over the
 * line, the users' orders at their positions. Never more than the auction's volume in all.
 */
export function allot(users: RankedOrder[], batch: AuctionOrder[], at: Uncross): number[] {
  return users.map(({ order, position }, i) => {
    const buy = order.side === 'Buy';
    if (buy ? order.price > at.price : order.price < at.price) return order.quantity;
    if (order.price !== at.price) return 0;
    const sameSide = batch.filter((o) => o.side === order.side);
    const better = sum(sameSide, (o) => (buy ? o.price > at.price : o.price < at.price));
    const rivals = users.filter((u) => u.order.side === order.side && u.order.price === at.price);
    const marketAtPrice = sum(sameSide, (o) => o.price === at.price) - rivals.reduce((n, u) => n + u.order.quantity, 0);
    const before = (u: RankedOrder, j: number) => u.position < position || (u.position === position && j < i);
    const usersAhead = users.reduce((n, u, j) => (rivals.includes(u) && before(u, j) ? n + u.order.quantity : n), 0);
    const ahead = Math.floor(position * marketAtPrice) + usersAhead;
    return Math.max(0, Math.min(order.quantity, at.volume - better - ahead));
  });
}

/** Ticks either side of the uncross the market's own crossing orders spread over. */
const CROSSING_LEVELS = 4;
/** Levels of the market's resting (non-crossing) orders on each side beyond the uncross. */
const RESTING_LEVELS = 10;

/**
 * The market's own orders of an auction that printed `volume` at `price`: crossing buys and sells of `volume` each
 * spread over a few ticks through the price (some at it on both sides, so it alone maximises the volume), and
 * resting orders of about `depth` a level beyond it, which a large order of a user eats into as it moves the price.
 */
export function marketAuctionOrders(
  at: Uncross,
  depth: number,
  rules: PriceRules,
  key: (string | number)[],
): AuctionOrder[] {
  const orders: AuctionOrder[] = [];
  for (const [side, direction] of [
    ['Buy', 1],
    ['Sell', -1],
  ] as const) {
    const weights = Array.from({ length: CROSSING_LEVELS }, (_, level) => 0.5 + unitOf(...key, side, 'cross', level));
    const total = weights.reduce((a, b) => a + b, 0);
    const quantities = weights.map((weight) => Math.floor((at.volume * weight) / total));
    // The rounding remainder is at the price itself, so both sides always have some there.
    quantities[0] = at.volume - quantities.slice(1).reduce((a, b) => a + b, 0);
    quantities.forEach((quantity, level) => {
      const price = clampToLimits(stepTicks(rules.ticks, at.price, direction * level), rules);
      if (quantity > 0) orders.push({ side, price, quantity });
    });
    for (let level = 1; level <= RESTING_LEVELS; level++) {
      const price = stepTicks(rules.ticks, at.price, -direction * level);
      if (price > rules.limitUp || price < rules.limitDown || price <= 0) break;
      const quantity = Math.max(1, Math.round(depth * (0.6 + 0.5 * level) * (0.5 + unitOf(...key, side, level))));
      orders.push({ side, price, quantity });
    }
  }
  return orders;
}

const clampToLimits = (price: number, rules: PriceRules) => Math.min(rules.limitUp, Math.max(rules.limitDown, price));

/** How much of a stock's day each of its auctions trades (volume shares; docs/matching.md "Call auctions"). */
export interface AuctionShares {
  opening: number;
  closing: number;
  /** The 14:30 fixed-price match, on top of the day's volume. */
  fixedPrice: number;
}

/**
 * Shares of a stock's day volume, drawn per stock and day: the opening auction about 3% (1-8%), the closing
 * auction a level of 4.5-6.5% for a stock and 8-10% for an index heavyweight times a day's log-normal factor
 * (1-25%), and the fixed-price match a fraction of a percent. Estimates; see docs/matching.md "Call auctions".
 */
export function stockAuctionShares(seed: number, info: StockInfo, day: string): AuctionShares {
  const heavyweight = info.etf_constituent ? 1 : 0;
  const stockLevel = 0.045 + 0.035 * heavyweight + 0.02 * unitOf(seed, 'closing-level', info.code);
  const closing = clamp(stockLevel * Math.exp(0.45 * normalOf(seed, 'closing-share', info.code, day)), 0.01, 0.25);
  const opening = clamp(0.03 * Math.exp(0.45 * normalOf(seed, 'opening-share', info.code, day)), 0.01, 0.08);
  const fixedPrice = clamp(0.003 * Math.exp(0.9 * normalOf(seed, 'fixed-share', info.code, day)), 0, 0.03);
  return { opening, closing, fixedPrice };
}

/** The opening auction of a futures or options session: about 1.5% of the day at 08:45, 0.5% at 15:00 (estimates). */
export function futuresOpeningShare(seed: number, code: string, day: string, night: boolean): number {
  return clamp(
    (night ? 0.005 : 0.015) * Math.exp(0.4 * normalOf(seed, 'opening-share', code, day, night ? 1 : 0)),
    0,
    0.05,
  );
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/**
 * The periodic call auctions of a stock under disposition (處置股票), in epoch ms: the opening auction, then one
 * every `disposition_match_interval_min` minutes from 09:00, then the 13:30 closing auction. Exchange mode only.
 */
export function periodicAuctions(mode: ClockMode, info: StockInfo, day: string): number[] {
  const interval = info.disposition_match_interval_min;
  if (mode !== 'exchange' || !interval) return [];
  const open = taipeiInstant(day, '09:00');
  const close = taipeiInstant(day, '13:30');
  const instants = [openingPrintAt(open)];
  for (let t = open + interval * 60_000; t < close; t += interval * 60_000) instants.push(t);
  instants.push(close);
  return instants;
}

/** Makes trade k of a built tape a call auction's print: at its fair value on the grid, tick type 0 (undetermined). */
export function markCallAuction(tape: Tape, k: number, fair: number): void {
  const rules = tape.rules!;
  tape.prices[k] = clampToLimits(quoteAround(fair, rules).fairOnGrid, rules);
  tape.tickTypes[k] = 0;
}

/**
 * An opening auction prints this long after its session opens (the match follows the close of order collection),
 * so that it falls in the session's first right-labelled minute bar (09:01 holds 09:00 up to 09:01), as the
 * official bars have it.
 */
export const OPENING_MATCH_MS = 1;

/** The instant a session that opens at `startMs` prints its opening auction. */
export const openingPrintAt = (startMs: number) => startMs + OPENING_MATCH_MS;

/** Continuous trades stamped before their session's opening print move to its instant (they trade after it). */
export function afterOpenings(continuous: Float64Array, openingsMs: number[]): Float64Array {
  return continuous.map((us) => {
    for (const ms of openingsMs) if (us < ms * 1000 && us >= (ms - OPENING_MATCH_MS) * 1000) return ms * 1000;
    return us;
  });
}

/** Where call-auction prints go among sorted continuous trade times: each before the trades of its own instant. */
export function withAuctions(continuous: Float64Array, auctionsMs: number[]): { times: Float64Array; at: number[] } {
  const times = new Float64Array(continuous.length + auctionsMs.length);
  const at: number[] = [];
  let from = 0;
  auctionsMs.forEach((ms, i) => {
    let upTo = from;
    while (upTo < continuous.length && continuous[upTo]! < ms * 1000) upTo++;
    times.set(continuous.subarray(from, upTo), from + i);
    at.push(upTo + i);
    times[upTo + i] = ms * 1000;
    from = upTo;
  });
  times.set(continuous.subarray(from), from + auctionsMs.length);
  return { times, at };
}
