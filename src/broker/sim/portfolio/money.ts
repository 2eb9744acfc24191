// Whole-NT$ arithmetic shared by the books: deal values, proportional shares of an amount, T+2.

import { nextTradingDay } from '../../../domain/calendar.js';

/**
 * The value of a stock deal in whole NT$: price x shares, the fraction of a dollar dropped (an odd-lot deal such
 * as 3 shares at 575.5 is worth 1,726). Board-lot values are always whole.
 */
export function stockDealValue(price: number, shares: number): number {
  return Math.floor(Math.round(price * shares * 100) / 100 + 1e-9);
}

/**
 * The part of `total` that `part` of `whole` units carry. Taking parts one after another from what is left
 * (total and whole both reduced each time) hands out exactly `total`: the last part takes the remainder.
 */
export function proportional(total: number, part: number, whole: number): number {
  if (part >= whole) return total;
  return Math.round((total * part) / whole);
}

/** A running remainder of an amount over units, handed out in parts that always add up to the whole. */
export class Apportioner {
  constructor(
    private amount: number,
    private units: number,
  ) {}

  take(units: number): number {
    const part = proportional(this.amount, units, this.units);
    this.amount -= part;
    this.units -= units;
    return part;
  }

  get left(): number {
    return this.amount;
  }
}

/** Rounded to whole NT$, never -0. */
export const wholeDollars = (value: number): number => Math.round(value) + 0;

export const round2 = (value: number): number => Math.round(value * 100) / 100 + 0;

/** Percent with two decimals; 0 when the base is 0. */
export const percentOf = (part: number, base: number): number => (base === 0 ? 0 : round2((part / base) * 100));

/** Stock deals settle two trading days after the trading day they belong to (T+2). */
export const settlementDay = (day: string): string => nextTradingDay(nextTradingDay(day));

/** The money's sign for a side: a buy pays, a sell receives. */
export const directionSign = (direction: 'Buy' | 'Sell'): 1 | -1 => (direction === 'Buy' ? 1 : -1);
