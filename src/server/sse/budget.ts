// What all SSE clients together may hold: a cap on connections and a memory budget on the bytes written to them and
// not yet taken by the kernel. When the bytes are over the budget:
//   - a new stream is refused (503 with Retry-After): it would only add to the pile;
//   - replays wait before their next page until the pile is back under the budget (they are the big, deferrable
//     writers; a waiting replay holds nothing but its socket);
//   - a client over its own buffer cap is dropped after 0.2 s instead of 2 s, so the slowest go first.
// Live events are never held back: the clients that keep up get them as always.

import { DomainError } from '../../domain/errors.js';
import type { SseConnection } from './connection.js';

export const DEFAULT_MAX_QUEUED_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_CONNECTIONS = 4096;
export const RETRY_AFTER_SECONDS = 5;
/** How long a sum of the clients' buffers is reused: summing thousands of sockets for every replay page would cost. */
const RECOUNT_MS = 20;

export interface BudgetLimits {
  maxQueuedBytes: number;
  maxConnections: number;
}

/** STREAM_CAPACITY: the streams are at their connection cap or over their memory budget. */
export class StreamsBusyError extends DomainError {
  constructor(message: string) {
    super('STREAM_CAPACITY', message);
  }
}

export class StreamBudget {
  private readonly connections = new Set<SseConnection>();
  private counted = 0;
  private countedAt = Number.NEGATIVE_INFINITY;
  /** Bytes replays queued since the last count, so that the replays of one slice cannot all pass one stale count. */
  private charged = 0;
  refusedClients = 0;

  constructor(private readonly limits: BudgetLimits) {}

  /** Throws StreamsBusyError when a new stream would go beyond the connection cap or the memory budget. */
  admit(): void {
    const { maxConnections, maxQueuedBytes } = this.limits;
    let refusal: string | null = null;
    if (this.connections.size >= maxConnections) {
      refusal = `the SSE streams have their maximum of ${maxConnections} clients`;
    } else if (this.queuedBytes(true) > maxQueuedBytes) {
      refusal = `the SSE streams hold their maximum of ${mb(maxQueuedBytes)} unread by slow clients`;
    }
    if (refusal === null) return;
    this.refusedClients++;
    throw new StreamsBusyError(`${refusal}; try again in ${RETRY_AFTER_SECONDS} s`);
  }

  add(connection: SseConnection): void {
    this.connections.add(connection);
    connection.onClose(() => this.connections.delete(connection));
  }

  /** The bytes written to the clients and not yet taken by the kernel; recounted at most every RECOUNT_MS. */
  queuedBytes(recount = false): number {
    const now = performance.now();
    if (recount || now - this.countedAt > RECOUNT_MS) {
      let total = 0;
      for (const connection of this.connections) total += connection.unread;
      this.counted = total;
      this.countedAt = now;
      this.charged = 0;
    }
    return this.counted + this.charged;
  }

  get spent(): boolean {
    return this.queuedBytes() > this.limits.maxQueuedBytes;
  }

  /** Counts bytes a replay just queued, until the next recount sees them. */
  charge(bytes: number): void {
    this.charged += bytes;
  }
}

const mb = (bytes: number) => `${Math.round((bytes / 1048576) * 10) / 10} MB`;
