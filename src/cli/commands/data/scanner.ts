// `sjgate data scanner`: the stock ranking of a day.

import { type Command, Option } from 'commander';
import { SCANNER_TYPES, type ScannerType } from '../../../domain/market-data.js';
import { action, type CliEnv } from '../../context.js';
import { formatTable, type Row } from '../../output.js';
import { dateOrToday, enumValue, integerIn, kebabCase } from '../../parsers.js';

const DEFAULT_SCANNER_TYPE: ScannerType = 'ChangePercentRank';
const DEFAULT_SCANNER_COUNT = 50;

const COLUMNS = [
  'code',
  'name',
  'close',
  'change_price',
  'price_range',
  'total_volume',
  'total_amount',
  'volume_ratio',
  'rank_value',
];

export interface ScannerOptions {
  scannerType?: ScannerType | undefined;
  date?: string | undefined;
  ascending?: boolean | undefined;
  count?: number | undefined;
}

export interface ScannerRequest {
  scanner_type: ScannerType;
  date?: string;
  ascending: boolean;
  count: number;
}

/** `change-percent-rank` (also `ChangePercentRank`, `change_percent_rank`) → `ChangePercentRank`. */
export const scannerType = enumValue(SCANNER_TYPES);

/** The body of POST /data/scanner. `--ascending` is the HTTP `ascending: true` (largest first); without it, false. */
export function scannerRequest(options: ScannerOptions): ScannerRequest {
  return {
    scanner_type: options.scannerType ?? DEFAULT_SCANNER_TYPE,
    ...(options.date === undefined ? {} : { date: options.date }),
    ascending: options.ascending === true,
    count: options.count ?? DEFAULT_SCANNER_COUNT,
  };
}

export function registerScanner(data: Command, env: CliEnv): void {
  data
    .command('scanner')
    .description('the stock ranking of a day: change, range, volume, amount or tick count')
    .addOption(
      new Option('--scanner-type <TYPE>', `ranking: ${SCANNER_TYPES.map(kebabCase).join(', ')}`)
        .argParser(scannerType)
        .default(DEFAULT_SCANNER_TYPE, kebabCase(DEFAULT_SCANNER_TYPE)),
    )
    .option('--date <DATE>', 'trading day, YYYY-MM-DD or today (default: today)', dateOrToday)
    .option('--ascending', 'largest first (default: smallest first)')
    .option('--count <N>', 'how many stocks, 0 to 200', integerIn(0, 200), DEFAULT_SCANNER_COUNT)
    .addHelpText(
      'after',
      `
Examples:
  $ sjgate data scanner
  $ sjgate data scanner --scanner-type volume-rank --ascending --count 20
  $ sjgate data scanner --scanner-type day-range-rank --date 2026-07-15`,
    )
    .action(
      action<ScannerOptions>(env, async (cli, options) => {
        const body = scannerRequest(options);
        const items = await cli.call((client) => client.data.scanner<Row[]>(body));
        cli.emit(items, (rows, color) => formatTable(rows, COLUMNS, color));
      }),
    );
}
