// Business time for the market's random walk: how the variance between two closes spreads over the hours. On the
// exchange clock most of it comes while the stock market trades (U-shaped, largest at the open), a smaller share in
// the futures night session (at its 15:00 open and around the US cash open) and almost none while every market is
// closed, so the opening gap carries roughly a quarter of a day's variance, as for the TAIEX. On the always-open
// clock the market never closes and the variance spreads evenly over wall time.

import { type ClockMode, closeAnchor } from '../../../domain/sessions.js';
import { dayFactsAt, inNightSession, minuteOfDay, nightSessionRate, uDensity } from './activity.js';

/** The night session's variance per minute, relative to its trading activity (the day session averages 1). */
const NIGHT_VARIANCE = 0.8;
/** While both markets are closed, the price still drifts a little (news), so the clock never stops. */
const CLOSED_VARIANCE = 0.003;
const STOCK_OPEN = 9 * 60;
const STOCK_CLOSE = 13 * 60 + 30;
const MINUTE_MS = 60_000;
const DAYS_KEPT = 64;

/** Variance per minute at an instant on the exchange clock, relative to the stock session's average. */
export function exchangeVarianceDensity(epochMs: number): number {
  const minute = minuteOfDay(epochMs);
  if (inNightSession(epochMs)) return NIGHT_VARIANCE * nightSessionRate(epochMs);
  if (!dayFactsAt(epochMs).trading) return CLOSED_VARIANCE;
  if (minute >= STOCK_OPEN && minute < STOCK_CLOSE) return uDensity((minute - STOCK_OPEN) / (STOCK_CLOSE - STOCK_OPEN));
  if (minute >= 8 * 60 + 45 && minute < STOCK_OPEN) return 0.3;
  if (minute >= STOCK_CLOSE && minute < 13 * 60 + 45) return 0.15;
  return CLOSED_VARIANCE;
}

interface Span {
  start: number;
  end: number;
  cumulative: Float64Array;
}

export class VarianceClock {
  /** Cumulative variance at each minute from the previous close anchor, by the day the span ends on. */
  private readonly spans = new Map<string, Span>();

  constructor(readonly mode: ClockMode) {}

  /**
   * The share (0 to 1) of the variance between the previous trading day's close anchor and a day's close anchor
   * that has accrued by an instant.
   */
  fractionAt(previousDay: string, day: string, epochMs: number): number {
    return this.fractionIn(this.spanOf(previousDay, day), epochMs);
  }

  /** fractionAt for many instants (epoch microseconds) of one day. */
  fractionsAt(previousDay: string, day: string, timesUs: Float64Array): Float64Array {
    const span = this.spanOf(previousDay, day);
    const fractions = new Float64Array(timesUs.length);
    for (let k = 0; k < timesUs.length; k++) fractions[k] = this.fractionIn(span, timesUs[k]! / 1000);
    return fractions;
  }

  private fractionIn(span: Span, epochMs: number): number {
    const { start, end, cumulative } = span;
    if (epochMs <= start) return 0;
    if (epochMs >= end) return 1;
    if (this.mode === 'always-open') return (epochMs - start) / (end - start);
    const position = (epochMs - start) / MINUTE_MS;
    const k = Math.floor(position);
    const last = cumulative.length - 1;
    if (k >= last) return 1;
    return cumulative[k]! + (position - k) * (cumulative[k + 1]! - cumulative[k]!);
  }

  private spanOf(previousDay: string, day: string): Span {
    let span = this.spans.get(day);
    if (span) return span;
    const start = closeAnchor(this.mode, previousDay);
    const end = closeAnchor(this.mode, day);
    span = { start, end, cumulative: this.mode === 'exchange' ? cumulativeVariance(start, end) : new Float64Array(0) };
    if (this.spans.size >= DAYS_KEPT) this.spans.delete(this.spans.keys().next().value!);
    this.spans.set(day, span);
    return span;
  }
}

/** Cumulative exchange-clock variance at every minute from start to end, scaled to end at 1. */
function cumulativeVariance(start: number, end: number): Float64Array {
  const minutes = Math.ceil((end - start) / MINUTE_MS);
  const cumulative = new Float64Array(minutes + 1);
  for (let k = 0; k < minutes; k++) {
    const from = start + k * MINUTE_MS;
    const length = Math.min(MINUTE_MS, end - from);
    cumulative[k + 1] = cumulative[k]! + (exchangeVarianceDensity(from + length / 2) * length) / MINUTE_MS;
  }
  const total = cumulative[minutes]!;
  for (let k = 0; k <= minutes; k++) cumulative[k] = cumulative[k]! / total;
  return cumulative;
}
