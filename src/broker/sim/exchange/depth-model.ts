// The book's depth away from the best price, and how fast depth a user's order took comes back (docs/matching.md,
// "Your orders move the book"). Depth follows a latent order book whose density grows linearly with the distance from
// the best price: walking it with Q moves the price by Y·σ·sqrt(Q/V), the square-root law of market impact.

import type { ContractInfo } from '../../../domain/contracts.js';
import { tickAt } from '../../../domain/ticks.js';
import { FACTOR_VOLATILITY, FOLLOWERS } from '../market/daily.js';
import type { PriceRules, Tape } from '../market/tape.js';

/** Y of the square-root law, impact ≈ Y·σ_daily·sqrt(Q/V_daily): of order one in the studies of many markets. */
export const IMPACT_Y = 3;
/** σ_daily of an option's or a warrant's price, as a fraction: premiums move by about half their value a day. */
export const PREMIUM_DAILY_VOLATILITY = 0.5;
/** Half of the depth an order took is back after the time the market takes, on average, to print this many trades. */
export const REFILL_TRADES = 10;
export const REFILL_HALF_LIFE_MS = { min: 5_000, max: 300_000 };

export interface DepthModel {
  /** V_daily: the day's volume on the instrument's tape, in the book's units (lots, contracts). */
  dailyVolume: number;
  /** σ_daily: the daily volatility of its price, as a fraction. */
  dailyVolatility: number;
  /** How long it takes half of the depth taken at a price to come back. */
  halfLifeMs: number;
  /** The best level's depth before the day's first trade. */
  openingDepth: number;
  rules: PriceRules;
}

/** σ_daily of an instrument: a stock's factor and own moves, an index future's index, a premium's own. */
export function dailyVolatilityOf(info: ContractInfo): number {
  if (info.security_type === 'OPT' || info.security_type === 'WRT') return PREMIUM_DAILY_VOLATILITY;
  const code = info.security_type === 'FUT' ? info.underlying_code : info.code;
  const follower = FOLLOWERS.get(code);
  if (!follower) return FACTOR_VOLATILITY.TSE;
  return Math.hypot(follower.beta * FACTOR_VOLATILITY[follower.factor], follower.volatility);
}

const models = new WeakMap<Tape, DepthModel | null>();

/** The depth model of an instrument's tape; null for a tape without a book (an index). */
export function depthModelOf(info: ContractInfo, tape: Tape): DepthModel | null {
  if (models.has(tape)) return models.get(tape)!;
  const model = tape.rules && {
    dailyVolume: tape.volumes.reduce((sum, volume) => sum + volume, 0),
    dailyVolatility: dailyVolatilityOf(info),
    halfLifeMs: refillHalfLife(tape),
    openingDepth: openingBestDepth(tape),
    rules: tape.rules,
  };
  models.set(tape, model);
  return model;
}

/** Trades whose quotes set the depth of the book before the day's first trade. */
const OPENING_DEPTH_TRADES = 50;

/**
 * The best level's depth before the day's first trade: the mean depth the tape's first quotes show (unlocked ones),
 * so a busy book is as deep before its first trade as after it; twice a typical trade when no quote is unlocked.
 */
export function openingBestDepth(tape: Tape): number {
  const n = Math.min(tape.times.length, OPENING_DEPTH_TRADES);
  let sum = 0;
  let sides = 0;
  for (let k = 0; k < n; k++) {
    if (tape.bidVolumes[k] === 0 || tape.askVolumes[k] === 0) continue;
    sum += tape.bidVolumes[k]! + tape.askVolumes[k]!;
    sides += 2;
  }
  if (sides > 0) return Math.max(1, Math.round(sum / sides));
  let volume = 0;
  for (let k = 0; k < n; k++) volume += tape.volumes[k]!;
  return 1 + Math.round(n === 0 ? 2 : (2 * volume) / n);
}

/** The refill half-life of a book: the time its tape takes to print REFILL_TRADES trades, within the bounds. */
export function refillHalfLife(tape: Tape): number {
  const n = tape.times.length;
  const spacingMs = n > 1 ? (tape.times[n - 1]! - tape.times[0]!) / 1000 / (n - 1) : Number.POSITIVE_INFINITY;
  return Math.min(REFILL_HALF_LIFE_MS.max, Math.max(REFILL_HALF_LIFE_MS.min, REFILL_TRADES * spacingMs));
}

/**
 * The latent depth from the best price through `price`: V·((|price − best| + tick)/(best·Y·σ))², the volume an order
 * must take to move the price that far by the square-root law (the best level holds the first tick's worth).
 */
export function latentDepthThrough(model: DepthModel, best: number, price: number): number {
  const distance =
    (Math.abs(price - best) + tickAt(model.rules.ticks, best)) / (best * IMPACT_Y * model.dailyVolatility);
  return model.dailyVolume * distance * distance;
}

/** The latent depth of the level at `price`, the one after the level at `previous`: at least one unit. */
export function latentLevelDepth(model: DepthModel, best: number, previous: number, price: number): number {
  return Math.max(1, Math.round(latentDepthThrough(model, best, price) - latentDepthThrough(model, best, previous)));
}
