// One client's server-sent event stream on a hijacked reply: the headers, a heartbeat every 30 s, and a cap on what
// the client may leave unread. A client over the cap is dropped; it reconnects with Last-Event-ID and resumes.

import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { type BufferLimits, BufferWatch } from './backpressure.js';

export const HEARTBEAT_MS = 30_000;
export interface ConnectionOptions extends BufferLimits {
  /** The id a heartbeat carries: the position in the hub's stream, so resuming from it loses nothing. */
  heartbeatId: () => string | null;
  heartbeatMs?: number | undefined;
}

export class SseConnection {
  readonly id = randomUUID();
  /** True once dropped for leaving too much unread. */
  dropped = false;
  /** Messages and bytes written to this client (for the monitor's stream rows). */
  messages = 0;
  bytes = 0;
  private readonly response: FastifyReply['raw'];
  private closed = false;
  private readonly buffer: BufferWatch;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    reply: FastifyReply,
    options: ConnectionOptions,
    /** The id a heartbeat carries; the hub's position unless the client is still being replayed to. */
    private readonly heartbeatId: () => string | null = options.heartbeatId,
  ) {
    reply.hijack();
    this.response = reply.raw;
    this.buffer = new BufferWatch(this.response, options);
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

  /** Bytes written but not yet taken by the kernel. */
  get unread(): number {
    return this.buffer.unread;
  }

  get overCap(): boolean {
    return this.buffer.overCap;
  }

  /** Writes whole SSE messages (`count` of them); false when the client is gone or was dropped for falling behind. */
  write(message: Buffer | string, count = 1): boolean {
    if (this.closed) return false;
    if (this.buffer.fallenBehind()) {
      this.drop();
      return false;
    }
    this.response.write(message);
    this.messages += count;
    this.bytes += typeof message === 'string' ? Buffer.byteLength(message) : message.length;
    return true;
  }

  /**
   * For a sender that paces itself (a replay) and finds the client over its cap: resolves true once the buffer drained
   * below the cap, false when the client is gone or stayed over its cap too long (it is then dropped, as a live client
   * would be).
   */
  async writable(): Promise<boolean> {
    for (;;) {
      if (this.closed) return false;
      if (!this.overCap) return true;
      if (this.buffer.fallenBehind()) {
        this.drop();
        return false;
      }
      await this.buffer.drainOrStall();
    }
  }

  private drop(): void {
    this.dropped = true;
    this.close();
  }

  /** Ends the stream at once; the client reconnects with Last-Event-ID. */
  close(): void {
    this.response.destroy();
    this.finish();
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
    this.send('heartbeat', data, this.heartbeatId());
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    for (const cleanup of this.cleanups) cleanup();
  }
}
