// The live clients of the hub and the writes to them, batched per turn of the event loop: the frames published in one
// turn (a feed step publishes every trade since the last at once) are joined and each client gets one write. Clients
// that take the same frames share the joined bytes, so a turn costs one Buffer.concat per kind of stream and one
// write per client, however many events it published.

import type { SseConnection } from './connection.js';
import type { StreamFamily } from './families.js';
import type { Frame } from './frame-ring.js';

export interface LiveClient {
  connection: SseConnection;
  families: ReadonlySet<StreamFamily>;
  /** Order events at or below this journal sequence were sent already (by replay); live copies are skipped. */
  lastOrderSeq: number;
  /** Frames at or below this hub sequence were published before the client went live (a replay sent them). */
  liveAfterSeq: number;
  accept: ((family: StreamFamily, data: unknown) => boolean) | undefined;
}

export interface PendingFrame {
  frame: Frame;
  data: unknown;
  /** Set for an order event: its journal sequence. */
  orderSeq: number | undefined;
}

/** Told of each frame written, with the clients it went to (the monitor's stream rows). */
export type FanoutObserver = (family: StreamFamily, data: unknown, bytes: number, deliveries: number) => void;

/**
 * Beyond this many bytes waiting, a turn's frames are written at once: what one write adds to a client's buffer stays
 * small, so its cap (checked before each write) still bounds what a client that stops reading holds.
 */
export const MAX_BATCH_BYTES = 64 * 1024;

export class Fanout {
  private readonly clientsByFamily = new Map<StreamFamily, Set<LiveClient>>();
  private pending: PendingFrame[] = [];
  private pendingBytes = 0;
  private flushQueued = false;

  constructor(private readonly observer: () => FanoutObserver | undefined) {}

  add(client: LiveClient): void {
    for (const family of client.families) this.clientsOf(family).add(client);
  }

  remove(client: LiveClient): void {
    for (const family of client.families) this.clientsOf(family).delete(client);
  }

  /** Queues a frame for the clients of its family; they get it at the end of this turn. */
  push(pending: PendingFrame): void {
    this.pending.push(pending);
    this.pendingBytes += pending.frame.bytes.length;
    if (this.pendingBytes > MAX_BATCH_BYTES) this.flush();
    else if (!this.flushQueued) {
      this.flushQueued = true;
      setImmediate(this.flush);
    }
  }

  /** Writes every queued frame to the clients that take it, one write per client. */
  readonly flush = (): void => {
    this.flushQueued = false;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.pendingBytes = 0;
    const observer = this.observer();
    const deliveries = observer ? new Array<number>(batch.length).fill(0) : null;
    const shared = new Map<ReadonlySet<StreamFamily>, Taken>();
    for (const client of this.clientsIn(batch)) {
      const taken = takesAll(client, batch)
        ? sharedTaken(shared, client.families, batch)
        : framesFor(batch, (frame) => takes(client, frame));
      if (taken.count === 0) continue;
      client.connection.write(taken.bytes, taken.count);
      if (deliveries) for (const index of taken.indices) deliveries[index]!++;
    }
    if (!observer || !deliveries) return;
    for (const [i, { frame, data }] of batch.entries())
      observer(frame.family, data, frame.bytes.length, deliveries[i]!);
  };

  /** Each client of a family in the batch, once. */
  private clientsIn(batch: PendingFrame[]): Set<LiveClient> {
    const families = new Set(batch.map(({ frame }) => frame.family));
    if (families.size === 1) return this.clientsOf(batch[0]!.frame.family);
    const clients = new Set<LiveClient>();
    for (const family of families) for (const client of this.clientsOf(family)) clients.add(client);
    return clients;
  }

  private clientsOf(family: StreamFamily): Set<LiveClient> {
    const clients = this.clientsByFamily.get(family) ?? new Set();
    this.clientsByFamily.set(family, clients);
    return clients;
  }
}

/** What one client is written of a batch: the joined bytes, how many messages, and which of the batch's frames. */
interface Taken {
  bytes: Buffer;
  count: number;
  indices: number[];
}

/** Whether the client takes every frame of its families in the batch, as every other client of the same stream. */
function takesAll(client: LiveClient, batch: PendingFrame[]): boolean {
  if (client.accept) return false;
  const first = batch[0]!;
  if (first.frame.seq <= client.liveAfterSeq) return false;
  return !batch.some(({ orderSeq }) => orderSeq !== undefined && orderSeq <= client.lastOrderSeq);
}

function takes(client: LiveClient, { frame, data, orderSeq }: PendingFrame): boolean {
  if (!client.families.has(frame.family) || frame.seq <= client.liveAfterSeq) return false;
  if (orderSeq !== undefined && orderSeq <= client.lastOrderSeq) return false;
  return !client.accept || client.accept(frame.family, data);
}

function sharedTaken(
  shared: Map<ReadonlySet<StreamFamily>, Taken>,
  families: ReadonlySet<StreamFamily>,
  batch: PendingFrame[],
) {
  let taken = shared.get(families);
  if (!taken) {
    taken = framesFor(batch, ({ frame }) => families.has(frame.family));
    shared.set(families, taken);
  }
  return taken;
}

function framesFor(batch: PendingFrame[], wanted: (pending: PendingFrame) => boolean): Taken {
  const indices: number[] = [];
  batch.forEach((pending, i) => {
    if (wanted(pending)) indices.push(i);
  });
  const bytes =
    indices.length === 1 ? batch[indices[0]!]!.frame.bytes : Buffer.concat(indices.map((i) => batch[i]!.frame.bytes));
  return { bytes, count: indices.length, indices };
}
