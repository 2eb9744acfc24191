// The figures of every listed stock's day that whole-market reads count from (snapshots' rankings, daily quotes,
// index breadth and components): each stock's digest of the day, and for a day over its final figures alone, so a
// past day is counted once and then costs a few numbers, not its tape.

import type { ContractInfo, StockInfo } from '../../../domain/contracts.js';
import { type DepthModel, depthModelOf } from '../exchange/depth-model.js';
import { publishedCount, type Tape } from './tape.js';
import { horizonOf } from './tape-cache.js';
import { digestCount, digestOf, type TapeDigest, type TradeStats, TwoDayCache, tradeStats } from './tape-digest.js';

/** Where the figures come from: the market's tapes, kept or passing. */
export interface TapeSource {
  /** The day's trades up to an instant at least (SimMarket.tapeAsOf). */
  tapeAsOf(info: StockInfo, day: string, epochMs: number): Tape;
  /** The tape for one pass, not kept by the cache (see SimMarket.passingTape). */
  passingTape(info: StockInfo, day: string): Tape;
  /** When the stock market's day is over (epoch ms): every trade of it is published by then. */
  dayEnd(day: string): number;
}

export class DayFigures {
  private readonly digests = new TwoDayCache<{ digest: TapeDigest; horizon: number }>();
  /** Depth models of the days of partial tapes: whole-day figures, counted once from a passing tape. */
  private readonly dayDepths = new TwoDayCache<DepthModel | null>();
  /** The figures of stock days whose every trade was published when asked. */
  private readonly closedDays = new TwoDayCache<TradeStats>();

  constructor(private readonly source: TapeSource) {}

  /**
   * What the whole-market figures read of a stock's day up to an instant at least (the whole day unless told): kept
   * for the day while its tape may be evicted, and counted again from a longer tape when asked past its horizon.
   */
  digest(info: StockInfo, day: string, epochMs = Number.POSITIVE_INFINITY): TapeDigest {
    const kept = this.digests.get(info.code, day, () => this.digestAsOf(info, day, epochMs));
    if (kept.horizon < epochMs) Object.assign(kept, this.digestAsOf(info, day, epochMs));
    return kept.digest;
  }

  private digestAsOf(info: StockInfo, day: string, epochMs: number): { digest: TapeDigest; horizon: number } {
    const tape = this.source.tapeAsOf(info, day, epochMs);
    return { digest: digestOf(tape), horizon: horizonOf(tape) };
  }

  /** A stock's day as published at an instant (epoch ms); a day over is counted once and kept as its figures. */
  stockDayStats(info: StockInfo, day: string, epochMs: number): TradeStats {
    const closed = this.closedDays.peek(info.code, day);
    if (closed) return closed;
    if (epochMs < this.source.dayEnd(day)) {
      const digest = this.digest(info, day, epochMs);
      return tradeStats(digest, digestCount(digest, epochMs));
    }
    const kept = this.digests.peek(info.code, day);
    const series = kept?.horizon === Number.POSITIVE_INFINITY ? kept.digest : this.source.passingTape(info, day);
    const count = publishedCount(series, epochMs);
    const stats = tradeStats(series, count);
    return count === series.times.length ? this.closedDays.get(info.code, day, () => stats) : stats;
  }

  /**
   * The tape of a stock day that is over, for one pass over it (not kept by the tape cache); its figures are kept on
   * the way, so daily quotes of that day need not build it again.
   */
  closedDayTape(info: StockInfo, day: string): Tape {
    const tape = this.source.passingTape(info, day);
    this.closedDays.get(info.code, day, () => tradeStats(tape, tape.times.length));
    return tape;
  }

  /** The depth model of a tape's day (exchange/depth-model.ts): the whole day's, also for a partial tape. */
  depthModelOf(info: ContractInfo, tape: Tape): DepthModel | null {
    if (horizonOf(tape) === Number.POSITIVE_INFINITY) return depthModelOf(info, tape);
    // Only always-open stock tapes are partial.
    const whole = () => this.source.passingTape(info as StockInfo, tape.day);
    return this.dayDepths.get(tape.code, tape.day, () => depthModelOf(info, whole()));
  }

  /**
   * A stock's digest may outlive its tape and hold its times, prices and volumes: a tape of that day built again
   * takes those same arrays (the market is a pure function), so they are not held twice.
   */
  shareArrays(tape: Tape): Tape {
    const digest = this.digests.peek(tape.code, tape.day)?.digest;
    if (digest && digest.times.length === tape.times.length) {
      Object.assign(tape, { times: digest.times, prices: digest.prices, volumes: digest.volumes });
    }
    return tape;
  }
}
