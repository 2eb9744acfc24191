// What the market data commands share: the contract flags (--security-type, --exchange, --combo-with) and how a
// code, or a combo of two, becomes the contract of a request.

import { InvalidArgumentError, Option } from 'commander';
import type { ComboRef, ContractRef, InstrumentRef } from '../../../contract/wire.js';
import { isContinuousCode } from '../../../domain/contracts.js';
import type { Cli } from '../../context.js';
import { codeList, oneOf, text } from '../../parsers.js';

/** A column-oriented answer: every key an array of the same length (ticks, kbars, regulatory, daily quotes). */
export type Columns = Record<string, unknown[]>;

export const DATA_SECURITY_TYPES = ['STK', 'FUT', 'OPT', 'IND', 'WRT'] as const;
export const DATA_EXCHANGES = ['TSE', 'OTC', 'TAIFEX'] as const;

/** The contract flags every command shares: sent only when given (the daemon resolves the rest from its catalog). */
export interface ContractOptions {
  securityType?: (typeof DATA_SECURITY_TYPES)[number] | undefined;
  exchange?: (typeof DATA_EXCHANGES)[number] | undefined;
}

/** What `--codes` names: a code, or a combo written `code1+code2`. */
export type CodeOrCombo = string | readonly [string, string];

/** A contract with only the identity the user gave. */
export function contractRef(code: string, options: ContractOptions = {}): ContractRef {
  return {
    ...(options.securityType === undefined ? {} : { security_type: options.securityType }),
    ...(options.exchange === undefined ? {} : { exchange: options.exchange }),
    code,
  };
}

/** A code, or with `comboWith` the combo of the two; --security-type/--exchange apply to every leg. */
export function instrumentRef(code: string, options: ContractOptions = {}, comboWith?: string): InstrumentRef {
  if (comboWith === undefined) return contractRef(code, options);
  const combo: ComboRef = { legs: [contractRef(code, options), contractRef(comboWith, options)] };
  return combo;
}

/** `2330` or a combo `TXFR1+TXFR2` (exactly two non-empty legs). Throws InvalidArgumentError. */
export function codeOrCombo(value: string): CodeOrCombo {
  const parts = value.split('+').map((part) => part.trim());
  if (parts.some((part) => part === '')) {
    throw new InvalidArgumentError(`'${value}' has an empty code; write a combo as CODE1+CODE2`);
  }
  if (parts.length === 1) return parts[0] as string;
  if (parts.length !== 2) throw new InvalidArgumentError(`'${value}': a combo has two legs, CODE1+CODE2`);
  return [parts[0] as string, parts[1] as string];
}

/** Comma-separated codes, each a code or a combo `CODE1+CODE2`: `2330,TXFR1+TXFR2`. */
export function codesWithCombos(value: string): CodeOrCombo[] {
  return codeList(value).map(codeOrCombo);
}

export const securityTypeOption = (
  types: readonly string[] = DATA_SECURITY_TYPES,
  description = `security type: ${types.join(', ')} (default: from the catalog)`,
) => new Option('--security-type <TYPE>', description).argParser(oneOf(types));
export const exchangeOption = (exchanges: readonly string[] = DATA_EXCHANGES) =>
  new Option('--exchange <EXCHANGE>', `exchange: ${exchanges.join(', ')} (default: from the catalog)`).argParser(
    oneOf(exchanges),
  );
export const comboOption = () =>
  new Option('--combo-with <CODE>', 'the second leg: query the combo of --code and this code').argParser(text);

/**
 * The code of a combo leg as the daemon takes it: a continuous alias (TXFR1) stands for the month it is today
 * (TXFL6), so that `--combo-with TXFR2` keeps working as the months roll; any other code as given.
 */
export async function legCode(cli: Cli, code: string): Promise<string> {
  if (!isContinuousCode(code.toUpperCase())) return code;
  const contract = await cli.call((client) => client.contracts.get(code));
  return contract.target_code ?? contract.code;
}

/** The options with --code and --combo-with as legCode makes them, when there is a combo; else as given. */
export async function withComboLegs<O extends { code: string; comboWith?: string | undefined }>(
  cli: Cli,
  options: O,
): Promise<O> {
  if (options.comboWith === undefined) return options;
  return { ...options, code: await legCode(cli, options.code), comboWith: await legCode(cli, options.comboWith) };
}
