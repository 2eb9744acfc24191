// Catching one client up after a reconnect with Last-Event-ID, a page at a time (replay-scheduler.ts decides when):
// a page stops at the client's buffer cap, so a client that never reads holds about its cap, and is dropped when it
// stays over it, as a live client would be.
//
// Order events come from the journal (never lost), market data from the ring, which the hub keeps filling while the
// replay waits; once nothing is left to send, the client joins the live fan-out in the same turn, so nothing falls in
// between and nothing comes twice. Should the ring drop frames the client has not had while it waits, the order
// events among them come from the journal again and a `<family>_gap` says how many of each market family are lost.

import type { SseConnection } from './connection.js';
import { isMarketFamily, type StreamFamily } from './families.js';
import type { Frame, FrameRing } from './frame-ring.js';
import type { EventCursor, JournaledEvent } from './hub.js';

/** What a replay reads from the hub. */
export interface ReplaySource {
  ring: FrameRing;
  /** The hub's sequence before its first message of this run. */
  firstSeq: number;
  /** The newest message published: the order sequence and the hub's sequence. */
  newest(): EventCursor;
  orderEventsAfter(seq: number, limit: number): JournaledEvent[];
  delivers(accountKey: string): boolean;
}

export interface ReplayClient {
  connection: SseConnection;
  families: ReadonlySet<StreamFamily>;
  accept: ((family: StreamFamily, data: unknown) => boolean) | undefined;
}

/** Journal rows read at a time; a page stops early at the client's cap, and the rest is read again next time. */
const JOURNAL_PAGE = 250;
const RING_PAGE = 1000;

export class Replay {
  /** What the client has: every order event up to orderSeq, every market message up to seq. */
  private orderSeq: number;
  private seq: number;
  private fromRing: boolean;
  private earlierRun: boolean;

  constructor(
    private readonly source: ReplaySource,
    private readonly client: ReplayClient,
    cursor: EventCursor,
    /** Called with the order sequence the client has once it is up to date, in the turn that found it so. */
    private readonly goLive: (orderSeq: number) => void,
  ) {
    this.orderSeq = cursor.orderSeq;
    this.seq = cursor.seq;
    const newest = source.newest().seq;
    this.earlierRun = cursor.seq < source.firstSeq;
    this.fromRing = !this.earlierRun && cursor.seq <= newest && source.ring.holdsEverythingAfter(cursor.seq);
  }

  get connection(): SseConnection {
    return this.client.connection;
  }

  /** An id that resumes from where the replay is (for heartbeats sent meanwhile). */
  currentId(): string {
    return `${this.orderSeq}-${Math.min(this.seq, this.source.newest().seq)}`;
  }

  /** Sends one page; false when the replay is over (the client is live or gone). */
  step(): boolean {
    if (!this.connection.isOpen) return false;
    const upToDate = this.sendPage();
    if (!this.connection.isOpen) return false;
    if (upToDate) this.goLive(Math.max(this.orderSeq, this.source.newest().orderSeq));
    return !upToDate;
  }

  /** One page, up to the client's cap; true when nothing is left to send. */
  private sendPage(): boolean {
    if (this.fromRing && !this.source.ring.holdsEverythingAfter(this.seq)) this.fromRing = false;
    if (!this.fromRing) {
      if (this.client.families.has('order_event') && !this.sendJournalPage()) return false;
      this.sendGaps();
      this.fromRing = true;
    }
    return this.sendRingPage();
  }

  /** Order events after orderSeq up to the newest published; true once all are sent. */
  private sendJournalPage(): boolean {
    const { connection } = this.client;
    const newest = this.source.newest();
    const marketSeq = Math.min(this.seq, newest.seq);
    const page = this.source.orderEventsAfter(this.orderSeq, JOURNAL_PAGE);
    for (const { seq, accountKey, event } of page) {
      if (seq > newest.orderSeq) return true;
      if (connection.overCap) return false;
      if (this.source.delivers(accountKey) && !connection.send('order_event', event, `${seq}-${marketSeq}`)) {
        return false;
      }
      this.orderSeq = seq;
    }
    return page.length < JOURNAL_PAGE;
  }

  /** Says how many messages of each market family the ring lost after seq (null: unknown, from an earlier run). */
  private sendGaps(): void {
    const { ring } = this.source;
    const marketSeq = Math.min(this.seq, this.source.newest().seq);
    for (const family of this.client.families) {
      if (!isMarketFamily(family)) continue;
      const dropped = this.earlierRun ? null : ring.evictedAfter(family, this.seq);
      if (dropped === 0) continue;
      this.client.connection.send(`${family}_gap`, { type: 'lagged', dropped }, `${this.orderSeq}-${marketSeq}`);
    }
    // What is lost has been told; what the ring holds follows, with ids that never point back.
    this.seq = Math.max(this.seq, ring.newestEvicted, this.earlierRun ? this.source.firstSeq : 0);
    this.earlierRun = false;
  }

  /** Frames after seq from the ring; true once none is left. */
  private sendRingPage(): boolean {
    const { connection, families, accept } = this.client;
    const frames = this.source.ring.after(this.seq, RING_PAGE);
    for (const frame of frames) {
      if (connection.overCap) return false;
      const wanted =
        families.has(frame.family) &&
        !(frame.family === 'order_event' && frame.orderSeq <= this.orderSeq) &&
        (!accept || accept(frame.family, dataOf(frame)));
      if (wanted && !connection.write(this.withOrderSeq(frame))) return false;
      this.seq = frame.seq;
      this.orderSeq = Math.max(this.orderSeq, frame.orderSeq);
    }
    return frames.length < RING_PAGE;
  }

  /** The frame's bytes, with an id that does not claim fewer order events than the client already has. */
  private withOrderSeq(frame: Frame): Buffer {
    if (frame.orderSeq >= this.orderSeq) return frame.bytes;
    const id = Buffer.from(`id: ${this.orderSeq}-${frame.seq}\n`);
    return Buffer.concat([id, frame.bytes.subarray(frame.bytes.indexOf(10) + 1)]);
  }
}

/** The data of a stored frame, for filters applied on replay (rare: only filtered streams). */
function dataOf(frame: Frame): unknown {
  const text = frame.bytes.toString('utf8');
  const start = text.indexOf('\ndata: ') + '\ndata: '.length;
  return JSON.parse(text.slice(start, text.length - 2));
}
