// `sjgate data ticks`: the ticks of a day, one row per tick.

import { type Command, Option } from 'commander';
import type { TicksRequest } from '../../../contract/wire.js';
import { action, type CliEnv, UsageError } from '../../context.js';
import { formatTable, rowsOfColumns } from '../../output.js';
import { dateOrToday, integerIn, text, timeOfDay } from '../../parsers.js';
import {
  type Columns,
  type ContractOptions,
  comboOption,
  exchangeOption,
  instrumentRef,
  securityTypeOption,
  withComboLegs,
} from './flags.js';

const DEFAULT_LAST = 10;

export interface TicksOptions extends ContractOptions {
  code: string;
  date?: string | undefined;
  last?: number | undefined;
  all?: boolean | undefined;
  timeStart?: string | undefined;
  timeEnd?: string | undefined;
  comboWith?: string | undefined;
}

/** The body of POST /data/ticks: LastCount 10 unless --last, --all or a time range says otherwise. */
export function ticksRequest(options: TicksOptions): TicksRequest {
  const { timeStart, timeEnd } = options;
  if ((timeStart === undefined) !== (timeEnd === undefined)) {
    throw new UsageError('--time-start and --time-end go together');
  }
  const ranged = timeStart !== undefined && timeEnd !== undefined;
  const chosen = [options.all === true, options.last !== undefined, ranged].filter(Boolean).length;
  if (chosen > 1) throw new UsageError('choose one of --last, --all, or --time-start with --time-end');
  const body: TicksRequest = {
    contract: instrumentRef(options.code, options, options.comboWith),
    ...(options.date === undefined ? {} : { date: options.date }),
    query_type: 'LastCount',
  };
  if (options.all === true) return { ...body, query_type: 'AllDay' };
  if (ranged) return { ...body, query_type: 'RangeTime', time_start: timeStart, time_end: timeEnd };
  return { ...body, last_cnt: options.last ?? DEFAULT_LAST };
}

export function registerTicks(data: Command, env: CliEnv): void {
  data
    .command('ticks')
    .description('the ticks of a day: the last N (default 10), all of them, or a time range')
    .requiredOption('--code <CODE>', 'product code, e.g. 2330, TXFR1', text)
    .option('--date <DATE>', 'trading day, YYYY-MM-DD or today (default: the latest trading day)', dateOrToday)
    .addOption(new Option('--last <N>', `the last N ticks (default ${DEFAULT_LAST})`).argParser(integerIn(1)))
    .addOption(new Option('--all', 'every tick of the day').conflicts('last'))
    .addOption(new Option('--time-start <HH:MM:SS>', 'ticks from this time (with --time-end)').argParser(timeOfDay))
    .addOption(new Option('--time-end <HH:MM:SS>', 'ticks up to this time (with --time-start)').argParser(timeOfDay))
    .addOption(securityTypeOption())
    .addOption(exchangeOption())
    .addOption(comboOption())
    .addHelpText(
      'after',
      `
Examples:
  $ sjgate data ticks --code 2330
  $ sjgate data ticks --code 2330 --date 2026-07-15 --all
  $ sjgate data ticks --code TXFR1 --time-start 09:00:00 --time-end 09:05:00
  $ sjgate data ticks --code TXFR1 --combo-with TXFR2 --last 5`,
    )
    .action(
      action<TicksOptions>(env, async (cli, options) => {
        const body = ticksRequest(await withComboLegs(cli, options));
        const ticks = await cli.call((client) => client.data.ticks<Columns>(body));
        cli.emit(ticks, (value, color) => formatTable(rowsOfColumns(value), undefined, color));
      }),
    );
}
