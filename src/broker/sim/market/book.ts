// The five-level book of an instrument at any moment of its tape. The best bid and ask are the ones the last trade
// met (so the book and the trades agree); deeper levels step one tick at a time away from them, never past the
// day's limits, with depth that grows with distance. A locked book keeps its empty side empty.

import { stepTicks } from '../../../domain/ticks.js';
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
export function bookAt(tape: Tape, count: number, reference: number): Book {
  const rules = tape.rules;
  if (!rules) return { bid: emptySide(), ask: emptySide() };
  const salt = hashCode(tape.code);
  if (count === 0) {
    const quote = quoteAround(reference, rules);
    const typical = 1 + Math.round(typicalVolume(tape) * 2);
    return {
      bid: side(rules, quote.bid, quote.bid === 0 ? 0 : typical, -1, salt, 0),
      ask: side(rules, quote.ask, quote.ask === 0 ? 0 : typical, 1, salt, 0),
    };
  }
  const k = count - 1;
  return {
    bid: side(rules, tape.bidPrices[k]!, tape.bidVolumes[k]!, -1, salt, count),
    ask: side(rules, tape.askPrices[k]!, tape.askVolumes[k]!, 1, salt, count),
  };
}

/** One side: the best level as given, then a tick further away per level (down for bids, up for asks). */
function side(rules: PriceRules, best: number, bestVolume: number, direction: 1 | -1, salt: number, at: number) {
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
        : Math.max(1, Math.round(bestVolume * (0.6 + 0.5 * level) * (0.5 + unit(salt, at, level))));
    const next = stepTicks(rules.ticks, price, direction);
    if (next === price) break;
    price = next;
  }
  return result;
}

const emptySide = (): BookSide => ({ prices: new Array(BOOK_LEVELS).fill(0), volumes: new Array(BOOK_LEVELS).fill(0) });

function typicalVolume(tape: Tape): number {
  const n = Math.min(tape.volumes.length, 50);
  let sum = 0;
  for (let k = 0; k < n; k++) sum += tape.volumes[k]!;
  return n === 0 ? 1 : sum / n;
}

function hashCode(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A uniform number in [0, 1) fixed by (instrument, moment, level): the depth is the same every time it is asked. */
function unit(salt: number, at: number, level: number): number {
  let h = Math.imul(salt ^ Math.imul(at + 1, 0x9e3779b1), 0x85ebca6b) ^ Math.imul(level + 1, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h >>> 0) / 4294967296;
}
