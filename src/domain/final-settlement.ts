// TAIFEX's final settlement of an expiring contract (docs/exchange-rules.md, "Expiry and final settlement"): when its
// last trading day stops trading, which prices of the underlying its final settlement price averages, how that
// average is rounded, and what each position receives or pays at it. Pure rules; the simulator supplies the prices.

import { taipeiInstant } from './time.js';

/** An expiring contract stops trading at 13:30 on its last trading day (the underlying market's close). */
export const EXPIRY_CLOSE = '13:30';

/** The instant an expiring contract stops trading: 13:30 of its last trading day. */
export function expiryCloseAt(lastTradingDay: string): number {
  return taipeiInstant(lastTradingDay, EXPIRY_CLOSE);
}

/** How the final settlement price of a kind of underlying is fixed. */
export interface FixingRule {
  /** First sampled instant of the window, Taipei time of the last trading day. */
  from: string;
  /** Last sampled instant before the closing auction. */
  to: string;
  /** The underlying is disclosed every this many ms (TWSE computes its indices every 5 seconds). */
  stepMs: number;
  /** The average is rounded to this step (one index point; NT$0.01 for a stock). */
  roundTo: number;
}

/**
 * Index futures (TX, MTX, TMF and the weekly Mini-TAIEX) and TAIEX options (the monthly TXO and its Wednesday and
 * Friday weeklies): the simple mean of the index disclosed from 13:00 to 13:25 and the last index (the 13:30
 * close), rounded to one index point, a half point up.
 */
export const INDEX_FIXING: FixingRule = { from: '13:00', to: '13:25', stepMs: 5000, roundTo: 1 };

/**
 * Stock and ETF futures (and stock options): the simple mean of the underlying's price at each index disclosure from
 * 12:30 to 13:25 and its last price (the close), rounded to two decimals.
 */
export const STOCK_FIXING: FixingRule = { from: '12:30', to: '13:25', stepMs: 5000, roundTo: 0.01 };

/** The instants a final settlement price samples on a last trading day: the window, then the 13:30 close. */
export function fixingInstants(rule: FixingRule, lastTradingDay: string): number[] {
  const instants: number[] = [];
  const end = taipeiInstant(lastTradingDay, rule.to);
  for (let t = taipeiInstant(lastTradingDay, rule.from); t <= end; t += rule.stepMs) instants.push(t);
  instants.push(expiryCloseAt(lastTradingDay));
  return instants;
}

/** The simple mean of the sampled prices, rounded to the rule's step, an exact half step up. */
export function finalSettlementPrice(samples: readonly number[], roundTo: number): number {
  if (samples.length === 0) throw new RangeError('a final settlement price needs at least one sampled price');
  const mean = samples.reduce((sum, price) => sum + price, 0) / samples.length;
  // Rounded on whole hundredths first, so a mean such as 100.4999999 that is 100.5 in decimals rounds up.
  const steps = Math.round((mean / roundTo) * 1e6) / 1e6;
  const rounded = Math.floor(steps + 0.5) * roundTo;
  return Math.round(rounded * 100) / 100;
}

/** What an option is worth at expiry, per unit of its multiplier: the amount it is in the money, else 0. */
export function intrinsicValue(right: 'C' | 'P', strike: number, settlement: number): number {
  const value = right === 'C' ? settlement - strike : strike - settlement;
  return Math.max(0, Math.round(value * 100) / 100);
}
