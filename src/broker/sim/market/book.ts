// The five-level book of an instrument at any moment of its tape. The best bid and ask are the ones the last trade
// met (so the book and the trades agree); deeper levels step one tick at a time away from them, never past the
// day's limits, with depth that grows with distance: at least the latent depth of the square-root law when a depth
// model is given (exchange/depth-model.ts). A locked book keeps its empty side empty.

import { stepTicks } from '../../../domain/ticks.js';
import { type DepthModel, latentLevelDepth, openingBestDepth } from '../exchange/depth-model.js';
import { unitOf } from '../random.js';
import { type PriceRules, quoteAround, type Tape } from './tape.js';

export const BOOK_LEVELS = 5;

export interface BookSide {
  prices: number[];
  volumes: number[];
}

export interface Book {
  bid: BookSide;
  ask: BookSide;
}

/** The book after the first `count` trades of a tape; before any trade it sits around the reference price. */
export function bookAt(tape: Tape, count: number, reference: number, model: DepthModel | null = null): Book {
  const rules = tape.rules;
  if (!rules) return { bid: emptySide(), ask: emptySide() };
  if (count === 0) {
    const quote = quoteAround(reference, rules);
    const depth = model?.openingDepth ?? openingBestDepth(tape);
    return {
      bid: side(rules, quote.bid, quote.bid === 0 ? 0 : depth, -1, tape.code, 0, model),
      ask: side(rules, quote.ask, quote.ask === 0 ? 0 : depth, 1, tape.code, 0, model),
    };
  }
  const k = count - 1;
  return {
    bid: side(rules, tape.bidPrices[k]!, tape.bidVolumes[k]!, -1, tape.code, count, model),
    ask: side(rules, tape.askPrices[k]!, tape.askVolumes[k]!, 1, tape.code, count, model),
  };
}

/**
 * One side: the best level as given, then a tick further away per level (down for bids, up for asks). Deeper depth
 * is fixed by (instrument, moment, level), so the same moment always shows the same book.
 */
function side(
  rules: PriceRules,
  best: number,
  bestVolume: number,
  direction: 1 | -1,
  code: string,
  at: number,
  model: DepthModel | null,
) {
  const result = emptySide();
  if (best === 0) return result;
  let price = best;
  for (let level = 0; level < BOOK_LEVELS; level++) {
    const outside = price > rules.limitUp || price < rules.limitDown;
    // Only combos quote net prices at or below zero; their limits are open.
    if (outside || (price <= 0 && rules.limitDown >= 0)) break;
    result.prices[level] = price;
    result.volumes[level] =
      level === 0
        ? bestVolume
        : Math.max(
            1,
            Math.round(bestVolume * (0.6 + 0.5 * level) * (0.5 + unitOf('book', code, at, direction, level))),
            model ? latentLevelDepth(model, best, result.prices[level - 1]!, price) : 0,
          );
    const next = stepTicks(rules.ticks, price, direction);
    if (next === price) break;
    price = next;
  }
  return result;
}

const emptySide = (): BookSide => ({ prices: new Array(BOOK_LEVELS).fill(0), volumes: new Array(BOOK_LEVELS).fill(0) });
