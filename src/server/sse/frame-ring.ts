// The last frames published, kept for clients that reconnect with Last-Event-ID. Bounded by count and bytes; what
// falls out is remembered by sequence number only, so a resuming client can be told how many of a family it missed.

import type { StreamFamily } from './families.js';

export interface Frame {
  /** The hub's sequence number: unique for this daemon's life and larger than any of an earlier life. */
  seq: number;
  /** The journal sequence of the newest order event published up to and including this frame. */
  orderSeq: number;
  family: StreamFamily;
  /** The whole SSE message, `id:` line first, serialized once for every client. */
  bytes: Buffer;
}

export interface RingLimits {
  maxFrames: number;
  maxBytes: number;
}

/** How many evicted sequence numbers each family remembers; older losses are counted as at least this many. */
const EVICTION_LOG_LIMIT = 100_000;

export class FrameRing {
  private readonly frames: Frame[] = [];
  private head = 0;
  private bytes = 0;
  private readonly evicted = new Map<StreamFamily, number[]>();
  private newestEvictedSeq = 0;

  constructor(private readonly limits: RingLimits) {}

  push(frame: Frame): void {
    this.frames.push(frame);
    this.bytes += frame.bytes.length;
    while (this.size > this.limits.maxFrames || (this.bytes > this.limits.maxBytes && this.size > 1))
      this.evictOldest();
    if (this.head > 1024 && this.head * 2 > this.frames.length) {
      this.frames.splice(0, this.head);
      this.head = 0;
    }
  }

  get size(): number {
    return this.frames.length - this.head;
  }

  get byteSize(): number {
    return this.bytes;
  }

  /** Whether every frame after `seq` is still here. */
  holdsEverythingAfter(seq: number): boolean {
    const oldest = this.frames[this.head];
    return oldest === undefined ? this.newestEvictedSeq <= seq : oldest.seq <= seq + 1;
  }

  /** The sequence of the newest frame evicted (0 before the first eviction). */
  get newestEvicted(): number {
    return this.newestEvictedSeq;
  }

  /** The frames after `seq`, oldest first, at most `limit` of them. */
  after(seq: number, limit = Number.POSITIVE_INFINITY): Frame[] {
    const first = firstAfter(seq, this.head, this.frames.length, (i) => this.frames[i]!.seq);
    return this.frames.slice(first, first + limit);
  }

  /** How many frames of a family after `seq` were evicted (a lower bound once the eviction log overflowed). */
  evictedAfter(family: StreamFamily, seq: number): number {
    const log = this.evicted.get(family);
    if (!log) return 0;
    return log.length - firstAfter(seq, 0, log.length, (i) => log[i]!);
  }

  private evictOldest(): void {
    const frame = this.frames[this.head]!;
    this.frames[this.head] = undefined as unknown as Frame;
    this.head++;
    this.bytes -= frame.bytes.length;
    this.newestEvictedSeq = frame.seq;
    const log = this.evicted.get(frame.family) ?? [];
    this.evicted.set(frame.family, log);
    log.push(frame.seq);
    if (log.length > EVICTION_LOG_LIMIT * 2) log.splice(0, EVICTION_LOG_LIMIT);
  }
}

/** The first index in [low, high) whose sequence, ascending, is above `seq` (high when none is). */
function firstAfter(seq: number, low: number, high: number, seqAt: (index: number) => number): number {
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (seqAt(mid) <= seq) low = mid + 1;
    else high = mid;
  }
  return low;
}
