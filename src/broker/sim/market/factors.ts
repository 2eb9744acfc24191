// The market factors between two closes: a Brownian bridge from one day's close to the next, sampled every
// five seconds of calendar time. The TAIEX (TSE factor) and the TPEx index (OTC factor) are these paths; stocks,
// futures, options and warrants all move with them, which is what makes the market coherent.

import { previousTradingDay } from '../../../domain/calendar.js';
import { anchorDayOf, type ClockMode, closeAnchor } from '../../../domain/sessions.js';
import { taipeiInstant } from '../../../domain/time.js';
import { type DailyModel, FACTOR_VOLATILITY, type Factor, OTC_BETA } from './daily.js';
import { Rng } from './rng.js';
import { VarianceClock } from './variance-clock.js';

export const FACTOR_STEP_MS = 5000;
/**
 * The hours of a trading day in which the index is the same in both clock modes: what final settlement prices are
 * fixed on (12:30 to 13:30 covers the index average of 13:00-13:30 and the stock average of 12:30-13:30).
 */
export const FIXING_WINDOW = { from: '12:30', to: '13:30' } as const;

export interface FactorPath {
  /** The close anchors the path runs between. */
  start: number;
  end: number;
  /** Log levels every FACTOR_STEP_MS from start; the last sample is the close at end. */
  levels: Record<Factor, Float64Array>;
  /** The random part alone: the path minus the straight line between the two closes. */
  bridges: Record<Factor, Float64Array>;
}

/**
 * A Brownian bridge in business time: at each step the share of the variance accrued so far (0 at the first step, 1
 * at the last), total variance volatility^2, zero at both ends.
 */
export function timeChangedBridge(rng: Rng, accrued: Float64Array, volatility: number): Float64Array {
  const steps = accrued.length - 1;
  const path = new Float64Array(steps + 1);
  for (let k = 1; k <= steps; k++) {
    path[k] = path[k - 1]! + volatility * Math.sqrt(Math.max(0, accrued[k]! - accrued[k - 1]!)) * rng.normal();
  }
  const last = path[steps]!;
  for (let k = 1; k <= steps; k++) path[k] = path[k]! - accrued[k]! * last;
  return path;
}

/** A Brownian bridge over n steps with total variance volatility^2, zero at both ends. */
export function brownianBridge(rng: Rng, steps: number, volatility: number): Float64Array {
  const path = new Float64Array(steps + 1);
  const scale = volatility / Math.sqrt(steps);
  for (let k = 1; k <= steps; k++) path[k] = path[k - 1]! + scale * rng.normal();
  const last = path[steps]!;
  for (let k = 1; k <= steps; k++) path[k] = path[k]! - (k / steps) * last;
  return path;
}

export class MarketFactors {
  private readonly cache = new Map<string, FactorPath>();
  /** Consecutive lookups fall in the same path almost always; finding a path by instant is slow. */
  private lastUsed: FactorPath | null = null;
  /** The exchange clock's paths, which the always-open paths embed in the fixing window. */
  private readonly exchangeCache = new Map<string, FactorPath>();
  /** How variance spreads over the hours between two closes, on this clock and on the exchange's. */
  readonly clock: VarianceClock;
  private readonly exchangeClock: VarianceClock;

  constructor(
    readonly daily: DailyModel,
    readonly mode: ClockMode,
  ) {
    this.clock = new VarianceClock(mode);
    this.exchangeClock = mode === 'exchange' ? this.clock : new VarianceClock('exchange');
  }

  /** The path that ends at a trading day's close. */
  pathTo(day: string): FactorPath {
    return cached(this.cache, 64, day, () => this.build(day));
  }

  /** The log level of a factor at an instant. */
  logAt(factor: Factor, epochMs: number): number {
    return sample(this.pathAt(epochMs), 'levels', factor, epochMs);
  }

  /** The random part of a factor at an instant (zero at every close). */
  bridgeAt(factor: Factor, epochMs: number): number {
    return sample(this.pathAt(epochMs), 'bridges', factor, epochMs);
  }

  private pathAt(epochMs: number): FactorPath {
    const last = this.lastUsed;
    if (last && epochMs > last.start && epochMs <= last.end) return last;
    this.lastUsed = this.pathTo(anchorDayOf(this.mode, epochMs));
    return this.lastUsed;
  }

  /**
   * The log level of a factor at an instant of a day's exchange hours (12:30 to 13:30, FIXING_WINDOW), read from the
   * exchange clock's path, which the always-open path embeds there: the same in both clock modes.
   */
  exchangeLogAt(factor: Factor, day: string, epochMs: number): number {
    const path = this.mode === 'exchange' ? this.pathTo(day) : this.exchangePathTo(day);
    return sample(path, 'levels', factor, epochMs);
  }

  private exchangePathTo(day: string): FactorPath {
    return cached(this.exchangeCache, 16, day, () => this.exchangePath(day));
  }

  private build(day: string): FactorPath {
    return this.mode === 'exchange' ? this.exchangePath(day) : this.alwaysOpenPath(day);
  }

  /**
   * A Brownian bridge from the previous day's close at 13:30 to the day's close at 13:30, in business time
   * (variance-clock.ts): the move comes mostly while the market trades, and the line between the closes too.
   */
  private exchangePath(day: string): FactorPath {
    const previous = previousTradingDay(day);
    const start = closeAnchor('exchange', previous);
    const end = closeAnchor('exchange', day);
    const steps = Math.max(1, Math.round((end - start) / FACTOR_STEP_MS));
    const accrued = new Float64Array(steps + 1);
    for (let k = 0; k <= steps; k++)
      accrued[k] = this.exchangeClock.fractionAt(previous, day, start + k * FACTOR_STEP_MS);
    const rng = new Rng(this.daily.seed, 'factor-path', 'exchange', day);
    const tse = timeChangedBridge(rng, accrued, FACTOR_VOLATILITY.TSE);
    const otcOwn = timeChangedBridge(rng, accrued, FACTOR_VOLATILITY.OTC);
    const otc = tse.map((value, k) => OTC_BETA * value + otcOwn[k]!);
    const line = this.lineOf(day, (k) => accrued[k]!);
    const levels = { TSE: tse.map((v, k) => line('TSE', k) + v), OTC: otc.map((v, k) => line('OTC', k) + v) };
    return { start, end, bridges: { TSE: tse, OTC: otc }, levels };
  }

  /**
   * The always-open path, midnight to midnight of the next trading day: a bridge from the previous close to the
   * exchange path's level at 12:30, the exchange path itself to 13:30 (where it is the day's close), then a bridge
   * from that close back to the close at midnight. What the exchange fixes in those hours (final settlement prices) is the same.
   */
  private alwaysOpenPath(day: string): FactorPath {
    const start = closeAnchor('always-open', previousTradingDay(day));
    const end = closeAnchor('always-open', day);
    const steps = Math.max(1, Math.round((end - start) / FACTOR_STEP_MS));
    const exchange = this.exchangePathTo(day);
    const windowFrom = Math.round((taipeiInstant(day, FIXING_WINDOW.from) - start) / FACTOR_STEP_MS);
    const windowTo = Math.round((taipeiInstant(day, FIXING_WINDOW.to) - start) / FACTOR_STEP_MS);
    const exchangeFrom = Math.round((taipeiInstant(day, FIXING_WINDOW.from) - exchange.start) / FACTOR_STEP_MS);
    const rng = new Rng(this.daily.seed, 'factor-path', this.mode, day);
    const before = windowFrom;
    const after = steps - windowTo;
    const part = (n: number, factor: Factor) =>
      brownianBridge(rng, n, FACTOR_VOLATILITY[factor] * Math.sqrt(n / steps));
    const tseBefore = part(before, 'TSE');
    const tseAfter = part(after, 'TSE');
    const otcBefore = part(before, 'OTC').map((v, k) => OTC_BETA * tseBefore[k]! + v);
    const otcAfter = part(after, 'OTC').map((v, k) => OTC_BETA * tseAfter[k]! + v);
    const line = this.lineOf(day, (k) => k / steps);
    const levels = {} as Record<Factor, Float64Array>;
    const bridges = {} as Record<Factor, Float64Array>;
    for (const [factor, bridgeBefore, bridgeAfter] of [
      ['TSE', tseBefore, tseAfter],
      ['OTC', otcBefore, otcAfter],
    ] as const) {
      const from = line(factor, 0);
      const to = line(factor, steps);
      const entry = exchange.levels[factor][exchangeFrom]!;
      const exit = exchange.levels[factor][exchangeFrom + (windowTo - windowFrom)]!;
      const path = new Float64Array(steps + 1);
      for (let k = 0; k <= steps; k++) {
        if (k <= windowFrom) path[k] = from + (k / before) * (entry - from) + bridgeBefore[k]!;
        else if (k <= windowTo) path[k] = exchange.levels[factor][exchangeFrom + k - windowFrom]!;
        else path[k] = exit + ((k - windowTo) / after) * (to - exit) + bridgeAfter[k - windowTo]!;
      }
      levels[factor] = path;
      bridges[factor] = path.map((v, k) => v - line(factor, k));
    }
    return { start, end, bridges, levels };
  }

  /** The straight line in logs between the previous day's close and the day's close, at step k (at its share). */
  private lineOf(day: string, shareAt: (k: number) => number): (factor: Factor, k: number) => number {
    const previous = previousTradingDay(day);
    const ends = {
      TSE: [this.daily.factorLog('TSE', previous), this.daily.factorLog('TSE', day)],
      OTC: [this.daily.factorLog('OTC', previous), this.daily.factorLog('OTC', day)],
    } as const;
    return (factor, k) => ends[factor][0] + shareAt(k) * (ends[factor][1] - ends[factor][0]);
  }
}

/** A day's path from a cache that keeps the `size` days built last. */
function cached(cache: Map<string, FactorPath>, size: number, day: string, build: () => FactorPath): FactorPath {
  let path = cache.get(day);
  if (path) return path;
  path = build();
  if (cache.size >= size) cache.delete(cache.keys().next().value!);
  cache.set(day, path);
  return path;
}

function sample(path: FactorPath, kind: 'levels' | 'bridges', factor: Factor, epochMs: number): number {
  const values = path[kind][factor];
  const last = values.length - 1;
  const position = ((epochMs - path.start) / (path.end - path.start)) * last;
  if (position <= 0) return values[0]!;
  if (position >= last) return values[last]!;
  const k = Math.floor(position);
  const weight = position - k;
  return values[k]! * (1 - weight) + values[k + 1]! * weight;
}
