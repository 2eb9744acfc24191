// How far one SSE client may fall behind: a cap on what it leaves unread, a grace for a burst over it, a shorter
// grace while the streams are over their memory budget, and a hard cap that drops it at once.

import type { ServerResponse } from 'node:http';

/** How long a client may stay over its buffer cap before it is dropped: a burst is fine, a stall is not. */
const STALL_MS = 2_000;
/** Over this many times its cap a client is dropped at once, which bounds the memory one client can hold. */
const HARD_CAP_FACTOR = 8;
/** The grace while the streams are over their memory budget; not none, as what a turn writes waits in user space
 * until the socket is uncorked at its end. */
const SQUEEZED_STALL_MS = 200;

export interface BufferLimits {
  /** Bytes a client may leave unread before it is dropped. */
  maxBufferedBytes: number;
  /** True while the streams are over their memory budget: a client over its cap then gets a shorter grace. */
  squeezed?: (() => boolean) | undefined;
}

export class BufferWatch {
  /** Since when the unread bytes are over the cap (performance.now()); null when under it. */
  private overCapSince: number | null = null;

  constructor(
    private readonly response: Pick<ServerResponse, 'writableLength' | 'once' | 'off'>,
    private readonly limits: BufferLimits,
  ) {}

  /** Bytes written but not yet taken by the kernel. */
  get unread(): number {
    return this.response.writableLength;
  }

  get overCap(): boolean {
    return this.unread > this.limits.maxBufferedBytes;
  }

  /** Over the hard cap, or over the cap for longer than its grace: the client is to be dropped. */
  fallenBehind(): boolean {
    const unread = this.unread;
    const cap = this.limits.maxBufferedBytes;
    if (unread <= cap) return false;
    if (unread > cap * HARD_CAP_FACTOR) return true;
    if (this.overCapSince === null) {
      this.overCapSince = performance.now();
      this.response.once('drain', () => {
        this.overCapSince = null;
      });
      return false;
    }
    const grace = this.limits.squeezed?.() ? SQUEEZED_STALL_MS : STALL_MS;
    return performance.now() - this.overCapSince > grace;
  }

  /** Waits for the buffer to drain, the client to go, or the end of its grace over the cap, whichever comes first. */
  drainOrStall(): Promise<void> {
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
}
