// The tapes built last, by key (code and day, with the kind of tape): building one is the costly part of the market.
// The cache is bounded by the trades it holds (a tape's memory grows with its trades), not by how many tapes: with
// the whole listing live, a few busy tapes weigh more than thousands of quiet ones.

import type { Tape } from './tape.js';

/** What one tape costs beyond its trades (objects and array headers), counted in trades. */
const TAPE_OVERHEAD_TRADES = 16;

const weightOf = (tape: Tape) => tape.times.length + TAPE_OVERHEAD_TRADES;

export class TapeCache {
  /** Tapes by key, most recently used last; the oldest go when the cache is over its budget. */
  private readonly tapes = new Map<string, Tape>();
  private held = 0;

  /** @param budget the most trades kept, summed over the tapes (the tape just built is always kept). */
  constructor(private readonly budget: number) {}

  get(key: string, build: () => Tape): Tape {
    let tape = this.tapes.get(key);
    if (tape) {
      this.tapes.delete(key);
    } else {
      tape = build();
      this.held += weightOf(tape);
      while (this.held > this.budget && this.tapes.size > 0) {
        const [oldestKey, oldest] = this.tapes.entries().next().value!;
        this.tapes.delete(oldestKey);
        this.held -= weightOf(oldest);
      }
    }
    this.tapes.set(key, tape);
    return tape;
  }

  /** Trades held, over all tapes kept (for the metrics and tests). */
  get trades(): number {
    return this.held;
  }

  get size(): number {
    return this.tapes.size;
  }
}
