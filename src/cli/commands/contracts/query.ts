// What the contract commands share: --region and --type, and the query of a GET built from the flags given.

import { Option } from 'commander';
import { EXCHANGES, REGIONS } from '../../../domain/contracts.js';
import type { QueryValue } from '../../client.js';
import { oneOf } from '../../parsers.js';

/** The options of a contract command as commander parsed them. */
export type Options = Record<string, string | number | boolean | string[] | undefined>;

export const regionOption = () =>
  new Option('--region <REGION>', `market region: ${REGIONS.join(', ')} (default TW)`).argParser(oneOf(REGIONS));
export const exchangeOption = () =>
  new Option('--exchange <EXCHANGE>', `only a contract listed there: ${EXCHANGES.join(', ')}`).argParser(
    oneOf(EXCHANGES),
  );
export const typeOption = (types: readonly string[], description = 'security type') =>
  new Option('--type <TYPE>', `${description}: ${types.join(', ')}`).argParser(oneOf(types));

/** Only the values the user gave. */
export function queryOf(values: Record<string, unknown>): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') query[key] = value;
  }
  return query;
}
