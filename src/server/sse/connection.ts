// One client's server-sent event stream on a hijacked reply: the headers, a heartbeat every 30 s, and a cap on what
// the client may leave unread. A client over the cap is dropped; it reconnects with Last-Event-ID and resumes.

import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';

export const HEARTBEAT_MS = 30_000;
/** How long a client may stay over its buffer cap before it is dropped: a burst is fine, a stall is not. */
const STALL_MS = 2_000;
/** Over this many times its cap a client is dropped at once, which bounds the memory one client can hold. */
const HARD_CAP_FACTOR = 8;
/** The grace while the streams are over their memory budget; not none, as what a turn writes waits in user space
 * until the socket is uncorked at its end. */
const SQUEEZED_STALL_MS = 200;

export interface ConnectionOptions {
  /** Bytes a client may leave unread before it is dropped. */
  maxBufferedBytes: number;
  /** The id a heartbeat carries: the position in the hub's stream, so resuming from it loses nothing. */
  heartbeatId: () => string | null;
  heartbeatMs?: number | undefined;
  /** True while the streams are over their memory budget: a client over its cap then gets a shorter grace. */
  squeezed?: (() => boolean) | undefined;
}

export class SseConnection {
  readonly id = randomUUID();
  /** True once dropped for leaving too much unread. */
  dropped = false;
  private readonly response: FastifyReply['raw'];
  private closed = false;
  /** Since when the unread bytes are over the cap (performance.now()); null when under it. */
  private overCapSince: number | null = null;
  private readonly cleanups: (() => void)[] = [];

  constructor(
    reply: FastifyReply,
    private readonly options: ConnectionOptions,
    /** The id a heartbeat carries; the hub's position unless the client is still being replayed to. */
    private readonly heartbeatId: () => string | null = options.heartbeatId,
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

  /** Bytes written but not yet taken by the kernel. */
  get unread(): number {
    return this.response.writableLength;
  }

  get overCap(): boolean {
    return this.unread > this.options.maxBufferedBytes;
  }

  /** Writes one whole SSE message; false when the client is gone or was dropped for falling behind. */
  write(message: Buffer | string): boolean {
    if (this.closed) return false;
    if (this.fallenBehind()) {
      this.drop();
      return false;
    }
    this.response.write(message);
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
      if (this.fallenBehind()) {
        this.drop();
        return false;
      }
      await this.drainOrStall();
    }
  }

  /** Waits for the buffer to drain, the client to go, or the end of its grace over the cap, whichever comes first. */
  private drainOrStall(): Promise<void> {
    const graceLeft = (this.overCapSince ?? performance.now()) + STALL_MS - performance.now();
    // Look again at the shorter grace: the budget may be spent meanwhile, and 'drain' comes only after a write found
    // the buffer full.
    const wait = Math.min(graceLeft, SQUEEZED_STALL_MS);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.response.off('drain', done);
        this.response.off('close', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, wait) + 1);
      this.response.once('drain', done);
      this.response.once('close', done);
    });
  }

  private fallenBehind(): boolean {
    const unread = this.unread;
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
    const grace = this.options.squeezed?.() ? SQUEEZED_STALL_MS : STALL_MS;
    return performance.now() - this.overCapSince > grace;
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
