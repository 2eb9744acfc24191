// The market factors between two closes: a Brownian bridge from one day's close to the next, sampled every
// five seconds of calendar time. The TAIEX (TSE factor) and the TPEx index (OTC factor) are these paths; stocks,
// futures, options and warrants all move with them, which is what makes the market coherent.

import { previousTradingDay } from '../../../domain/calendar.js';
import { anchorDayOf, type ClockMode, closeAnchor } from '../../../domain/sessions.js';
import { type DailyModel, FACTOR_VOLATILITY, type Factor, OTC_BETA } from './daily.js';
import { Rng } from './rng.js';

export const FACTOR_STEP_MS = 5000;

export interface FactorPath {
  /** The close anchors the path runs between. */
  start: number;
  end: number;
  /** Log levels every FACTOR_STEP_MS from start; the last sample is the close at end. */
  levels: Record<Factor, Float64Array>;
  /** The random part alone: the path minus the straight line between the two closes. */
  bridges: Record<Factor, Float64Array>;
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

  constructor(
    readonly daily: DailyModel,
    readonly mode: ClockMode,
  ) {}

  /** The path that ends at a trading day's close. */
  pathTo(day: string): FactorPath {
    let path = this.cache.get(day);
    if (path) return path;
    path = this.build(day);
    if (this.cache.size >= 64) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(day, path);
    return path;
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

  private build(day: string): FactorPath {
    const previous = previousTradingDay(day);
    const start = closeAnchor(this.mode, previous);
    const end = closeAnchor(this.mode, day);
    const steps = Math.max(1, Math.round((end - start) / FACTOR_STEP_MS));
    const rng = new Rng(this.daily.seed, 'factor-path', this.mode, day);
    const tse = brownianBridge(rng, steps, FACTOR_VOLATILITY.TSE);
    const otcOwn = brownianBridge(rng, steps, FACTOR_VOLATILITY.OTC);
    const otc = tse.map((value, k) => OTC_BETA * value + otcOwn[k]!);
    const line = (factor: Factor, bridge: Float64Array) => {
      const from = this.daily.factorLog(factor, previous);
      const to = this.daily.factorLog(factor, day);
      return bridge.map((value, k) => from + (k / steps) * (to - from) + value);
    };
    return {
      start,
      end,
      bridges: { TSE: tse, OTC: otc },
      levels: { TSE: line('TSE', tse), OTC: line('OTC', otc) },
    };
  }
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
