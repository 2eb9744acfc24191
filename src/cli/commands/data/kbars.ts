// `sjgate data kbars`: one-minute bars, one row per bar.

import type { Command } from 'commander';
import type { KbarsRequest } from '../../../contract/wire.js';
import { action, type CliEnv, UsageError } from '../../context.js';
import { formatTable, rowsOfColumns } from '../../output.js';
import { dateOrToday, text } from '../../parsers.js';
import {
  type Columns,
  type ContractOptions,
  comboOption,
  exchangeOption,
  instrumentRef,
  securityTypeOption,
  withComboLegs,
} from './flags.js';

export interface KbarsOptions extends ContractOptions {
  code: string;
  start?: string | undefined;
  end?: string | undefined;
  comboWith?: string | undefined;
}

/** The body of POST /data/kbars; start and end are left to the daemon (today) when not given. */
export function kbarsRequest(options: KbarsOptions): KbarsRequest {
  if (options.start !== undefined && options.end !== undefined && options.start > options.end) {
    throw new UsageError(`--start ${options.start} is after --end ${options.end}`);
  }
  return {
    contract: instrumentRef(options.code, options, options.comboWith),
    ...(options.start === undefined ? {} : { start: options.start }),
    ...(options.end === undefined ? {} : { end: options.end }),
  };
}

export function registerKbars(data: Command, env: CliEnv): void {
  data
    .command('kbars')
    .description('one-minute bars from --start to --end (at most 30 days)')
    .requiredOption('--code <CODE>', 'product code, e.g. 2330, TXFR1', text)
    .option('--start <DATE>', 'first day, YYYY-MM-DD or today (default: today)', dateOrToday)
    .option('--end <DATE>', 'last day, YYYY-MM-DD or today (default: today)', dateOrToday)
    .addOption(securityTypeOption())
    .addOption(exchangeOption())
    .addOption(comboOption())
    .addHelpText(
      'after',
      `
Examples:
  $ sjgate data kbars --code 2330
  $ sjgate data kbars --code TXFR1 --start 2026-07-01 --end 2026-07-03
  $ sjgate data kbars --code TXFR1 --combo-with TXFR2 --format json`,
    )
    .action(
      action<KbarsOptions>(env, async (cli, options) => {
        const body = kbarsRequest(await withComboLegs(cli, options));
        const kbars = await cli.call((client) => client.data.kbars<Columns>(body));
        cli.emit(kbars, (value, color) => formatTable(rowsOfColumns(value), undefined, color));
      }),
    );
}
