// The summaries of the latest requests and backend calls, kept while `capture.requests` is on, in a ring of fixed
// size: what was asked (method and route pattern, never the URL, its query, a header or a body), by whom (source,
// origin), when, how long it took and how it ended.

import { type MetricFilter, ORIGINS, type Origin, SOURCES, type Source } from './series.js';

export const OUTCOMES = ['ok', 'client_error', 'server_error'] as const;
export type Outcome = (typeof OUTCOMES)[number];

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

/**
 * The ring keeps its summaries in typed arrays, with their texts (route patterns, categories, kinds: a small, bounded
 * set) numbered once: keeping a request allocates nothing, so ten thousand summaries held and replaced cost the
 * garbage collector nothing. Objects are made only for the summaries a query answers.
 */
export class RequestRing {
  private readonly ids: Float64Array;
  private readonly started: Float64Array;
  private readonly durations: Float64Array;
  private readonly statuses: Uint16Array;
  /** source, origin and outcome, by their index in SOURCES, ORIGINS and OUTCOMES. */
  private readonly kinds: Uint8Array;
  /** category, method, endpoint and error kind, as numbers of `texts` (error kind -1 for none). */
  private readonly textIds: Int32Array;
  private readonly texts: string[] = [];
  private readonly textNumbers = new Map<string, number>();
  private next = 0;
  private nextId = 1;

  constructor(readonly size = REQUEST_RING_SIZE) {
    this.ids = new Float64Array(size);
    this.started = new Float64Array(size);
    this.durations = new Float64Array(size);
    this.statuses = new Uint16Array(size);
    this.kinds = new Uint8Array(size * 3);
    this.textIds = new Int32Array(size * 4);
  }

  add(summary: Omit<RequestSummary, 'id' | 'finished_ms'>): void {
    const at = this.next;
    this.ids[at] = this.nextId++;
    this.started[at] = summary.started_ms;
    this.durations[at] = summary.duration_us;
    this.statuses[at] = summary.status;
    this.kinds[at * 3] = SOURCES.indexOf(summary.source);
    this.kinds[at * 3 + 1] = ORIGINS.indexOf(summary.origin);
    this.kinds[at * 3 + 2] = OUTCOMES.indexOf(summary.outcome);
    this.textIds[at * 4] = this.number(summary.category);
    this.textIds[at * 4 + 1] = this.number(summary.method);
    this.textIds[at * 4 + 2] = this.number(summary.endpoint);
    this.textIds[at * 4 + 3] = summary.error_kind === null ? -1 : this.number(summary.error_kind);
    this.next = (this.next + 1) % this.size;
  }

  get held(): number {
    return Math.min(this.nextId - 1, this.size);
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
    const matched: number[] = [];
    let oldest: number | null = null;
    const held = this.held;
    for (let at = 0; at < held; at++) {
      const started = this.started[at]!;
      oldest = oldest === null ? started : Math.min(oldest, started);
      if (started < from || started > to) continue;
      if (
        !filter.sources.has(SOURCES[this.kinds[at * 3]!]!) ||
        !filter.origins.has(ORIGINS[this.kinds[at * 3 + 1]!]!)
      ) {
        continue;
      }
      if (filter.category !== undefined && this.texts[this.textIds[at * 4]!] !== filter.category) continue;
      if (filter.endpoint !== undefined) {
        const endpoint = this.texts[this.textIds[at * 4 + 2]!];
        if (
          endpoint !== filter.endpoint &&
          `${this.texts[this.textIds[at * 4 + 1]!]} ${endpoint}` !== filter.endpoint
        ) {
          continue;
        }
      }
      matched.push(at);
    }
    const newest = (a: number, b: number) => this.ids[b]! - this.ids[a]!;
    const severity = (at: number) => this.kinds[at * 3 + 2]!;
    const order: Record<Sort, (a: number, b: number) => number> = {
      newest,
      slowest: (a, b) => this.durations[b]! - this.durations[a]! || newest(a, b),
      errors: (a, b) => severity(b) - severity(a) || newest(a, b),
    };
    matched.sort(order[sort]);
    return {
      matched: matched.length,
      items: matched.slice(offset, offset + limit).map((at) => this.summaryAt(at)),
      oldest_ms: oldest,
    };
  }

  private summaryAt(at: number): RequestSummary {
    const errorKind = this.textIds[at * 4 + 3]!;
    return {
      id: this.ids[at]!,
      source: SOURCES[this.kinds[at * 3]!]!,
      origin: ORIGINS[this.kinds[at * 3 + 1]!]!,
      category: this.texts[this.textIds[at * 4]!]!,
      method: this.texts[this.textIds[at * 4 + 1]!]!,
      endpoint: this.texts[this.textIds[at * 4 + 2]!]!,
      started_ms: this.started[at]!,
      finished_ms: this.started[at]! + Math.round(this.durations[at]! / 1000),
      duration_us: this.durations[at]!,
      status: this.statuses[at]!,
      outcome: OUTCOMES[this.kinds[at * 3 + 2]!]!,
      error_kind: errorKind === -1 ? null : this.texts[errorKind]!,
    };
  }

  /** The number of a text; past MAX_TEXTS distinct ones (never, with route patterns), `(other)`. */
  private number(text: string): number {
    let number = this.textNumbers.get(text);
    if (number === undefined) {
      if (this.texts.length >= MAX_TEXTS) return this.number(OTHER_TEXT);
      number = this.texts.length;
      this.texts.push(text);
      this.textNumbers.set(text, number);
    }
    return number;
  }
}

const MAX_TEXTS = 4_096;
const OTHER_TEXT = '(other)';
