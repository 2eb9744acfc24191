// How a user's order meets the simulated market (docs/matching.md tells it in words). The market's own tape is not
// moved by user orders, but the book they meet remembers them: a marketable order walks the book level by level, past
// the displayed five into the latent depth beyond, less what the user's earlier orders took and has not come back; a
// resting order waits behind the depth that was at its price when it arrived and fills only from trades of the tape.

import type { PriceFacts } from '../../../domain/order-rules.js';
import type { Action } from '../../../domain/orders.js';
import { roundDownToTick, roundUpToTick, stepTicks, tickAt } from '../../../domain/ticks.js';
import { BOOK_LEVELS, type BookSide } from '../market/book.js';
import { type DepthModel, latentLevelDepth } from './depth-model.js';

export interface Fill {
  price: number;
  quantity: number;
}

/**
 * The levels an order may walk on one side, best first: the displayed ones, then (with a depth model) the latent ones,
 * a tick further each, up to the day's price limit. Each shows what is left after the user's own orders took from it
 * (`taken`); a level with nothing left is skipped.
 */
export function* ladder(
  side: BookSide,
  direction: 1 | -1,
  model: DepthModel | null,
  taken: (price: number) => number,
): Generator<Fill> {
  const best = side.prices[0] ?? 0;
  if (best === 0) return;
  let price = best;
  for (let level = 0; level < side.prices.length; level++) {
    // An empty level (price 0) ends the side; a combo's net prices may be below zero.
    if (side.prices[level] === 0) break;
    price = side.prices[level]!;
    const left = Math.round(side.volumes[level]! - taken(price));
    if (left > 0) yield { price, quantity: left };
  }
  if (!model) return;
  const { ticks, limitUp, limitDown } = model.rules;
  for (;;) {
    const next = stepTicks(ticks, price, direction);
    if (next === price || next > limitUp || next < limitDown || next <= 0) return;
    const left = Math.round(latentLevelDepth(model, best, price, next) - taken(next));
    price = next;
    if (left > 0) yield { price, quantity: left };
  }
}

/** The first levels of a ladder as a book side: what an order sees of the book now. */
export function topOf(levels: Iterable<Fill>, count = BOOK_LEVELS): BookSide {
  const side: BookSide = { prices: new Array(count).fill(0), volumes: new Array(count).fill(0) };
  let level = 0;
  for (const { price, quantity } of levels) {
    if (level === count) break;
    side.prices[level] = price;
    side.volumes[level] = quantity;
    level++;
  }
  return side;
}

/** The levels an order may take, in order: those at or below a buy's limit, at or above a sell's. */
function* reachable(levels: Iterable<Fill>, action: Action, limit: number | null): Generator<Fill> {
  for (const level of levels) {
    if (limit !== null && (action === 'Buy' ? level.price > limit : level.price < limit)) return;
    yield level;
  }
}

/** Takes depth level by level up to `quantity`: one fill per level touched. `limit` null takes any price (MKT). */
export function takeDepth(levels: Iterable<Fill>, action: Action, limit: number | null, quantity: number): Fill[] {
  const fills: Fill[] = [];
  let left = quantity;
  for (const level of reachable(levels, action, limit)) {
    if (left === 0) break;
    const taken = Math.min(left, level.quantity);
    fills.push({ price: level.price, quantity: taken });
    left -= taken;
  }
  return fills;
}

/** How far from the best opposite price an MKP order may trade, as a fraction of the reference price. */
export const MKP_RANGE_FRACTION = 0.01;

/**
 * TAIFEX's range-market order (MWP, Shioaji MKP) becomes a limit order at the best opposite price plus (buy) or
 * minus (sell) the protective range, on the tick grid and within the day's limits. Null when the opposite side is
 * empty: there is no price to protect.
 */
export function protectedLimit(
  opposite: BookSide,
  action: Action,
  rules: PriceFacts,
  reference: number,
): number | null {
  const best = opposite.prices[0] ?? 0;
  if (best === 0) return null;
  const range = Math.max(tickAt(rules.ticks, best), reference * MKP_RANGE_FRACTION);
  const limit =
    action === 'Buy' ? roundDownToTick(rules.ticks, best + range) : roundUpToTick(rules.ticks, best - range);
  return Math.min(rules.limitUp, Math.max(rules.limitDown, limit));
}

/** FOK: whether the reachable depth covers the whole quantity. */
export function depthCovers(levels: Iterable<Fill>, action: Action, limit: number | null, quantity: number): boolean {
  let sum = 0;
  for (const level of reachable(levels, action, limit)) {
    sum += level.quantity;
    if (sum >= quantity) return true;
  }
  return false;
}

/**
 * What a marketable order takes on arrival: the reachable depth, or nothing for a FOK it cannot fill whole. `levels`
 * makes the opposite side's ladder afresh (a FOK reads it twice).
 */
export function takeOnArrival(
  levels: () => Iterable<Fill>,
  action: Action,
  limit: number | null,
  quantity: number,
  orderType: 'ROD' | 'IOC' | 'FOK',
): Fill[] {
  if (orderType === 'FOK' && !depthCovers(levels(), action, limit, quantity)) return [];
  return takeDepth(levels(), action, limit, quantity);
}

/** The volume at a price on the order's own side: what is ahead of a new resting order there. */
export function displayedAt(ownLevels: Iterable<Fill>, action: Action, price: number): number {
  for (const level of ownLevels) {
    if (level.price === price) return level.quantity;
    if (action === 'Buy' ? level.price < price : level.price > price) return 0;
  }
  return 0;
}

export interface RestingOrder {
  action: Action;
  price: number;
  remaining: number;
  /** Volume at the order's price that trades before it. */
  queueAhead: number;
}

export interface TapeTrade {
  price: number;
  volume: number;
  /** Auctions match every crossing order at the one auction price. */
  auction: boolean;
}

/**
 * A trade of the tape against a resting order. A trade through the order's price means the order, being better
 * placed, would have traded first: it fills up to the trade's volume at its own price. A trade at its price first
 * uses up the queue ahead. An auction fills crossing orders at the auction price.
 */
export function meetTrade(order: RestingOrder, trade: TapeTrade): { fill: Fill | null; queueAhead: number } {
  const better = order.action === 'Buy' ? trade.price < order.price : trade.price > order.price;
  const atPrice = trade.price === order.price;
  if (!better && !atPrice) return { fill: null, queueAhead: order.queueAhead };
  let volume = trade.volume;
  let queueAhead = order.queueAhead;
  if (atPrice && !trade.auction) {
    const used = Math.min(queueAhead, volume);
    queueAhead -= used;
    volume -= used;
  }
  const quantity = Math.min(order.remaining, volume);
  if (quantity <= 0) return { fill: null, queueAhead };
  return { fill: { price: trade.auction ? trade.price : order.price, quantity }, queueAhead };
}
