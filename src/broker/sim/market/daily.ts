// The market day by day: closes of the indices and of every stock, as a chain of daily returns drawn from the
// seed. The chain is pinned to the catalog's real closes of 2026-06-23 and runs forward and backward from there,
// so every past day back to the history start regenerates identically and today's reference is yesterday's close.

import { tradingDaysBetween } from '../../../domain/calendar.js';
import { percentLimits, roundToTick, stepTicks, type TickTable, UNLIMITED } from '../../../domain/ticks.js';
import { LISTED_INDICES } from '../catalog/indices.js';
import { LISTED_SECURITIES, type ListedSecurity } from '../catalog/listed-securities.js';
import type { ReferencePrices } from '../catalog/references.js';
import { tickTableOf } from '../catalog/stocks.js';
import { hashKeysPair, unitOf } from '../random.js';

/** The day the catalog's closes were taken: the chain's fixed point. */
export const ANCHOR_DAY = '2026-06-23';
/** The first day of history (index and stock; futures from 2020-03-22) and the last day the calendar knows. */
export const HISTORY_START = '2020-03-02';
const CHAIN_FIRST = '2020-02-03';
const CHAIN_LAST = '2027-12-31';

export type Factor = 'TSE' | 'OTC';

/** Daily volatility and drift of the market factors; the OTC factor follows the TSE one with a beta. */
export const FACTOR_VOLATILITY: Record<Factor, number> = { TSE: 0.011, OTC: 0.006 };
export const OTC_BETA = 0.85;
const TSE_DRIFT = 0.0002;
const STOCK_VOLATILITY = 0.014;
const ETF_VOLATILITY = 0.003;
const JUMP_CHANCE = 0.015;

/** A priced thing that follows a factor: a stock, an ETF or a sector index. */
export interface Follower {
  code: string;
  factor: Factor;
  beta: number;
  /** Daily volatility of its own moves. */
  volatility: number;
  anchorClose: number;
  /** null for indices: no tick grid and no limits. */
  ticks: TickTable | null;
  limitFraction: number | null;
  avgVolumeLots: number;
}

const SECTOR_BETAS: Record<string, number> = { IX0010: 0.6, IX0011: 0.5, IX0012: 0.8 };

function followerOf(security: ListedSecurity): Follower {
  return {
    code: security.code,
    factor: security.exchange === 'TSE' ? 'TSE' : 'OTC',
    beta: security.leverage ?? security.beta,
    volatility: security.volatility ?? (security.kind === 'etf' ? ETF_VOLATILITY : STOCK_VOLATILITY),
    anchorClose: security.close,
    ticks: tickTableOf(security),
    limitFraction: security.foreignComponents ? null : 0.1 * Math.abs(security.leverage ?? 1),
    avgVolumeLots: security.avgVolumeLots,
  };
}

export const FOLLOWERS: ReadonlyMap<string, Follower> = new Map([
  ...LISTED_SECURITIES.map((s) => [s.code, followerOf(s)] as const),
  ...LISTED_INDICES.filter((i) => SECTOR_BETAS[i.code] !== undefined).map(
    (i) =>
      [
        i.code,
        {
          code: i.code,
          factor: 'TSE',
          beta: SECTOR_BETAS[i.code]!,
          volatility: 0.005,
          anchorClose: i.level,
          ticks: null,
          limitFraction: null,
          avgVolumeLots: 0,
        } satisfies Follower,
      ] as const,
  ),
]);

export const FACTOR_INDEX: Record<string, Factor> = { IX0001: 'TSE', IX0043: 'OTC' };

export function limitsFor(follower: Follower, reference: number) {
  if (follower.ticks === null || follower.limitFraction === null) return UNLIMITED;
  return percentLimits(follower.ticks, reference, follower.limitFraction);
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * A chain of values over the trading days, filled outward from the anchor only as far as anyone asked. It holds only
 * the days filled (a few months for most codes), not the whole calendar: the whole listing has thousands of chains.
 */
class LazyChain {
  /** after[k] is day anchor + k; before[k] is day anchor - 1 - k. */
  private readonly after: number[];
  private readonly before: number[] = [];

  constructor(
    private readonly anchor: number,
    anchorValue: number,
    private readonly forward: (previous: number, i: number) => number,
    private readonly backward: (next: number, i: number) => number,
  ) {
    this.after = [anchorValue];
  }

  at(i: number): number {
    const { after, before, anchor } = this;
    if (i >= anchor) {
      while (after.length <= i - anchor) after.push(this.forward(after[after.length - 1]!, anchor + after.length));
      return after[i - anchor]!;
    }
    while (before.length < anchor - i) {
      const next = before.length === 0 ? after[0]! : before[before.length - 1]!;
      before.push(this.backward(next, anchor - before.length));
    }
    return before[anchor - 1 - i]!;
  }
}

export class DailyModel {
  readonly days: readonly string[];
  private readonly dayIndex = new Map<string, number>();
  private readonly factors = new Map<Factor, LazyChain>();
  private readonly closes = new Map<string, LazyChain>();
  private readonly anchor: number;

  constructor(readonly seed: number) {
    this.days = tradingDaysBetween(CHAIN_FIRST, CHAIN_LAST);
    for (const [i, day] of this.days.entries()) this.dayIndex.set(day, i);
    this.anchor = this.indexOfDay(ANCHOR_DAY);
  }

  indexOfDay(day: string): number {
    const i = this.dayIndex.get(day);
    if (i === undefined) throw new RangeError(`${day} is not a trading day from ${CHAIN_FIRST} to ${CHAIN_LAST}`);
    return i;
  }

  knows(day: string): boolean {
    return this.dayIndex.has(day);
  }

  /** The log level of a market factor at the close of a day. */
  factorLog(factor: Factor, day: string): number {
    return this.factorChain(factor).at(this.indexOfDay(day));
  }

  /** The log return a follower would make on a day without price limits. */
  rawReturn(follower: Follower, i: number): number {
    const chain = this.factorChain(follower.factor);
    const day = this.days[i]!;
    const own = follower.volatility * normalOf(this.seed, 'own', follower.code, day) + this.jump(follower, day);
    return follower.beta * (chain.at(i) - chain.at(i - 1)) + own;
  }

  /** News days: about one stock day in seventy jumps 6-14%, so stocks reach their limits as they do. */
  private jump(follower: Follower, day: string): number {
    if (follower.ticks === null || follower.volatility < STOCK_VOLATILITY) return 0;
    const draw = unitOf(this.seed, 'jump', follower.code, day);
    if (draw >= JUMP_CHANCE) return 0;
    const size = 0.06 + 0.08 * unitOf(this.seed, 'jump-size', follower.code, day);
    return draw < JUMP_CHANCE / 2 ? size : -size;
  }

  /** The close of an index, stock or ETF on a trading day. */
  closeOf(code: string, day: string): number {
    const factor = FACTOR_INDEX[code];
    if (factor) return round2(Math.exp(this.factorLog(factor, day)));
    return this.closeChain(code).at(this.indexOfDay(day));
  }

  /** Lots traded over a whole day: the typical volume with a day-to-day spread. */
  dailyVolume(code: string, day: string, typicalLots: number): number {
    return Math.max(1, Math.round(typicalLots * Math.exp(0.35 * normalOf(this.seed, 'volume', code, day) - 0.06)));
  }

  /** The reference prices of a listing day: each code's close of the previous trading day. */
  referencesOn(day: string): ReferencePrices {
    const previous = this.days[this.indexOfDay(day) - 1];
    if (previous === undefined) throw new RangeError(`no trading day before ${day} in the simulated history`);
    return { referenceOf: (code) => this.closeOf(code, previous) };
  }

  private factorChain(factor: Factor): LazyChain {
    let chain = this.factors.get(factor);
    if (chain) return chain;
    const level = LISTED_INDICES.find((i) => i.code === (factor === 'TSE' ? 'IX0001' : 'IX0043'))!.level;
    chain = new LazyChain(
      this.anchor,
      Math.log(level),
      (previous, i) => previous + this.factorStep(factor, i),
      (next, i) => next - this.factorStep(factor, i),
    );
    this.factors.set(factor, chain);
    return chain;
  }

  private factorStep(factor: Factor, i: number): number {
    const day = this.days[i]!;
    const tse = TSE_DRIFT + FACTOR_VOLATILITY.TSE * normalOf(this.seed, 'factor', 'TSE', day);
    if (factor === 'TSE') return tse;
    return OTC_BETA * tse + FACTOR_VOLATILITY.OTC * normalOf(this.seed, 'factor', 'OTC', day);
  }

  private closeChain(code: string): LazyChain {
    let chain = this.closes.get(code);
    if (chain) return chain;
    const follower = FOLLOWERS.get(code);
    if (!follower) throw new RangeError(`no daily prices for ${code}`);
    chain = new LazyChain(
      this.anchor,
      follower.anchorClose,
      (previous, i) => forwardClose(follower, previous, this.rawReturn(follower, i)),
      (next, i) => backwardReference(follower, next, this.rawReturn(follower, i)),
    );
    this.closes.set(code, chain);
    return chain;
  }
}

/** A standard normal draw that depends only on the keys (Box-Muller over two hashes). */
export function normalOf(...keys: (string | number)[]): number {
  const [first, second] = hashKeysPair(keys);
  const u1 = (first + 1) / 4294967297;
  const u2 = second / 4294967296;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** Today's close from the reference: on the tick grid and inside the day's limits (a stock can close locked). */
export function forwardClose(follower: Follower, reference: number, rawReturn: number): number {
  const raw = reference * Math.exp(rawReturn);
  if (follower.ticks === null) return round2(raw);
  const { limitUp, limitDown } = limitsFor(follower, reference);
  return Math.min(limitUp, Math.max(limitDown, roundToTick(follower.ticks, raw)));
}

/** Yesterday's close that today's close came from, nudged so today's close lies inside the limits it set. */
function backwardReference(follower: Follower, close: number, rawReturn: number): number {
  const raw = close / Math.exp(rawReturn);
  if (follower.ticks === null) return round2(raw);
  const table = follower.ticks;
  let reference = Math.max(roundToTick(table, raw), table[0]!.tick);
  for (let guard = 0; guard < 1000; guard++) {
    const { limitUp, limitDown } = limitsFor(follower, reference);
    if (close > limitUp) reference = stepTicks(table, reference, 1);
    else if (close < limitDown) reference = stepTicks(table, reference, -1);
    else break;
  }
  return reference;
}

/** A day's close of a follower in logs, or past the limit when it closed locked (it stays locked on the way). */
export function endOfDayLog(daily: DailyModel, follower: Follower, day: string, reference: number): number {
  const close = daily.closeOf(follower.code, day);
  const raw = Math.log(reference) + daily.rawReturn(follower, daily.indexOfDay(day));
  const { limitUp, limitDown } = limitsFor(follower, reference);
  if (close === limitUp && raw > Math.log(close)) return raw;
  if (close === limitDown && raw < Math.log(close)) return raw;
  return Math.log(close);
}
