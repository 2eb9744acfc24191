// `sjgate data ticks|kbars|snapshots|scanner|credit-enquire|short-stock-sources|regulatory|daily-quotes|stream`:
// market data with the official CLI's flags. Column-oriented answers are shown one row per entry.

import { type Command, InvalidArgumentError, Option } from 'commander';
import { MARKET_DATA_PATHS, STREAM_PATHS, streamDataPath } from '../../contract/paths.js';
import { EXCHANGES } from '../../domain/contracts.js';
import {
  type ComboRef,
  type ContractRef,
  type InstrumentRef,
  SCANNER_TYPES,
  type ScannerType,
  type TicksQueryType,
} from '../../domain/market-data.js';
import type { DaemonClient } from '../client.js';
import { action, type Cli, UsageError } from '../context.js';
import type { Runtime } from '../daemon.js';
import { formatLine, formatTable, printError, type Row, rowsOfColumns } from '../output.js';
import { boolean, codeList, dateOrToday, integerIn, oneOf, text, timeOfDay } from '../parsers.js';
import { followStream, printLine, stopSignal, streamAction } from '../stream.js';

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
  return type === 'punish' ? MARKET_DATA_PATHS.regulatoryPunish : MARKET_DATA_PATHS.regulatoryNotice;
}

// --- data stream -------------------------------------------------------------------------------------------------

export const QUOTE_TYPES = ['Tick', 'BidAsk', 'Quote'] as const;
export type QuoteType = (typeof QUOTE_TYPES)[number];
export const STREAM_SECURITY_TYPES = ['STK', 'IND', 'FUT', 'OPT', 'WRT'] as const;

/** `tick`, `bid_ask` (also `bidask`, `bid-ask`, `BidAsk`) or `quote` → the API's spelling. */
export function quoteType(value: string): QuoteType {
  const key = value.trim().toLowerCase().replace(/[-_]/g, '');
  const found = QUOTE_TYPES.find((type) => type.toLowerCase() === key);
  if (found === undefined) throw new InvalidArgumentError('expected one of tick, bid_ask, quote');
  return found;
}

export interface StreamOptions {
  code: string;
  quoteType?: QuoteType | undefined;
  intradayOdd?: boolean | undefined;
  securityType?: (typeof STREAM_SECURITY_TYPES)[number] | undefined;
  exchange?: string | undefined;
  comboWith?: string | undefined;
}

/** The body of POST /stream/subscribe (and of /stream/unsubscribe). */
export type SubscribeRequest =
  | (ContractRef & { quote_type: QuoteType; intraday_odd?: boolean })
  | { contract: ComboRef; quote_type: QuoteType };

/** A product subscription as the daemon echoes it: the contract resolved (R1/R2 carry their target_code). */
export interface ProductSubscription {
  security_type: string;
  exchange: string;
  code: string;
  target_code: string | null;
  quote_type: QuoteType;
  intraday_odd: boolean;
}

/** A combo subscription as the daemon echoes it: the legs resolved. */
export interface ComboSubscription {
  contract: {
    /** The combo's exchange code, when the daemon says it. */
    code?: string | null;
    legs: { security_type: string; code: string; target_code?: string | null }[];
    combo_type?: string;
  };
  quote_type: QuoteType;
  intraday_odd?: boolean;
}

export type Subscription = ProductSubscription | ComboSubscription;

export interface SubscribeResponse {
  success: boolean;
  message: string;
  subscription?: Subscription | null;
}

/** The body of POST /stream/subscribe: the flat form for a product, `{contract: {legs}}` for a combo. */
export function subscribeRequest(options: StreamOptions): SubscribeRequest {
  const quote_type = options.quoteType ?? 'Tick';
  const contract = { securityType: options.securityType, exchange: options.exchange } as ContractOptions;
  if (options.comboWith !== undefined) {
    if (options.intradayOdd === true) throw new UsageError('--intraday-odd is for stocks; a combo has no odd lots');
    return {
      contract: { legs: [contractRef(options.code, contract), contractRef(options.comboWith, contract)] },
      quote_type,
    };
  }
  return {
    ...contractRef(options.code, contract),
    quote_type,
    ...(options.intradayOdd === true ? { intraday_odd: true } : {}),
  };
}

export type QuoteKind = 'tick' | 'bidask' | 'quote' | 'index';

/** Where a subscription's events arrive and which of them are its own. */
export interface QuoteStream {
  /** The dedicated stream, also the SSE event name: tick_stk, bidask_fop, quote_idx, ... */
  name: string;
  kind: QuoteKind;
  /** What the user sees: `2330`, `TXFR1 (TXFL6)`, `TXFG6/TXFH6`. */
  label: string;
  /** Whether an event of the stream belongs to this subscription. */
  accepts(data: Row): boolean;
}

const isCombo = (subscription: Subscription): subscription is ComboSubscription => 'contract' in subscription;

const KIND_OF: Record<QuoteType, 'tick' | 'bidask' | 'quote'> = { Tick: 'tick', BidAsk: 'bidask', Quote: 'quote' };

/**
 * The stream of a subscription, from what the daemon answered. STK and WRT: tick_stk, bidask_stk, quote_stk; IND:
 * quote_idx; FUT, OPT and combos: tick_fop, bidask_fop, quote_fop. A product's events carry its real code
 * (target_code for R1/R2), and stock ticks and bid/asks say whether they are odd lots. A combo's events carry the
 * combo's own code (`TXFG6/H6`): the one the subscription names if it does, else any code that starts with the first
 * leg's and is not the leg's own (the leg's own events belong to a subscription of the leg).
 */
export function quoteStream(subscription: Subscription): QuoteStream {
  const kind = KIND_OF[subscription.quote_type] ?? 'tick';
  if (isCombo(subscription)) {
    const legs = subscription.contract.legs.map((leg) => leg.target_code ?? leg.code);
    const first = legs[0] ?? '';
    const code = subscription.contract.code;
    return {
      name: `${kind}_fop`,
      kind,
      label: legs.join('/'),
      accepts: (data) =>
        typeof code === 'string'
          ? data.code === code
          : typeof data.code === 'string' && data.code.startsWith(first) && data.code !== first,
    };
  }
  const real = subscription.target_code ?? subscription.code;
  const label = real === subscription.code ? real : `${subscription.code} (${real})`;
  const ofCode = (data: Row) => data.code === real;
  if (subscription.security_type === 'IND') return { name: 'quote_idx', kind: 'index', label, accepts: ofCode };
  const family = subscription.security_type === 'FUT' || subscription.security_type === 'OPT' ? 'fop' : 'stk';
  const odd = subscription.intraday_odd === true;
  return {
    name: `${kind}_${family}`,
    kind,
    label,
    accepts: (data) => ofCode(data) && (typeof data.intraday_odd !== 'boolean' || data.intraday_odd === odd),
  };
}

const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);

/** A change with its sign: `+5.0`, `-0.5`, `0`. */
function signed(value: unknown): unknown {
  if (value === null || value === undefined || value === '') return value;
  const text = String(value);
  return Number(text) > 0 && !text.startsWith('+') ? `+${text}` : text;
}

/** A percentage change with its sign and unit: `+0.48%`. */
function percent(value: unknown): unknown {
  const change = signed(value);
  return change === null || change === undefined || change === '' ? change : `${change}%`;
}

/** tick_type: 1 the buyer paid the ask (外盤), 2 the seller hit the bid (內盤). */
const SIDES: Record<string, string> = { 1: 'buy', 2: 'sell' };

function flags(data: Row): string {
  const marks = [
    data.intraday_odd === true ? 'odd' : '',
    data.simtrade === true ? 'simtrade' : '',
    data.suspend === true ? 'suspend' : '',
  ];
  return marks.filter((mark) => mark !== '').join(',');
}

/** The change of an index from its reference, and in percent, with two decimals. */
function indexChange(close: unknown, reference: unknown): [string | null, string | null] {
  const c = Number(close);
  const r = Number(reference);
  if (close === undefined || reference === undefined || !Number.isFinite(c) || !Number.isFinite(r) || r === 0) {
    return [null, null];
  }
  const change = c - r;
  return [signed(change.toFixed(2)) as string, `${signed(((change / r) * 100).toFixed(2))}%`];
}

const QUOTE_COLUMNS: Record<QuoteKind, { head: string[]; widths: number[]; cells: (data: Row) => unknown[] }> = {
  tick: {
    head: ['time', 'code', 'close', 'chg', 'pct', 'volume', 'total', 'side', ''],
    widths: [15, 10, 10, 8, 7, 7, 9, 4, 0],
    cells: (d) => [
      d.time,
      d.code,
      d.close,
      signed(d.price_chg),
      percent(d.pct_chg),
      d.volume,
      d.total_volume,
      SIDES[String(d.tick_type)] ?? '-',
      flags(d),
    ],
  },
  bidask: {
    head: ['time', 'code', 'bid', 'bid_vol', 'ask', 'ask_vol', ''],
    widths: [15, 10, 10, 7, 10, 7, 0],
    cells: (d) => [
      d.time,
      d.code,
      first(d.bid_price),
      first(d.bid_volume),
      first(d.ask_price),
      first(d.ask_volume),
      flags(d),
    ],
  },
  quote: {
    head: ['time', 'code', 'close', 'chg', 'volume', 'total', 'bid', 'bid_vol', 'ask', 'ask_vol', ''],
    widths: [15, 10, 10, 8, 7, 9, 10, 7, 10, 7, 0],
    cells: (d) => [
      d.time,
      d.code,
      d.close,
      signed(d.price_chg),
      d.volume,
      d.total_volume,
      first(d.bid_price),
      first(d.bid_volume),
      first(d.ask_price),
      first(d.ask_volume),
      flags(d),
    ],
  },
  index: {
    head: ['time', 'code', 'close', 'chg', 'pct', 'open', 'high', 'low'],
    widths: [15, 8, 10, 8, 7, 10, 10, 10],
    cells: (d) => {
      const close = d.Close ?? d.close;
      return [
        d.Time ?? d.time,
        d.code,
        close,
        ...indexChange(close, d.Reference ?? d.reference),
        d.Open ?? d.open,
        d.High ?? d.high,
        d.Low ?? d.low,
      ];
    },
  },
};

/** The header line of the readable rows of a kind of quote. */
export function formatQuoteHeader(kind: QuoteKind): string {
  const { head, widths } = QUOTE_COLUMNS[kind];
  return formatLine(head, widths, { header: true });
}

/** One quote event as a readable row: time, code, then what the kind of quote carries. */
export function formatQuote(kind: QuoteKind, data: Row): string {
  const { cells, widths } = QUOTE_COLUMNS[kind];
  return formatLine(cells(data), widths);
}

/** A `<name>_gap` event: the server dropped events this client was too slow to read. */
export function gapNotice(data: unknown): string {
  const dropped = (data as { dropped?: unknown } | null)?.dropped;
  return `warning: the daemon dropped ${typeof dropped === 'number' ? `${dropped} ` : ''}events this client was too slow to read`;
}

/**
 * Subscribes, prints the events of the subscription until the signal aborts (Ctrl+C), then unsubscribes. The
 * stream reconnects by itself; each reconnect subscribes again (a no-op when the daemon still has it).
 */
async function streamQuotes(cli: Cli, options: StreamOptions, json: boolean, signal: AbortSignal): Promise<void> {
  const body = subscribeRequest(options);
  const answer = await cli.call((client) => client.post<SubscribeResponse>(STREAM_PATHS.subscribe, body));
  if (answer.success === false) throw new Error(answer.message || 'the subscription was refused');
  if (answer.subscription === null || answer.subscription === undefined) {
    throw new Error('the daemon did not say what it subscribed');
  }
  const subscription = answer.subscription;
  const stream = quoteStream(subscription);
  const client: DaemonClient = cli.client;
  let failure: { error: unknown } | null = null;
  try {
    if (process.stderr.isTTY) {
      const odd = subscription.intraday_odd === true ? ' (odd lot)' : '';
      printError(`Subscribed to ${stream.label} ${subscription.quote_type}${odd} (Ctrl+C to stop)`);
    }
    if (!json) printLine(formatQuoteHeader(stream.kind));
    await followStream(
      client,
      streamDataPath(stream.name),
      (message) => {
        if (message.event === `${stream.name}_gap`) return printError(gapNotice(JSON.parse(message.data)));
        if (message.event !== stream.name) return;
        const data = JSON.parse(message.data) as Row;
        if (!stream.accepts(data)) return;
        printLine(json ? JSON.stringify(data) : formatQuote(stream.kind, data));
      },
      {
        signal,
        beforeReconnect: async () => {
          await client.post(STREAM_PATHS.subscribe, body);
        },
      },
    );
  } catch (error) {
    failure = { error };
  }
  try {
    await client.post(STREAM_PATHS.unsubscribe, body);
  } catch (error) {
    if (failure === null) failure = { error };
    else printError(`warning: could not unsubscribe: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (failure !== null) throw failure.error;
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
        const ticks = await cli.call((client) => client.post<Columns>(MARKET_DATA_PATHS.ticks, body));
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
        const kbars = await cli.call((client) => client.post<Columns>(MARKET_DATA_PATHS.kbars, body));
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
        const snapshots = await cli.call((client) => client.post<Row[]>(MARKET_DATA_PATHS.snapshots, body));
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
        const items = await cli.call((client) => client.post<Row[]>(MARKET_DATA_PATHS.scanner, body));
        cli.emit(items, (rows) => formatTable(rows, COLUMNS.scanner));
      }),
    );

  for (const [name, path, what, columns] of [
    ['credit-enquire', MARKET_DATA_PATHS.creditEnquire, 'margin and short balances of stocks', COLUMNS.credit],
    [
      'short-stock-sources',
      MARKET_DATA_PATHS.shortStockSources,
      'shares available to borrow for short sales',
      COLUMNS.shortSources,
    ],
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
          const rows = await cli.call((client) => client.post<Row[]>(path, body));
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
        const quotes = await cli.call((client) => client.post<Columns>(MARKET_DATA_PATHS.dailyQuotes, body));
        cli.emit(quotes, (value) => formatTable(rowsOfColumns(value)));
      }),
    );

  data
    .command('stream')
    .description('subscribe to live ticks, bid/ask or quotes of a code and print them until Ctrl+C')
    .requiredOption('--code <CODE>', 'product code, e.g. 2330, TXFR1, IX0001', text)
    .addOption(
      new Option('--quote-type <TYPE>', 'tick, bid_ask or quote (indices: quote)')
        .argParser(quoteType)
        .default('Tick', 'tick'),
    )
    .option('--intraday-odd', "a stock's odd-lot (intraday) ticks or bid/ask")
    .addOption(securityTypeOption(STREAM_SECURITY_TYPES))
    .addOption(exchangeOption(EXCHANGES))
    .addOption(
      new Option('--combo-with <CODE>', "the second leg: stream the combo of --code and this code's book").argParser(
        text,
      ),
    )
    .addHelpText(
      'after',
      `
Subscribes (POST ${STREAM_PATHS.subscribe}), prints the events of that subscription from its
stream (tick_stk, bidask_fop, quote_idx, ...), and unsubscribes on Ctrl+C or SIGTERM. A dropped
connection is reopened (1 s, doubling up to 15 s) and resumes after the last event seen.

Output: one JSON object per line, each event's data as the stream sends it, with --format json or
when stdout is not a terminal (and --format is not given); otherwise a row per event under a header
(time, code, close, change, volume, ... for ticks; best bid and ask with their sizes for bid_ask).
A continuous code (TXFR1) shows the events of the month it stands for; a combo's events carry the
combo's own code, which starts with the first leg's code.

Examples:
  $ sjgate data stream --code 2330
  $ sjgate data stream --code 2330 --quote-type bid_ask --intraday-odd
  $ sjgate data stream --code TXFR1 --quote-type quote
  $ sjgate data stream --code IX0001 --quote-type quote
  $ sjgate data stream --code TXFG6 --combo-with TXFH6 --quote-type bid_ask
  $ sjgate data stream --code 2330 | jq -r .close`,
    )
    .action(
      streamAction<StreamOptions>(runtime, async (cli, options, json) => {
        const { signal, dispose } = stopSignal();
        try {
          await streamQuotes(cli, options, json, signal);
        } finally {
          dispose();
        }
      }),
    );
}
