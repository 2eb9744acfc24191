// Flag values the order commands share: prices, custom_field, the security types that can be traded, --no-wait and
// --wait-timeout.

import { InvalidArgumentError, Option } from 'commander';
import { FUTURES_PRICE_TYPES, isValidCustomField, type PriceType } from '../../../domain/orders.js';
import { UsageError } from '../../context.js';
import { decimal, integerIn } from '../../parsers.js';

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

/** The longest --wait-timeout, in seconds: a command follows an order for at most this long. */
export const MAX_WAIT_SECONDS = 120;

export const waitTimeoutOption = (defaultSeconds: number) =>
  new Option(
    '--wait-timeout <SECONDS>',
    `stop following the order after this long (default ${defaultSeconds}, at most ${MAX_WAIT_SECONDS})`,
  ).argParser(integerIn(1, MAX_WAIT_SECONDS));

/** How long to follow the order, in ms: --wait-timeout or the default; --no-wait with --wait-timeout is refused. */
export function waitMs(options: { wait?: boolean | undefined; waitTimeout?: number | undefined }, defaultMs: number) {
  if (options.wait === false && options.waitTimeout !== undefined) {
    throw new UsageError('--no-wait and --wait-timeout contradict each other; give one');
  }
  return options.waitTimeout === undefined ? defaultMs : options.waitTimeout * 1000;
}
