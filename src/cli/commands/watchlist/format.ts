// What the watchlist commands share: the contracts named by code, and a watchlist as a heading and a table.

import { type Command, Option } from 'commander';
import type { Watchlist } from '../../../contract/wire.js';
import { formatHeading, formatTable } from '../../output.js';
import { argumentOrFlag as given, text } from '../../parsers.js';

/** The fields of a Watchlist, which --json may select before the request. */
export const WATCHLIST_FIELDS = [
  'id',
  'person_id',
  'name',
  'contracts',
] as const satisfies readonly (keyof Watchlist)[];

const CONTRACT_COLUMNS = ['security_type', 'exchange', 'code', 'target_code'];

/** Codes as the API's contract requests; the gateway finds each one's type and exchange unless it is given. */
export const contractsOf = (codes: readonly string[], securityType?: string) =>
  codes.map((code) => (securityType === undefined ? { code } : { code, security_type: securityType }));

/** The official CLI's flags, which sjgate takes beside its arguments: --id, --name, --codes A,B and --security-type. */
export interface OfficialFlags {
  id?: string;
  name?: string;
  codes?: string;
  securityType?: string;
}

/** Adds the official CLI's flags a command takes. */
export function withOfficialFlags(command: Command, flags: readonly ('id' | 'name' | 'codes')[]): Command {
  if (flags.includes('id')) command.option('--id <ID>', 'the watchlist (or give it as the argument)');
  if (flags.includes('name')) command.option('--name <NAME>', 'the name (or give it as the argument)');
  if (flags.includes('codes')) {
    command
      .option('--codes <CODES>', 'comma-separated codes (or give them as arguments)')
      .addOption(
        new Option('--security-type <TYPE>', 'the type of every code, when a code names more than one').choices([
          'STK',
          'IND',
          'FUT',
          'OPT',
          'WRT',
        ]),
      );
  }
  return command;
}

/** The argument, else the flag, as a non-empty text (see parsers.argumentOrFlag). */
export const argumentOrFlag = (argument: string | undefined, flag: string | undefined, what: string): string =>
  text(given(argument, flag, what));

/** The contracts of the arguments and of --codes, in that order, with --security-type when given. */
export function contractsOfFlags(codes: readonly string[], options: OfficialFlags) {
  const listed = (options.codes ?? '')
    .split(',')
    .map((code) => code.trim())
    .filter((code) => code !== '');
  return contractsOf([...codes, ...listed].map(text), options.securityType);
}

/** `wl-1  tech  (2 contracts)` and the contracts as a table. */
export function formatWatchlist(list: Watchlist, color = false): string {
  const count = list.contracts.length === 1 ? '1 contract' : `${list.contracts.length} contracts`;
  const heading = formatHeading(`${list.id}  ${list.name}  (${count})`, color);
  return list.contracts.length === 0 ? heading : `${heading}\n${formatTable(list.contracts, CONTRACT_COLUMNS, color)}`;
}

/** One row per list: id, name, how many contracts and their codes. */
export function formatWatchlists(lists: readonly Watchlist[], color = false): string {
  if (lists.length === 0) return 'No watchlists; `sjgate watchlist create NAME [CODE...]` makes one.';
  const rows = lists.map(({ id, name, contracts }) => ({
    id,
    name,
    contracts: contracts.length,
    codes: contracts.map((c) => c.code).join(' '),
  }));
  return formatTable(rows, ['id', 'name', 'contracts', 'codes'], color);
}
