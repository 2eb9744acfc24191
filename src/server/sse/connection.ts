// One client's server-sent event stream on a hijacked reply: the headers, a heartbeat every 30 s, and a cap on what
// the client may leave unread. A client over the cap is dropped; it reconnects with Last-Event-ID and resumes.

import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';

export const HEARTBEAT_MS = 30_000;
/** How long a client may stay over its buffer cap before it is dropped: a burst is fine, a stall is not. */
const STALL_MS = 2_000;
/** Over this many times its cap a client is dropped at once, which bounds the memory one client can hold. */
const HARD_CAP_FACTOR = 8;

export interface ConnectionOptions {
  /** Bytes a client may leave unread before it is dropped. */
  maxBufferedBytes: number;
  /** The id a heartbeat carries: the position in the hub's stream, so resuming from it loses nothing. */
  heartbeatId: () => string | null;
  heartbeatMs?: number | undefined;
}

export class SseConnection {
  readonly id = randomUUID();
  private readonly response: FastifyReply['raw'];
  private closed = false;
  /** Since when the unread bytes are over the cap (performance.now()); null when under it. */
  private overCapSince: number | null = null;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    reply: FastifyReply,
    private readonly options: ConnectionOptions,
  ) {
    reply.hijack();
    this.response = reply.raw;
    this.response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    this.response.write(': ok\n\nretry: 2000\n\n');
    const heartbeat = setInterval(() => this.heartbeat(), options.heartbeatMs ?? HEARTBEAT_MS);
    this.cleanups.push(() => clearInterval(heartbeat));
    this.response.once('close', () => this.finish());
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Writes one whole SSE message; false when the client is gone or was dropped for falling behind. */
  write(message: Buffer | string): boolean {
    if (this.closed) return false;
    if (this.fallenBehind()) {
      this.response.destroy();
      this.finish();
      return false;
    }
    this.response.write(message);
    return true;
  }

  private fallenBehind(): boolean {
    const unread = this.response.writableLength;
    const cap = this.options.maxBufferedBytes;
    if (unread <= cap) return false;
    if (unread > cap * HARD_CAP_FACTOR) return true;
    if (this.overCapSince === null) {
      this.overCapSince = performance.now();
      this.response.once('drain', () => {
        this.overCapSince = null;
      });
      return false;
    }
    return performance.now() - this.overCapSince > STALL_MS;
  }

  /** A message of this connection alone (heartbeats, gap notices, replays), serialized here. */
  send(event: string, data: unknown, id: string | number | null): boolean {
    return this.write(`${id === null ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Runs once when the client goes away, whatever the reason. */
  onClose(cleanup: () => void): void {
    if (this.closed) cleanup();
    else this.cleanups.push(cleanup);
  }

  private heartbeat(): void {
    const data = { type: 'heartbeat', timestamp: new Date().toISOString(), connection_id: this.id };
    this.send('heartbeat', data, this.options.heartbeatId());
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    for (const cleanup of this.cleanups) cleanup();
  }
}
