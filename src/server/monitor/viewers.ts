// Stream viewer sessions: a page showing live stream statistics holds one and renews it every few seconds. Per-topic
// stream collection (with `capture.streams: "auto"`) runs only while one is alive, so nobody pays for statistics
// nobody looks at. A session not renewed within its lifetime expires; at most MAX_VIEWERS are held.

import { randomBytes } from 'node:crypto';
import { DomainError, NotFoundError } from '../../domain/errors.js';

export const VIEWER_TTL_SECONDS = 15;
export const VIEWER_RENEW_SECONDS = 5;
export const MAX_VIEWERS = 64;

export interface ViewerSession {
  id: string;
  expires_in_seconds: number;
  renew_after_seconds: number;
}

export class ViewerSessions {
  private readonly expiries = new Map<string, number>();
  private readonly listeners = new Set<(alive: boolean) => void>();
  private wasAlive = false;

  constructor(private readonly now: () => number) {}

  open(): ViewerSession {
    this.sweep();
    if (this.expiries.size >= MAX_VIEWERS) {
      throw new DomainError(
        'VIEWER_LIMIT',
        `at most ${MAX_VIEWERS} stream viewer sessions at a time and all are held; release one (DELETE it) or ` +
          `wait up to ${VIEWER_TTL_SECONDS} s for one not renewed to expire`,
      );
    }
    const id = randomBytes(16).toString('base64url');
    this.expiries.set(id, this.now() + VIEWER_TTL_SECONDS * 1000);
    this.changed();
    return this.describe(id);
  }

  renew(id: string): ViewerSession {
    this.sweep();
    if (!this.expiries.has(id)) throw notFound(id);
    this.expiries.set(id, this.now() + VIEWER_TTL_SECONDS * 1000);
    return this.describe(id);
  }

  release(id: string): { id: string; released: true } {
    this.sweep();
    if (!this.expiries.delete(id)) throw notFound(id);
    this.changed();
    return { id, released: true };
  }

  /** Forgets expired sessions; tells the listeners when the last one went. */
  sweep(): void {
    const now = this.now();
    for (const [id, expiry] of this.expiries) if (expiry <= now) this.expiries.delete(id);
    this.changed();
  }

  get alive(): number {
    return this.expiries.size;
  }

  /** Calls `listener(true)` when the first session opens and `listener(false)` when the last one goes. */
  onChange(listener: (alive: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    const alive = this.expiries.size > 0;
    if (alive === this.wasAlive) return;
    this.wasAlive = alive;
    for (const listener of this.listeners) listener(alive);
  }

  private describe(id: string): ViewerSession {
    return { id, expires_in_seconds: VIEWER_TTL_SECONDS, renew_after_seconds: VIEWER_RENEW_SECONDS };
  }
}

const notFound = (id: string) =>
  new NotFoundError(
    'VIEWER_SESSION_NOT_FOUND',
    `no stream viewer session ${id.slice(0, 64)}: it expired (not renewed within ${VIEWER_TTL_SECONDS} s) or was ` +
      'released; open a new one with POST',
  );
