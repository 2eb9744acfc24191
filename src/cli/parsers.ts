// Parsers for option values. Each throws commander's InvalidArgumentError, which exits 2 with the option named.

import { InvalidArgumentError, Option } from 'commander';
import { UsageError } from './errors.js';

export function integerIn(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!/^\d+$/.test(value.trim()) || number < min || number > max) {
      throw new InvalidArgumentError(
        `expected an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}`,
      );
    }
    return number;
  };
}

export function decimal(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number)) throw new InvalidArgumentError('expected a number');
  return number;
}

/** One of `choices`, in any letter case; returns the spelling in `choices`. */
export function oneOf<T extends string>(choices: readonly T[]): (value: string) => T {
  return (value) => {
    const found = choices.find((choice) => choice.toLowerCase() === value.trim().toLowerCase());
    if (found === undefined) throw new InvalidArgumentError(`expected one of ${choices.join(', ')}`);
    return found;
  };
}

export function month(value: string): string {
  if (!/^\d{4}(0[1-9]|1[0-2])$/.test(value)) throw new InvalidArgumentError('expected a month as YYYYMM, e.g. 202607');
  return value;
}

export function date(value: string): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(value)) {
    throw new InvalidArgumentError('expected a date as YYYY-MM-DD');
  }
  return value;
}

/** A non-empty trimmed text (codes, roots). */
export function text(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new InvalidArgumentError('must not be empty');
  return trimmed;
}

/** An account as --account names it. */
export interface AccountSelector {
  broker_id: string;
  account_id: string;
}

/** `BROKER-ACCOUNT`, e.g. `9A95-1234567`: split at the first '-'. */
export function account(value: string): AccountSelector {
  const dash = value.indexOf('-');
  const broker_id = value.slice(0, dash).trim();
  const account_id = value.slice(dash + 1).trim();
  if (dash < 0 || broker_id === '' || account_id === '') {
    throw new InvalidArgumentError('expected BROKER-ACCOUNT, e.g. 9A95-1234567');
  }
  return { broker_id, account_id };
}

/** `--account BROKER-ACCOUNT`, for commands that act on one account ("stock", "futures" or any kind). */
export const accountOption = (kind = '') =>
  new Option(
    '--account <BROKER-ACCOUNT>',
    `the ${kind ? `${kind} ` : ''}account, e.g. 9A95-1234567 (default: the default account of the type)`,
  ).argParser(account);

/** Comma-separated codes: `TXFR1,TXFR2`. */
export function codeList(value: string): string[] {
  const codes = value
    .split(',')
    .map((code) => code.trim())
    .filter((code) => code !== '');
  if (codes.length === 0) throw new InvalidArgumentError('expected codes separated by commas');
  return codes;
}

/**
 * A value sjgate takes as an argument and the official CLI as a flag: the argument, else the flag. A usage error naming
 * both when neither is given, or when they differ.
 */
export function argumentOrFlag<T>(argument: T | undefined, flag: T | undefined, what: string): T {
  if (argument !== undefined && flag !== undefined && argument !== flag) {
    throw new UsageError(`the ${what} is given twice, as ${argument} and as --${what} ${flag}: give it once`);
  }
  const value = argument ?? flag;
  if (value === undefined || value === '') throw new UsageError(`give the ${what}, as the argument or --${what}`);
  return value;
}

/** Today's date in Taiwan (UTC+8, no daylight saving) as YYYY-MM-DD. */
export function taipeiDate(now: Date = new Date()): string {
  return new Date(now.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
}

/** A date as YYYY-MM-DD, or `today` (the date in Taiwan), as the official CLI's date flags take. */
export function dateOrToday(value: string): string {
  return value.trim().toLowerCase() === 'today' ? taipeiDate() : date(value.trim());
}

/** A time of day as HH:MM:SS (HH:MM means HH:MM:00). */
export function timeOfDay(value: string): string {
  const match = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/.exec(value.trim());
  if (match === null) throw new InvalidArgumentError('expected a time as HH:MM:SS, e.g. 09:00:00');
  return `${match[1]}:${match[2]}:${match[3] ?? '00'}`;
}

/** true/false (also yes/no, 1/0), for flags that take `--flag=false`. */
export function boolean(value: string): boolean {
  const lower = value.trim().toLowerCase();
  if (['true', 'yes', '1'].includes(lower)) return true;
  if (['false', 'no', '0'].includes(lower)) return false;
  throw new InvalidArgumentError('expected true or false');
}

/** `ChangePercentRank` → `change-percent-rank`: how the CLI spells enum values. */
export function kebabCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/**
 * A parser of an enum written in any letter case, in kebab or snake case or as the API spells it:
 * `intraday-odd`, `intraday_odd`, `IntradayOdd` → `IntradayOdd`. Throws InvalidArgumentError listing the choices.
 */
export function enumValue<T extends string>(choices: readonly T[]): (value: string) => T {
  return (value) => {
    const key = value.trim().toLowerCase().replace(/[-_]/g, '');
    const found = choices.find((choice) => choice.toLowerCase() === key);
    if (found === undefined) throw new InvalidArgumentError(`expected one of ${choices.map(kebabCase).join(', ')}`);
    return found;
  };
}
