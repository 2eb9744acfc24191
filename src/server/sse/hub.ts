// The fan-out of every SSE stream. Each event is serialized once and the same bytes go to every client that takes
// its family. Every message has an id `<order seq>-<hub seq>`: the journal sequence of the newest order event sent so
// far and the hub's own sequence. A client that reconnects with Last-Event-ID gets what it missed: order events from
// the journal (never lost), market data from a bounded ring (`<family>_gap` says how many fell out of it). What the
// clients leave unread is bounded per client (maxBufferedBytes) and for all of them together (budget.ts).

import type { FastifyReply } from 'fastify';
import { DomainError } from '../../domain/errors.js';
import {
  type BudgetLimits,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_QUEUED_BYTES,
  RETRY_AFTER_SECONDS,
  StreamBudget,
} from './budget.js';
import { type ConnectionOptions, SseConnection } from './connection.js';
import type { DedicatedStream, StreamFamily, StreamName } from './families.js';
import { familiesOf, STREAM_NAMES } from './families.js';
import { Fanout, type LiveClient } from './fanout.js';
import { type Frame, FrameRing, type RingLimits } from './frame-ring.js';
import { Replay, type ReplaySource } from './replay.js';
import { ReplayScheduler } from './replay-scheduler.js';

export interface EventCursor {
  orderSeq: number;
  seq: number;
}

export interface JournaledEvent {
  seq: number;
  /** `broker_id-account_id`: reports are delivered only for accounts with subscribe_trade. */
  accountKey: string;
  event: unknown;
}

export interface HubOptions {
  /** Order events after a journal sequence, oldest first, at most `limit`. */
  orderEventsAfter: (seq: number, limit: number) => JournaledEvent[];
  /** Whether reports of an account are delivered (subscribe_trade). */
  delivers: (accountKey: string) => boolean;
  /** The journal sequence of the newest order event when the hub starts. */
  lastOrderSeq: number;
  ring?: RingLimits | undefined;
  /** Bytes one client may leave unread before it is dropped. */
  maxBufferedBytes?: number | undefined;
  /** Bytes all clients together may leave unread (see budget.ts for what happens beyond). */
  maxQueuedBytes?: number | undefined;
  /** Clients on all streams together; beyond, a new one is refused with 503. */
  maxConnections?: number | undefined;
  heartbeatMs?: number | undefined;
  /** Epoch ms of the start: the hub's sequence starts at 1000× it, above every id of an earlier run. */
  startedAt?: number | undefined;
}

/** What the hub knows of an open connection besides its counters. */
export interface StreamConnectionInfo {
  stream: StreamName;
  /** Epoch ms it opened. */
  openedAt: number;
  /** Its X-Shioaji-Activity header (`dashboard` for the dashboard's own stream). */
  activity: string | null;
}

export interface HubObserver {
  opened(connection: SseConnection, info: StreamConnectionInfo): void;
  closed(connection: SseConnection, info: StreamConnectionInfo): void;
  /** Every event published, with its size and the clients it was written to (at the end of its turn); set only while wanted. */
  published?: ((family: StreamFamily, data: unknown, bytes: number, deliveries: number) => void) | undefined;
}

export const DEFAULT_RING: RingLimits = { maxFrames: 50_000, maxBytes: 32 * 1024 * 1024 };
export const DEFAULT_CLIENT_BUFFER_BYTES = 1024 * 1024;
const MAX_EVENT_ID_LENGTH = 40;

/** Parses a Last-Event-ID this gateway sent; UNKNOWN_EVENT_ID for anything else, so a client bug shows instead of a silent gap. */
export function parseEventId(value: string | undefined): EventCursor | null {
  if (value === undefined || value === '') return null;
  const match = value.length <= MAX_EVENT_ID_LENGTH ? /^(\d{1,15})-(\d{1,17})$/.exec(value) : null;
  if (!match) {
    throw new DomainError(
      'UNKNOWN_EVENT_ID',
      `Last-Event-ID '${value.slice(0, MAX_EVENT_ID_LENGTH)}' is not an id of this gateway's streams ` +
        "(they look like '<order seq>-<seq>', e.g. '12-1763800000000042'); reconnect without it to start from now",
    );
  }
  return { orderSeq: Number(match[1]), seq: Number(match[2]) };
}

export class StreamHub {
  private seq: number;
  private readonly firstSeq: number;
  private orderSeq: number;
  private readonly ring: FrameRing;
  private readonly fanout = new Fanout(() => this.observer?.published);
  private readonly attached = new Map<StreamName, number>(STREAM_NAMES.map((name) => [name, 0]));
  private readonly connectionOptions: ConnectionOptions;
  private readonly budget: StreamBudget;
  private readonly replaySource: ReplaySource;
  private readonly replays: ReplayScheduler;
  droppedClients = 0;
  /** Told of every connection opened and closed, and of every event published (the monitor's stream rows). */
  observer: HubObserver | null = null;

  constructor(private readonly options: HubOptions) {
    this.firstSeq = Math.floor(options.startedAt ?? Date.now()) * 1000;
    this.seq = this.firstSeq;
    this.orderSeq = options.lastOrderSeq;
    this.ring = new FrameRing(options.ring ?? DEFAULT_RING);
    const limits: BudgetLimits = {
      maxQueuedBytes: options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES,
      maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    };
    this.budget = new StreamBudget(limits);
    this.replays = new ReplayScheduler(this.budget);
    this.connectionOptions = {
      maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_CLIENT_BUFFER_BYTES,
      heartbeatId: () => this.currentId(),
      heartbeatMs: options.heartbeatMs,
      squeezed: () => this.budget.spent,
    };
    this.replaySource = {
      ring: this.ring,
      firstSeq: this.firstSeq,
      newest: () => ({ orderSeq: this.orderSeq, seq: this.seq }),
      orderEventsAfter: options.orderEventsAfter,
      delivers: options.delivers,
    };
  }

  /** The id of the newest message: resuming from it misses nothing. */
  currentId(): string {
    return `${this.orderSeq}-${this.seq}`;
  }

  /** Publishes an order or deal report journaled under `seq`, if its account has subscribe_trade. */
  publishOrderEvent({ seq, accountKey, event }: JournaledEvent): void {
    if (this.options.delivers(accountKey)) this.publish('order_event', event, seq);
    else this.orderSeq = seq;
  }

  /**
   * Publishes one event to every client of its family; an order event passes its journal sequence. The event is
   * serialized here, once; the clients get it at the end of the turn, with whatever else the turn published.
   */
  publish(family: StreamFamily, data: unknown, orderSeq?: number): void {
    this.seq++;
    if (orderSeq !== undefined) this.orderSeq = orderSeq;
    const bytes = unpooled(`id: ${this.currentId()}\nevent: ${family}\ndata: ${JSON.stringify(data)}\n\n`);
    const frame: Frame = { seq: this.seq, orderSeq: this.orderSeq, family, bytes };
    this.ring.push(frame);
    this.fanout.push({ frame, data, orderSeq });
  }

  /**
   * Opens a stream on a reply: replays what the client missed after `cursor` (paced by the client, see replay.ts),
   * then delivers live. `accept` narrows what the client gets (the aggregate stream's contract_event filters).
   */
  attach(
    reply: FastifyReply,
    stream: 'data' | DedicatedStream,
    cursor: EventCursor | null,
    accept?: (family: StreamFamily, data: unknown) => boolean,
  ): SseConnection {
    let replay: Replay | null = null;
    const connection = this.open(reply, stream, () => replay?.currentId() ?? this.currentId());
    const client: LiveClient = {
      connection,
      families: familiesOf(stream),
      lastOrderSeq: this.orderSeq,
      liveAfterSeq: this.seq,
      accept,
    };
    const goLive = (lastOrderSeq: number) => {
      replay = null;
      client.lastOrderSeq = lastOrderSeq;
      client.liveAfterSeq = this.seq;
      this.fanout.add(client);
    };
    connection.onClose(() => this.fanout.remove(client));
    if (cursor) {
      replay = new Replay(this.replaySource, client, cursor, goLive);
      this.replays.start(replay);
    } else {
      goLive(this.orderSeq);
    }
    return connection;
  }

  /**
   * A connection counted in the status but fed by its route, not by the hub (contract_event keeps its own ids).
   * Throws StreamsBusyError (503, with Retry-After) beyond the streams' connection cap or memory budget.
   */
  open(reply: FastifyReply, stream: StreamName, heartbeatId?: () => string | null): SseConnection {
    try {
      this.budget.admit();
    } catch (error) {
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      throw error;
    }
    const connection = new SseConnection(reply, this.connectionOptions, heartbeatId);
    this.budget.add(connection);
    this.attached.set(stream, (this.attached.get(stream) ?? 0) + 1);
    const activity = reply.request.headers['x-shioaji-activity'];
    const info: StreamConnectionInfo = {
      stream,
      openedAt: Date.now(),
      activity: typeof activity === 'string' ? activity : null,
    };
    this.observer?.opened(connection, info);
    connection.onClose(() => {
      this.attached.set(stream, (this.attached.get(stream) ?? 1) - 1);
      if (connection.dropped) this.droppedClients++;
      this.observer?.closed(connection, info);
    });
    return connection;
  }

  status() {
    const streams = Object.fromEntries(this.attached) as Record<StreamName, number>;
    return {
      active_connections: Object.values(streams).reduce((sum, count) => sum + count, 0),
      streams,
      dropped_clients: this.droppedClients,
      refused_clients: this.budget.refusedClients,
      queued_bytes: this.budget.queuedBytes(true),
      replays: { running: this.replays.running, waiting: this.replays.waiting, held_back: this.replays.heldBack },
      replay_buffer: { events: this.ring.size, bytes: this.ring.byteSize },
    };
  }
}

/**
 * The text's UTF-8 bytes in memory of their own. Buffer.from puts a short text in a slice of a shared 8 KB pool, and
 * a slice keeps its whole pool alive: the ring's frames, each kept long after the garbage made beside it, held some
 * 8 KB each instead of their few hundred bytes (110 MB for 31,000 frames in the churn bench).
 */
function unpooled(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}
