// `sjgate data daily-quotes`: the daily quote of every stock on a day.

import { type Command, Option } from 'commander';
import { action, type CliEnv } from '../../context.js';
import { formatTable, rowsOfColumns } from '../../output.js';
import { boolean, dateOrToday } from '../../parsers.js';
import type { Columns } from './flags.js';

export interface DailyQuotesOptions {
  date?: string | undefined;
  excludeWarrant?: boolean | undefined;
}

export interface DailyQuotesRequest {
  date?: string;
  exclude: boolean;
}

/** The body of POST /data/daily_quotes: warrants left out unless --no-exclude-warrant. */
export function dailyQuotesRequest(options: DailyQuotesOptions): DailyQuotesRequest {
  return {
    ...(options.date === undefined ? {} : { date: options.date }),
    exclude: options.excludeWarrant ?? true,
  };
}

export function registerDailyQuotes(data: Command, env: CliEnv): void {
  data
    .command('daily-quotes')
    .description('the daily quote of every stock on a day')
    .option('--date <DATE>', 'trading day, YYYY-MM-DD or today (default: today)', dateOrToday)
    .addOption(
      new Option(
        '--exclude-warrant [BOOL]',
        'leave warrants out (default: true; --exclude-warrant=false to include)',
      ).argParser(boolean),
    )
    .option('--no-exclude-warrant', 'include warrants')
    .addHelpText(
      'after',
      '\nExamples:\n  $ sjgate data daily-quotes\n  $ sjgate data daily-quotes --date 2026-07-15 --no-exclude-warrant',
    )
    .action(
      action<DailyQuotesOptions>(env, async (cli, options) => {
        const body = dailyQuotesRequest(options);
        const quotes = await cli.call((client) => client.data.dailyQuotes<Columns>(body));
        cli.emit(quotes, (value, color) => formatTable(rowsOfColumns(value), undefined, color));
      }),
    );
}
