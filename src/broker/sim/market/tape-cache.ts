// The tapes built last, by key (code and day, with the kind of tape): building one is the costly part of the market.

import type { Tape } from './tape.js';

export class TapeCache {
  /** Tapes by key, most recently used last; the oldest go when the cache is full. */
  private readonly tapes = new Map<string, Tape>();

  constructor(private readonly capacity: number) {}

  get(key: string, build: () => Tape): Tape {
    let tape = this.tapes.get(key);
    if (tape) {
      this.tapes.delete(key);
    } else {
      tape = build();
      if (this.tapes.size >= this.capacity) this.tapes.delete(this.tapes.keys().next().value!);
    }
    this.tapes.set(key, tape);
    return tape;
  }
}
