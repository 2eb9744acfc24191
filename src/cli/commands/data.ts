// `sjgate data ticks|kbars|snapshots|scanner|credit-enquire|short-stock-sources|regulatory|daily-quotes`:
// market data with the official CLI's flags. Column-oriented answers are shown one row per entry.

import { type Command, InvalidArgumentError, Option } from 'commander';
import {
  type ComboRef,
  type ContractRef,
  type InstrumentRef,
  SCANNER_TYPES,
  type ScannerType,
  type TicksQueryType,
} from '../../domain/market-data.js';
import { action, UsageError } from '../context.js';
import type { Runtime } from '../daemon.js';
import { formatTable, type Row, rowsOfColumns } from '../output.js';
import { boolean, codeList, dateOrToday, integerIn, oneOf, text, timeOfDay } from '../parsers.js';

const BASE = '/api/v1/data';

/** A column-oriented answer: every key an array of the same length (ticks, kbars, regulatory, daily quotes). */
type Columns = Record<string, unknown[]>;

export const DATA_SECURITY_TYPES = ['STK', 'FUT', 'OPT', 'IND'] as const;
export const DATA_EXCHANGES = ['TSE', 'OTC', 'TAIFEX'] as const;
export const REGULATORY_TYPES = ['punish', 'notice'] as const;
export type RegulatoryType = (typeof REGULATORY_TYPES)[number];

const DEFAULT_LAST = 10;
const DEFAULT_SCANNER_TYPE: ScannerType = 'ChangePercentRank';
const DEFAULT_SCANNER_COUNT = 50;

const COLUMNS = {
  snapshots: [
    'code',
    'datetime',
    'open',
    'high',
    'low',
    'close',
    'change_price',
    'change_rate',
    'total_volume',
    'buy_price',
    'sell_price',
  ],
  scanner: [
    'code',
    'name',
    'close',
    'change_price',
    'price_range',
    'total_volume',
    'total_amount',
    'volume_ratio',
    'rank_value',
  ],
  credit: ['stock_id', 'system', 'margin_unit', 'short_unit', 'margin_loan_ratio', 'short_margin_ratio', 'update_time'],
  shortSources: ['code', 'short_stock_source', 'datetime'],
};

/** The contract flags every command shares: sent only when given (the daemon resolves the rest from its catalog). */
export interface ContractOptions {
  securityType?: (typeof DATA_SECURITY_TYPES)[number] | undefined;
  exchange?: (typeof DATA_EXCHANGES)[number] | undefined;
}

export interface TicksOptions extends ContractOptions {
  code: string;
  date?: string | undefined;
  last?: number | undefined;
  all?: boolean | undefined;
  timeStart?: string | undefined;
  timeEnd?: string | undefined;
  comboWith?: string | undefined;
}

export interface TicksRequest {
  contract: InstrumentRef;
  date?: string;
  query_type: TicksQueryType;
  time_start?: string;
  time_end?: string;
  last_cnt?: number;
}

export interface KbarsOptions extends ContractOptions {
  code: string;
  start?: string | undefined;
  end?: string | undefined;
  comboWith?: string | undefined;
}

export interface KbarsRequest {
  contract: InstrumentRef;
  start?: string;
  end?: string;
}

/** What `--codes` names: a code, or a combo written `code1+code2`. */
export type CodeOrCombo = string | readonly [string, string];

export interface SnapshotsOptions extends ContractOptions {
  codes: readonly CodeOrCombo[];
}

export interface CodesOptions extends ContractOptions {
  codes: readonly string[];
}

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

export interface DailyQuotesOptions {
  date?: string | undefined;
  excludeWarrant?: boolean | undefined;
}

export interface DailyQuotesRequest {
  date?: string;
  exclude: boolean;
}

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

/** `2330` or a combo `TXFG6+TXFH6` (exactly two non-empty legs). Throws InvalidArgumentError. */
export function codeOrCombo(value: string): CodeOrCombo {
  const parts = value.split('+').map((part) => part.trim());
  if (parts.some((part) => part === '')) {
    throw new InvalidArgumentError(`'${value}' has an empty code; write a combo as CODE1+CODE2`);
  }
  if (parts.length === 1) return parts[0] as string;
  if (parts.length !== 2) throw new InvalidArgumentError(`'${value}': a combo has two legs, CODE1+CODE2`);
  return [parts[0] as string, parts[1] as string];
}

/** Comma-separated codes, each a code or a combo `CODE1+CODE2`: `2330,TXFG6+TXFH6`. */
export function codesWithCombos(value: string): CodeOrCombo[] {
  return codeList(value).map(codeOrCombo);
}

/** `change-percent-rank` (also `ChangePercentRank`, `change_percent_rank`) → `ChangePercentRank`. */
export function scannerType(value: string): ScannerType {
  const key = value.trim().toLowerCase().replace(/[-_]/g, '');
  const found = SCANNER_TYPES.find((type) => type.toLowerCase() === key);
  if (found === undefined) {
    throw new InvalidArgumentError(`expected one of ${SCANNER_TYPES.map(kebabCase).join(', ')}`);
  }
  return found;
}

/** `ChangePercentRank` → `change-percent-rank`: how the CLI spells enum values. */
export function kebabCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
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

/** The body of POST /data/snapshots: each code a contract, each `a+b` a combo. */
export function snapshotsRequest(options: SnapshotsOptions): { contracts: InstrumentRef[] } {
  return {
    contracts: options.codes.map((entry) =>
      typeof entry === 'string' ? contractRef(entry, options) : instrumentRef(entry[0], options, entry[1]),
    ),
  };
}

/** The body of POST /data/credit_enquire and /data/short_stock_sources. */
export function contractsRequest(options: CodesOptions): { contracts: ContractRef[] } {
  return { contracts: options.codes.map((code) => contractRef(code, options)) };
}

/** The body of POST /data/scanner. `--ascending` is the HTTP `ascending: true` (largest first); without it, false. */
export function scannerRequest(options: ScannerOptions): ScannerRequest {
  return {
    scanner_type: options.scannerType ?? DEFAULT_SCANNER_TYPE,
    ...(options.date === undefined ? {} : { date: options.date }),
    ascending: options.ascending === true,
    count: options.count ?? DEFAULT_SCANNER_COUNT,
  };
}

/** The body of POST /data/daily_quotes: warrants left out unless --no-exclude-warrant. */
export function dailyQuotesRequest(options: DailyQuotesOptions): DailyQuotesRequest {
  return {
    ...(options.date === undefined ? {} : { date: options.date }),
    exclude: options.excludeWarrant ?? true,
  };
}

export function regulatoryPath(type: RegulatoryType = 'punish'): string {
  return `${BASE}/regulatory_${type}`;
}

const securityTypeOption = (types: readonly string[] = DATA_SECURITY_TYPES) =>
  new Option('--security-type <TYPE>', `security type: ${types.join(', ')} (default: from the catalog)`).argParser(
    oneOf(types),
  );
const exchangeOption = (exchanges: readonly string[] = DATA_EXCHANGES) =>
  new Option('--exchange <EXCHANGE>', `exchange: ${exchanges.join(', ')} (default: from the catalog)`).argParser(
    oneOf(exchanges),
  );
const comboOption = () =>
  new Option('--combo-with <CODE>', 'the second leg: query the combo of --code and this code').argParser(text);

export function registerData(program: Command, runtime: Runtime): void {
  const data = program
    .command('data')
    .description('market data: ticks, kbars, snapshots, rankings, credit, short sources, regulatory lists, quotes')
    .addHelpText(
      'after',
      `
Dates are YYYY-MM-DD or 'today' (the date in Taiwan). Column-oriented answers (ticks, kbars,
regulatory, daily-quotes) are shown one row per entry; --format json prints the API response as it is.

Examples:
  $ sjgate data ticks --code 2330 --last 20
  $ sjgate data kbars --code TXFR1 --start 2026-07-01 --end 2026-07-03
  $ sjgate data snapshots --codes 2330,2317,TXFG6+TXFH6
  $ sjgate data scanner --scanner-type volume-rank --count 20 --ascending`,
    );

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
  $ sjgate data ticks --code TXFG6 --combo-with TXFH6 --last 5`,
    )
    .action(
      action<TicksOptions>(runtime, async (cli, options) => {
        const body = ticksRequest(options);
        const ticks = await cli.call((client) => client.post<Columns>(`${BASE}/ticks`, body));
        cli.emit(ticks, (value) => formatTable(rowsOfColumns(value)));
      }),
    );

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
  $ sjgate data kbars --code TXFG6 --combo-with TXFH6 --format json`,
    )
    .action(
      action<KbarsOptions>(runtime, async (cli, options) => {
        const body = kbarsRequest(options);
        const kbars = await cli.call((client) => client.post<Columns>(`${BASE}/kbars`, body));
        cli.emit(kbars, (value) => formatTable(rowsOfColumns(value)));
      }),
    );

  data
    .command('snapshots')
    .description('the current snapshot of each code (at most 500)')
    .requiredOption('--codes <CODES>', 'codes separated by commas; a combo is CODE1+CODE2', codesWithCombos)
    .addOption(securityTypeOption())
    .addOption(exchangeOption())
    .addHelpText(
      'after',
      `
Examples:
  $ sjgate data snapshots --codes 2330,2317
  $ sjgate data snapshots --codes TXFR1,TXFG6+TXFH6`,
    )
    .action(
      action<SnapshotsOptions>(runtime, async (cli, options) => {
        const body = snapshotsRequest(options);
        const snapshots = await cli.call((client) => client.post<Row[]>(`${BASE}/snapshots`, body));
        cli.emit(snapshots, (rows) => formatTable(rows, COLUMNS.snapshots));
      }),
    );

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
      action<ScannerOptions>(runtime, async (cli, options) => {
        const body = scannerRequest(options);
        const items = await cli.call((client) => client.post<Row[]>(`${BASE}/scanner`, body));
        cli.emit(items, (rows) => formatTable(rows, COLUMNS.scanner));
      }),
    );

  for (const [name, path, what, columns] of [
    ['credit-enquire', 'credit_enquire', 'margin and short balances of stocks', COLUMNS.credit],
    ['short-stock-sources', 'short_stock_sources', 'shares available to borrow for short sales', COLUMNS.shortSources],
  ] as const) {
    data
      .command(name)
      .description(`the ${what}`)
      .requiredOption('--codes <CODES>', 'stock codes separated by commas', codeList)
      .addOption(securityTypeOption(['STK']))
      .addOption(exchangeOption(['TSE', 'OTC']))
      .addHelpText('after', `\nExample:\n  $ sjgate data ${name} --codes 2330,2317`)
      .action(
        action<CodesOptions>(runtime, async (cli, options) => {
          const body = contractsRequest(options);
          const rows = await cli.call((client) => client.post<Row[]>(`${BASE}/${path}`, body));
          cli.emit(rows, (value) => formatTable(value, columns));
        }),
      );
  }

  data
    .command('regulatory')
    .description('stocks under disposition (punish) or attention (notice)')
    .addOption(
      new Option('--type <TYPE>', `list: ${REGULATORY_TYPES.join(', ')}`)
        .argParser(oneOf(REGULATORY_TYPES))
        .default('punish'),
    )
    .addHelpText('after', '\nExamples:\n  $ sjgate data regulatory\n  $ sjgate data regulatory --type notice')
    .action(
      action<{ type?: RegulatoryType }>(runtime, async (cli, options) => {
        const list = await cli.call((client) => client.get<Columns>(regulatoryPath(options.type)));
        cli.emit(list, (value) => formatTable(rowsOfColumns(value)));
      }),
    );

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
      action<DailyQuotesOptions>(runtime, async (cli, options) => {
        const body = dailyQuotesRequest(options);
        const quotes = await cli.call((client) => client.post<Columns>(`${BASE}/daily_quotes`, body));
        cli.emit(quotes, (value) => formatTable(rowsOfColumns(value)));
      }),
    );
}
