// The tapes built last, by key (code and day, with the kind of tape): building one is the costly part of the market.
// The cache is bounded by count and by bytes, since a busy name's day is far larger than a quiet one's. A tape it
// evicts may still be held elsewhere (a scanner or feed reading it trade by trade): asked for again, that same tape is
// given back rather than a second copy built beside it.

import type { Tape } from './tape.js';

/** The instants (epoch ms) that partial tapes cover: a tape not in it is a whole day's. */
const horizons = new WeakMap<Tape, number>();

/** The last instant (epoch ms) whose trades a tape holds all of: a whole day's tape holds them all. */
export const horizonOf = (tape: Tape): number => horizons.get(tape) ?? Number.POSITIVE_INFINITY;

/** Marks a tape as the trades of its day up to an instant only (epoch ms). */
export function markPartial(tape: Tape, untilMs: number): Tape {
  horizons.set(tape, untilMs);
  return tape;
}

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
  /** Tapes evicted, until the garbage collector takes them. */
  private readonly evicted = new Map<string, WeakRef<Tape>>();
  private readonly collected = new FinalizationRegistry<string>((key) => {
    if (this.evicted.get(key)?.deref() === undefined) this.evicted.delete(key);
  });

  constructor(
    private readonly capacity: number,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  /** Bytes of the tapes kept (a tape held elsewhere after its eviction is not counted). */
  get keptBytes(): number {
    return this.bytes;
  }

  /** The tape kept under a key, if any, without counting it as used. */
  peek(key: string): Tape | undefined {
    return this.tapes.get(key)?.tape ?? this.evicted.get(key)?.deref();
  }

  get(key: string, build: () => Tape): Tape {
    let entry = this.tapes.get(key);
    if (entry) {
      this.tapes.delete(key);
    } else {
      const revived = this.evicted.get(key)?.deref();
      // A tape taken back is no longer watched for collection: a hot tape evicted and taken back again and again
      // would otherwise leave one registration behind each time, for as long as it lives.
      if (revived) this.collected.unregister(revived);
      const tape = revived ?? build();
      this.evicted.delete(key);
      entry = { tape, bytes: tapeBytes(tape) };
      this.bytes += entry.bytes;
      while (this.tapes.size > 0 && (this.tapes.size >= this.capacity || this.bytes > this.maxBytes))
        this.evictOldest();
    }
    this.tapes.set(key, entry);
    return entry.tape;
  }

  /** The tape kept under a key if it holds every trade up to an instant (epoch ms), counted as used. */
  covering(key: string, epochMs: number): Tape | undefined {
    const kept = this.peek(key);
    return kept && horizonOf(kept) >= epochMs ? this.get(key, () => kept) : undefined;
  }

  /** Keeps a tape under a key in place of the one kept there (a partial tape extended, or made whole). */
  put(key: string, tape: Tape): Tape {
    const entry = this.tapes.get(key);
    if (entry) {
      this.tapes.delete(key);
      this.bytes -= entry.bytes;
    }
    this.evicted.delete(key);
    return this.get(key, () => tape);
  }

  private evictOldest(): void {
    const [key, entry] = this.tapes.entries().next().value!;
    this.tapes.delete(key);
    this.bytes -= entry.bytes;
    this.evicted.set(key, new WeakRef(entry.tape));
    this.collected.register(entry.tape, key, entry.tape);
  }
}
