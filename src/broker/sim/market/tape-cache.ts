// The tapes built last, by key (code and day, with the kind of tape): building one is the costly part of the market.
// The cache is bounded by count and by bytes, since a busy name's day is far larger than a quiet one's.

import type { Tape } from './tape.js';

/** Bytes of the arrays of a tape. */
export function tapeBytes(tape: Tape): number {
  let bytes = 0;
  for (const value of Object.values(tape)) if (ArrayBuffer.isView(value)) bytes += value.byteLength;
  return bytes;
}

export class TapeCache {
  /** Tapes by key, most recently used last; the oldest go when the cache is full. */
  private readonly tapes = new Map<string, { tape: Tape; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  /** The tape kept under a key, if any, without counting it as used. */
  peek(key: string): Tape | undefined {
    return this.tapes.get(key)?.tape;
  }

  get(key: string, build: () => Tape): Tape {
    let entry = this.tapes.get(key);
    if (entry) {
      this.tapes.delete(key);
    } else {
      const tape = build();
      entry = { tape, bytes: tapeBytes(tape) };
      this.bytes += entry.bytes;
      while (this.tapes.size > 0 && (this.tapes.size >= this.capacity || this.bytes > this.maxBytes))
        this.evictOldest();
    }
    this.tapes.set(key, entry);
    return entry.tape;
  }

  private evictOldest(): void {
    const [key, entry] = this.tapes.entries().next().value!;
    this.tapes.delete(key);
    this.bytes -= entry.bytes;
  }
}
