// The metrics of every request and backend call, in memory and of bounded size: two rings of time slots, five-second
// slots for the last hour and one-minute slots for the last day. A slot holds one cell per endpoint (source, origin,
// method, route pattern) with its count, errors, total and largest duration and a sparse latency histogram. A slot
// is reused when its ring comes round, so memory does not grow with uptime: at most SLOTS × MAX_CELLS_PER_SLOT cells.

import { type Histogram, merge, type Quantiles, quantilesOf, record } from './histogram.js';

export const SOURCES = ['incoming', 'backend'] as const;
export type Source = (typeof SOURCES)[number];
export const ORIGINS = ['user', 'dashboard', 'background'] as const;
export type Origin = (typeof ORIGINS)[number];

/** One request answered, or one call to the venue, as measured. */
export interface Observation {
  /** Epoch ms it started. */
  at: number;
  source: Source;
  origin: Origin;
  category: string;
  method: string;
  /** The route pattern (`/api/v1/data/contracts/:code`), or the venue's operation (`contracts.get`). */
  endpoint: string;
  durationUs: number;
  error: boolean;
}

interface Cell {
  source: Source;
  origin: Origin;
  category: string;
  method: string;
  endpoint: string;
  count: number;
  errors: number;
  sumUs: number;
  maxUs: number;
  hist: Histogram;
}

interface Slot {
  start: number;
  cells: Cell[];
  /** The cells of each endpoint (the same string each time, so its hash is computed once): a lookup without a key. */
  byEndpoint: Map<string, Cell[]>;
}

/** Distinct endpoints one slot keeps; beyond, they count under `(other)`. */
export const MAX_CELLS_PER_SLOT = 128;
/** The most points a series has. */
export const MAX_SERIES_POINTS = 600;
export const OTHER_ENDPOINT = '(other)';

class Tier {
  readonly slots: (Slot | undefined)[];
  constructor(
    readonly resolutionMs: number,
    readonly size: number,
  ) {
    this.slots = new Array(size);
  }

  slotAt(at: number, create: true): Slot;
  slotAt(at: number, create: false): Slot | undefined;
  slotAt(at: number, create: boolean): Slot | undefined {
    const index = Math.floor(at / this.resolutionMs);
    const start = index * this.resolutionMs;
    const position = ((index % this.size) + this.size) % this.size;
    const slot = this.slots[position];
    if (slot && slot.start === start) return slot;
    if (!create) return undefined;
    const fresh: Slot = { start, cells: [], byEndpoint: new Map() };
    this.slots[position] = fresh;
    return fresh;
  }

  /** The start of the oldest slot the ring still holds at `now`. */
  earliest(now: number): number {
    return (Math.floor(now / this.resolutionMs) - this.size + 1) * this.resolutionMs;
  }

  cellCount(): number {
    return this.slots.reduce((sum, slot) => sum + (slot?.cells.length ?? 0), 0);
  }
}

export interface MetricFilter {
  sources: ReadonlySet<Source>;
  origins: ReadonlySet<Origin>;
  category?: string | undefined;
  /** A route pattern, or `METHOD pattern`. */
  endpoint?: string | undefined;
}

export interface EndpointMetrics extends Quantiles {
  source: Source;
  category: string;
  method: string;
  endpoint: string;
  requests: number;
  errors: number;
  error_rate: number;
  mean_us: number | null;
  max_us: number | null;
  last_seen_ms: number;
}

export interface SeriesPoint {
  start_ms: number;
  requests: number;
  errors: number;
  p50_us: number | null;
  p95_us: number | null;
  p99_us: number | null;
}

export interface Totals extends Quantiles {
  requests: number;
  errors: number;
  error_rate: number;
  per_second: number;
  mean_us: number | null;
  max_us: number | null;
}

export interface MetricsAnswer {
  totals: Totals;
  endpoints: EndpointMetrics[];
  series: { bucket_ms: number; points: SeriesPoint[] };
  /** The resolution of the slots read, and the earliest instant they still hold. */
  resolution_ms: number;
  retained_from_ms: number;
}

/** A saved minute slot: [start, cells as [source, origin, category, method, endpoint, count, errors, sum, max, hist]]. */
export type SavedSlot = [number, [Source, Origin, string, string, string, number, number, number, number, number[]][]];

export class MetricSeries {
  private readonly fine = new Tier(5_000, 720);
  private readonly coarse = new Tier(60_000, 1_440);
  /** When saved minutes were put back: the five-second ring holds nothing before this. */
  private fineSince = Number.NEGATIVE_INFINITY;

  add(observation: Observation): void {
    addTo(this.fine.slotAt(observation.at, true), observation);
    addTo(this.coarse.slotAt(observation.at, true), observation);
  }

  /** Cells held in all slots: bounded by the rings' sizes times MAX_CELLS_PER_SLOT. */
  cellCount(): number {
    return this.fine.cellCount() + this.coarse.cellCount();
  }

  static readonly maxCells = (720 + 1_440) * (MAX_CELLS_PER_SLOT + SOURCES.length * ORIGINS.length);

  /** The metrics of [from, to] as of `now`, read from the finest ring that still holds `from`. */
  query(from: number, to: number, now: number, filter: MetricFilter): MetricsAnswer {
    const tier = from >= Math.max(this.fine.earliest(now), this.fineSince) ? this.fine : this.coarse;
    const resolution = tier.resolutionMs;
    const span = Math.max(to - from, resolution);
    // Two points fewer than the most: the first bucket starts before `from`, and the one holding `to` is counted.
    const bucketMs = Math.max(1, Math.ceil(span / (MAX_SERIES_POINTS - 2) / resolution)) * resolution;
    const firstBucket = Math.floor(from / bucketMs) * bucketMs;
    const points = new Map<number, { requests: number; errors: number; hist: Histogram; max: number }>();
    const endpoints = new Map<string, Cell & { lastSeen: number }>();
    const all: Cell = emptyCell('incoming', 'user', '', '', '');
    for (
      let start = Math.floor(Math.max(from, tier.earliest(now)) / resolution) * resolution;
      start <= to;
      start += resolution
    ) {
      const slot = tier.slotAt(start, false);
      if (!slot) continue;
      for (const cell of slot.cells) {
        if (!matches(cell, filter)) continue;
        const key = `${cell.source}\t${cell.method}\t${cell.endpoint}`;
        const held =
          endpoints.get(key) ??
          ({
            ...emptyCell(cell.source, cell.origin, cell.category, cell.method, cell.endpoint),
            lastSeen: 0,
          } as Cell & {
            lastSeen: number;
          });
        endpoints.set(key, held);
        addCell(held, cell);
        held.lastSeen = Math.max(held.lastSeen, slot.start);
        addCell(all, cell);
        const bucket = firstBucket + Math.floor((slot.start - firstBucket) / bucketMs) * bucketMs;
        const point = points.get(bucket) ?? { requests: 0, errors: 0, hist: new Map(), max: 0 };
        points.set(bucket, point);
        point.requests += cell.count;
        point.errors += cell.errors;
        point.max = Math.max(point.max, cell.maxUs);
        merge(point.hist, cell.hist);
      }
    }
    const series: SeriesPoint[] = [];
    for (let start = firstBucket; start <= to; start += bucketMs) {
      const point = points.get(start);
      const q = point ? quantilesOf(point.hist, point.max) : null;
      series.push({
        start_ms: start,
        requests: point?.requests ?? 0,
        errors: point?.errors ?? 0,
        p50_us: q?.p50_us ?? null,
        p95_us: q?.p95_us ?? null,
        p99_us: q?.p99_us ?? null,
      });
    }
    return {
      totals: { ...summaryOf(all), per_second: all.count / (span / 1000) },
      endpoints: [...endpoints.values()].map((cell) => ({
        source: cell.source,
        category: cell.category,
        method: cell.method,
        endpoint: cell.endpoint,
        ...summaryOf(cell),
        last_seen_ms: cell.lastSeen,
      })),
      series: { bucket_ms: bucketMs, points: series },
      resolution_ms: resolution,
      retained_from_ms: tier.earliest(now),
    };
  }

  /** The minute slots of the last day, to be saved. */
  save(now: number): SavedSlot[] {
    const saved: SavedSlot[] = [];
    const earliest = this.coarse.earliest(now);
    for (const slot of this.coarse.slots) {
      if (!slot || slot.start < earliest) continue;
      const cells = slot.cells.map((c): SavedSlot[1][number] => [
        c.source,
        c.origin,
        c.category,
        c.method,
        c.endpoint,
        c.count,
        c.errors,
        c.sumUs,
        c.maxUs,
        [...c.hist].flat(),
      ]);
      saved.push([slot.start, cells]);
    }
    return saved.sort((a, b) => a[0] - b[0]);
  }

  /**
   * Puts saved minute slots of the last day back (older ones, and anything malformed, are skipped); returns the start
   * of the earliest put back, null for none.
   */
  load(saved: unknown, now: number): number | null {
    if (!Array.isArray(saved)) return null;
    const earliest = this.coarse.earliest(now);
    let earliestLoaded: number | null = null;
    for (const entry of saved) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'number' || !Array.isArray(entry[1])) continue;
      const [start, cells] = entry as SavedSlot;
      if (start < earliest || start > now) continue;
      const slot = this.coarse.slotAt(start, true);
      for (const c of cells) {
        if (!Array.isArray(c) || c.length !== 10) continue;
        const [source, origin, category, method, endpoint, count, errors, sumUs, maxUs, flat] = c;
        if (!SOURCES.includes(source) || !ORIGINS.includes(origin) || !Array.isArray(flat)) continue;
        const hist: Histogram = new Map();
        for (let i = 0; i + 1 < flat.length; i += 2) hist.set(Number(flat[i]), Number(flat[i + 1]));
        const cell = { source, origin, category, method, endpoint, count, errors, sumUs, maxUs, hist };
        if (slot.cells.length < MAX_CELLS_PER_SLOT && !findCell(slot, cell)) addCellTo(slot, cell);
      }
      earliestLoaded = earliestLoaded === null ? start : Math.min(earliestLoaded, start);
    }
    if (earliestLoaded !== null) this.fineSince = now;
    return earliestLoaded;
  }
}

function emptyCell(source: Source, origin: Origin, category: string, method: string, endpoint: string): Cell {
  return { source, origin, category, method, endpoint, count: 0, errors: 0, sumUs: 0, maxUs: 0, hist: new Map() };
}

function findCell(
  slot: Slot,
  o: { source: Source; origin: Origin; method: string; endpoint: string },
): Cell | undefined {
  const cells = slot.byEndpoint.get(o.endpoint);
  if (!cells) return undefined;
  for (const cell of cells) {
    if (cell.method === o.method && cell.source === o.source && cell.origin === o.origin) return cell;
  }
  return undefined;
}

function addCellTo(slot: Slot, cell: Cell): void {
  slot.cells.push(cell);
  const cells = slot.byEndpoint.get(cell.endpoint);
  if (cells) cells.push(cell);
  else slot.byEndpoint.set(cell.endpoint, [cell]);
}

function addTo(slot: Slot, o: Observation): void {
  let cell = findCell(slot, o);
  if (!cell) {
    if (slot.cells.length >= MAX_CELLS_PER_SLOT) {
      // The slot is full: the endpoint counts under (other) of its source and origin (at most six more cells).
      const other = { source: o.source, origin: o.origin, method: '*', endpoint: OTHER_ENDPOINT };
      cell = findCell(slot, other);
      if (!cell) {
        cell = emptyCell(o.source, o.origin, 'other', '*', OTHER_ENDPOINT);
        addCellTo(slot, cell);
      }
    } else {
      cell = emptyCell(o.source, o.origin, o.category, o.method, o.endpoint);
      addCellTo(slot, cell);
    }
  }
  cell.count++;
  if (o.error) cell.errors++;
  cell.sumUs += o.durationUs;
  if (o.durationUs > cell.maxUs) cell.maxUs = o.durationUs;
  record(cell.hist, o.durationUs);
}

function addCell(into: Cell, from: Cell): void {
  into.count += from.count;
  into.errors += from.errors;
  into.sumUs += from.sumUs;
  into.maxUs = Math.max(into.maxUs, from.maxUs);
  merge(into.hist, from.hist);
}

function matches(cell: Cell, filter: MetricFilter): boolean {
  if (!filter.sources.has(cell.source) || !filter.origins.has(cell.origin)) return false;
  if (filter.category !== undefined && cell.category !== filter.category) return false;
  if (filter.endpoint !== undefined) {
    return cell.endpoint === filter.endpoint || `${cell.method} ${cell.endpoint}` === filter.endpoint;
  }
  return true;
}

function summaryOf(cell: Cell) {
  const quantiles = quantilesOf(cell.hist, cell.maxUs);
  return {
    requests: cell.count,
    errors: cell.errors,
    error_rate: cell.count === 0 ? 0 : cell.errors / cell.count,
    mean_us: cell.count === 0 ? null : Math.round(cell.sumUs / cell.count),
    max_us: cell.count === 0 ? null : cell.maxUs,
    ...quantiles,
  };
}
