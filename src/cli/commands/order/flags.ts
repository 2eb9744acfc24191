// Flag values the order commands share: prices, custom_field, the security types that can be traded, --no-wait.

import { InvalidArgumentError, Option } from 'commander';
import { FUTURES_PRICE_TYPES, isValidCustomField, type PriceType } from '../../../domain/orders.js';
import { decimal } from '../../parsers.js';

export const ORDER_SECURITY_TYPES = ['STK', 'WRT', 'FUT', 'OPT'] as const;
export type OrderSecurityType = (typeof ORDER_SECURITY_TYPES)[number];
export const PRICE_TYPES = [...new Set<PriceType>(['LMT', 'MKT', ...FUTURES_PRICE_TYPES])];

/** A price: a number from 0. */
export function price(value: string): number {
  const number = decimal(value);
  if (number < 0) throw new InvalidArgumentError('expected a price from 0');
  return number;
}

/** custom_field: up to 6 letters or digits. */
export function customField(value: string): string {
  if (!isValidCustomField(value)) throw new InvalidArgumentError('expected up to 6 letters or digits');
  return value;
}

export const noWaitOption = (what: string) =>
  new Option('--no-wait', `return the API's answer at once instead of waiting for ${what}`);
