// How a user's order meets the simulated market (docs/matching.md tells it in words). The market's own tape is not
// moved by user orders: a marketable order takes the displayed depth of the book, level by level; a resting order
// waits behind the depth that was at its price when it arrived and fills only from trades of the tape.

import type { PriceFacts } from '../../../domain/order-rules.js';
import type { Action } from '../../../domain/orders.js';
import { roundDownToTick, roundUpToTick, tickAt } from '../../../domain/ticks.js';
import type { BookSide } from '../market/book.js';

export interface Fill {
  price: number;
  quantity: number;
}

/** The opposite side's levels an order may take: asks for a buy at or below its limit, bids for a sell at or above. */
function reachable(levels: BookSide, action: Action, limit: number | null): Fill[] {
  const fills: Fill[] = [];
  levels.prices.forEach((price, level) => {
    const volume = levels.volumes[level]!;
    if (price === 0 || volume <= 0) return;
    if (limit !== null && (action === 'Buy' ? price > limit : price < limit)) return;
    fills.push({ price, quantity: volume });
  });
  return fills;
}

/** Takes depth level by level up to `quantity`: one fill per level touched. `limit` null takes any price (MKT). */
export function takeDepth(opposite: BookSide, action: Action, limit: number | null, quantity: number): Fill[] {
  const fills: Fill[] = [];
  let left = quantity;
  for (const level of reachable(opposite, action, limit)) {
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
export function depthCovers(opposite: BookSide, action: Action, limit: number | null, quantity: number): boolean {
  return reachable(opposite, action, limit).reduce((sum, level) => sum + level.quantity, 0) >= quantity;
}

/** What a marketable order takes on arrival: the reachable depth, or nothing for a FOK it cannot fill whole. */
export function takeOnArrival(
  opposite: BookSide,
  action: Action,
  limit: number | null,
  quantity: number,
  orderType: 'ROD' | 'IOC' | 'FOK',
): Fill[] {
  if (orderType === 'FOK' && !depthCovers(opposite, action, limit, quantity)) return [];
  return takeDepth(opposite, action, limit, quantity);
}

/** The volume displayed at a price on the order's own side: what is ahead of a new resting order there. */
export function displayedAt(ownSide: BookSide, price: number): number {
  const level = ownSide.prices.indexOf(price);
  return level < 0 ? 0 : ownSide.volumes[level]!;
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
