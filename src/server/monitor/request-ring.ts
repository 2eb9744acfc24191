// The summaries of the latest requests and backend calls, kept while `capture.requests` is on, in a ring of fixed
// size: what was asked (method and route pattern, never the URL, its query, a header or a body), by whom (source,
// origin), when, how long it took and how it ended.

import type { MetricFilter, Origin, Source } from './series.js';

export type Outcome = 'ok' | 'client_error' | 'server_error';

export interface RequestSummary {
  /** Increasing with every summary kept. */
  id: number;
  source: Source;
  origin: Origin;
  category: string;
  method: string;
  endpoint: string;
  started_ms: number;
  finished_ms: number;
  duration_us: number;
  /** The HTTP status; for a backend call 200 when it answered, 500 when it failed. */
  status: number;
  outcome: Outcome;
  /** The envelope's kind of error, when the answer was one. */
  error_kind: string | null;
}

export const REQUEST_RING_SIZE = 10_000;
export const SORTS = ['newest', 'slowest', 'errors'] as const;
export type Sort = (typeof SORTS)[number];

export const outcomeOf = (status: number): Outcome =>
  status >= 500 ? 'server_error' : status >= 400 ? 'client_error' : 'ok';

export class RequestRing {
  private readonly ring: (RequestSummary | undefined)[];
  private next = 0;
  private nextId = 1;

  constructor(readonly size = REQUEST_RING_SIZE) {
    this.ring = new Array(size);
  }

  add(summary: Omit<RequestSummary, 'id'>): void {
    this.ring[this.next] = { id: this.nextId++, ...summary };
    this.next = (this.next + 1) % this.size;
  }

  get held(): number {
    return Math.min(this.nextId - 1, this.size);
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
  }

  /** The summaries started in [from, to] that pass the filter, sorted, and the page asked for. */
  query(
    from: number,
    to: number,
    filter: MetricFilter,
    sort: Sort,
    offset: number,
    limit: number,
  ): { matched: number; items: RequestSummary[]; oldest_ms: number | null } {
    const matched: RequestSummary[] = [];
    let oldest: number | null = null;
    for (const summary of this.ring) {
      if (!summary) continue;
      oldest = oldest === null ? summary.started_ms : Math.min(oldest, summary.started_ms);
      if (summary.started_ms < from || summary.started_ms > to) continue;
      if (!filter.sources.has(summary.source) || !filter.origins.has(summary.origin)) continue;
      if (filter.category !== undefined && summary.category !== filter.category) continue;
      if (
        filter.endpoint !== undefined &&
        summary.endpoint !== filter.endpoint &&
        `${summary.method} ${summary.endpoint}` !== filter.endpoint
      ) {
        continue;
      }
      matched.push(summary);
    }
    const newest = (a: RequestSummary, b: RequestSummary) => b.id - a.id;
    const order: Record<Sort, (a: RequestSummary, b: RequestSummary) => number> = {
      newest,
      slowest: (a, b) => b.duration_us - a.duration_us || newest(a, b),
      errors: (a, b) => severity(b) - severity(a) || newest(a, b),
    };
    matched.sort(order[sort]);
    return { matched: matched.length, items: matched.slice(offset, offset + limit), oldest_ms: oldest };
  }
}

const severity = (summary: RequestSummary) =>
  summary.outcome === 'server_error' ? 2 : summary.outcome === 'client_error' ? 1 : 0;
