// The physical side of the streams for the monitor: one row per open SSE connection (what it carries, how much it was
// sent), the last closed ones, and, while collection runs, one row per topic (event family and code) with the events
// published and delivered. Everything is bounded: MAX_TOPICS topics, CLOSED_KEPT closed connections.

import type { SseConnection } from '../sse/connection.js';
import type { StreamFamily } from '../sse/families.js';
import type { HubObserver, StreamConnectionInfo, StreamHub } from '../sse/hub.js';
import type { Origin } from './series.js';

export const MAX_TOPICS = 2_048;
export const CLOSED_KEPT = 256;
export const OTHER_TOPIC = '(other)';

export interface StreamRow {
  kind: 'connection' | 'topic';
  /** The connection's id, or the topic (`tick_stk/2330`). */
  id: string;
  /** The stream path's name (`data`, `tick_stk`, ...) of a connection; the event family of a topic. */
  stream: string;
  origin: Origin | null;
  open: boolean;
  since_ms: number;
  /** Epoch ms of the last message; null before the first. */
  last_message_ms: number | null;
  /** Messages sent to the connection, or events published on the topic. */
  messages: number;
  bytes: number;
  /** Copies of the topic's events written to clients (topics only). */
  deliveries: number | null;
  /** Messages per second since `since_ms`. */
  per_second: number;
  /** Bytes written to the connection but not yet taken by the client. */
  unread_bytes: number | null;
}

interface Topic {
  family: StreamFamily;
  messages: number;
  bytes: number;
  deliveries: number;
  first: number;
  last: number;
}

export const originOfActivity = (activity: string | null | undefined): Origin => {
  const value = activity?.trim().toLowerCase();
  return value === 'dashboard' ? 'dashboard' : value === 'background' ? 'background' : 'user';
};

export class StreamStats {
  private readonly open = new Map<SseConnection, StreamConnectionInfo>();
  private readonly observer: HubObserver;
  private readonly topics = new Map<string, Topic>();
  private readonly closed: StreamRow[] = [];
  /** Epoch ms per-topic collection started; null while it does not run. */
  since: number | null = null;

  constructor(
    private readonly hub: StreamHub,
    private readonly now: () => number,
  ) {
    this.observer = {
      opened: (connection, info) => this.open.set(connection, info),
      closed: (connection, info) => {
        this.open.delete(connection);
        this.closed.push(this.connectionRow(connection, info, false));
        if (this.closed.length > CLOSED_KEPT) this.closed.shift();
      },
    };
    hub.observer = this.observer;
  }

  get collecting(): boolean {
    return this.since !== null;
  }

  /** Starts or stops counting events per topic; stopping forgets the topics. */
  collect(on: boolean): void {
    if (on === this.collecting) return;
    if (on) {
      this.since = this.now();
      this.observer.published = (family, data, bytes, deliveries) => this.count(family, data, bytes, deliveries);
    } else {
      this.since = null;
      this.observer.published = undefined;
      this.topics.clear();
    }
  }

  close(): void {
    this.collect(false);
    if (this.hub.observer === this.observer) this.hub.observer = null;
  }

  /** Open connections, then topics; with history, closed connections too. */
  rows(history: boolean): StreamRow[] {
    const rows = [...this.open].map(([connection, info]) => this.connectionRow(connection, info, true));
    const now = this.now();
    for (const [id, topic] of this.topics) {
      rows.push({
        kind: 'topic',
        id,
        stream: topic.family,
        origin: null,
        open: true,
        since_ms: topic.first,
        last_message_ms: topic.last,
        messages: topic.messages,
        bytes: topic.bytes,
        deliveries: topic.deliveries,
        per_second: perSecond(topic.messages, topic.first, now),
        unread_bytes: null,
      });
    }
    if (history) rows.push(...[...this.closed].reverse());
    return rows;
  }

  private count(family: StreamFamily, data: unknown, bytes: number, deliveries: number): void {
    const code = (data as { code?: unknown } | null)?.code;
    let id = typeof code === 'string' ? `${family}/${code.slice(0, 64)}` : family;
    let topic = this.topics.get(id);
    if (!topic && this.topics.size >= MAX_TOPICS) {
      id = OTHER_TOPIC;
      topic = this.topics.get(id);
    }
    const now = this.now();
    if (!topic) {
      topic = { family, messages: 0, bytes: 0, deliveries: 0, first: now, last: now };
      this.topics.set(id, topic);
    }
    topic.messages++;
    topic.bytes += bytes;
    topic.deliveries += deliveries;
    topic.last = now;
  }

  private connectionRow(connection: SseConnection, info: StreamConnectionInfo, open: boolean): StreamRow {
    const now = this.now();
    return {
      kind: 'connection',
      id: connection.id,
      stream: info.stream,
      origin: originOfActivity(info.activity),
      open,
      since_ms: info.openedAt,
      last_message_ms: null,
      messages: connection.messages,
      bytes: connection.bytes,
      deliveries: null,
      per_second: perSecond(connection.messages, info.openedAt, now),
      unread_bytes: open ? connection.unread : null,
    };
  }
}

const perSecond = (count: number, since: number, now: number) =>
  now > since ? Math.round((count / ((now - since) / 1000)) * 1000) / 1000 : 0;
