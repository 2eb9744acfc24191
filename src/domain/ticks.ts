// Tick grids and daily price limits of TWSE, TPEx and TAIFEX.
// Prices are handled in thousandths (integers) so that grid checks never suffer from float error.

import type { TickBand, TickBandRule } from './contracts.js';

export type TickTable = readonly TickBand[];

const band = (min: number, max: number | null, tick: number): TickBand => ({ min, max, tick });

/** Stocks on TWSE, TPEx and the emerging board, and single-stock futures. */
export const STOCK_TICKS: TickTable = [
  band(0, 10, 0.01),
  band(10, 50, 0.05),
  band(50, 100, 0.1),
  band(100, 500, 0.5),
  band(500, 1000, 1),
  band(1000, null, 5),
];

/** ETFs, ETNs, REITs and other beneficiary certificates, and ETF futures. */
export const ETF_TICKS: TickTable = [band(0, 50, 0.01), band(50, null, 0.05)];

/** Call and put warrants. */
export const WARRANT_TICKS: TickTable = [
  band(0, 5, 0.01),
  band(5, 10, 0.05),
  band(10, 50, 0.1),
  band(50, 100, 0.5),
  band(100, 500, 1),
  band(500, null, 5),
];

/** TXO premiums (index points). */
export const TXO_PREMIUM_TICKS: TickTable = [
  band(0, 10, 0.1),
  band(10, 50, 0.5),
  band(50, 500, 1),
  band(500, 1000, 5),
  band(1000, null, 10),
];

/** Stock option premiums. */
export const STOCK_OPTION_PREMIUM_TICKS: TickTable = [
  band(0, 5, 0.01),
  band(5, 15, 0.05),
  band(15, 50, 0.1),
  band(50, 150, 0.5),
  band(150, 1000, 1),
  band(1000, null, 5),
];

/** The tick-band rules that TAIFEX products refer to by `tick_rule`. Fixed-tick products have none. */
export const TICK_BAND_RULES: readonly TickBandRule[] = [
  { region: 'TW', security_type: 'FUT', rule: 'STK', basis: 'price', bands: [...STOCK_TICKS] },
  { region: 'TW', security_type: 'FUT', rule: 'ETF', basis: 'price', bands: [...ETF_TICKS] },
  { region: 'TW', security_type: 'OPT', rule: 'TXO', basis: 'premium', bands: [...TXO_PREMIUM_TICKS] },
  { region: 'TW', security_type: 'OPT', rule: 'STO', basis: 'premium', bands: [...STOCK_OPTION_PREMIUM_TICKS] },
];

const milli = (price: number): number => Math.round(price * 1000);
const fromMilli = (value: number): number => value / 1000;
// Floor and ceiling in thousandths that ignore binary float noise (19.14 * 1000 = 19139.999...) but not real
// decimals below a thousandth (a warrant limit of 1.4195 floors to 1.419, not 1.420).
const milliFloor = (price: number): number => Math.floor(price * 1000 + 1e-6);
const milliCeil = (price: number): number => Math.ceil(price * 1000 - 1e-6);

/** The tick that applies at a price: the band with min <= price < max. */
export function tickAt(table: TickTable, price: number): number {
  const found = table.find((b) => price >= b.min && (b.max === null || price < b.max));
  return (found ?? table[0]!).tick;
}

export function isOnTickGrid(table: TickTable, price: number): boolean {
  return price > 0 && milli(price) % milli(tickAt(table, price)) === 0;
}

/** The largest valid price <= raw (the band is the one the result falls in). */
export function roundDownToTick(table: TickTable, raw: number): number {
  const value = milliFloor(raw);
  const tick = milli(tickAt(table, raw));
  return fromMilli(Math.floor(value / tick) * tick);
}

/** The smallest valid price >= raw. */
export function roundUpToTick(table: TickTable, raw: number): number {
  const value = milliCeil(raw);
  const tick = milli(tickAt(table, raw));
  return fromMilli(Math.ceil(value / tick) * tick);
}

/** The valid price nearest to raw (ties go up). */
export function roundToTick(table: TickTable, raw: number): number {
  const down = roundDownToTick(table, raw);
  const up = roundUpToTick(table, raw);
  return raw - down < up - raw ? down : up;
}

/** The price n ticks above (n > 0) or below (n < 0) a valid price, walking across bands. */
export function stepTicks(table: TickTable, price: number, n: number): number {
  let value = milli(price);
  for (let i = 0; i < Math.abs(n); i++) {
    const current = fromMilli(value);
    value += n > 0 ? milli(tickAt(table, current)) : -milli(tickAt(table, current - 1e-9));
  }
  return fromMilli(value);
}

export interface PriceLimits {
  limitUp: number;
  limitDown: number;
}

/**
 * Limits of `fraction` around a reference (TWSE Art. 63): limit-up is the largest valid price <= ref x (1 + f),
 * limit-down the smallest valid price >= ref x (1 - f); at least one tick either way, never below the lowest tick.
 */
export function percentLimits(table: TickTable, reference: number, fraction: number): PriceLimits {
  const lowest = table[0]!.tick;
  let limitUp = roundDownToTick(table, fromMilli((milli(reference) * (1000 + milli(fraction))) / 1000));
  let limitDown = roundUpToTick(table, fromMilli((milli(reference) * (1000 - milli(fraction))) / 1000));
  if (limitUp <= reference) limitUp = stepTicks(table, reference, 1);
  if (limitDown >= reference) limitDown = stepTicks(table, reference, -1);
  return { limitUp, limitDown: Math.max(limitDown, lowest) };
}

/** The quoted limits of a security without a daily limit (ETFs of foreign components), as TPEx publishes them. */
export const UNLIMITED: PriceLimits = { limitUp: 9999.95, limitDown: 0.01 };
