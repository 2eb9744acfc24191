// `sjgate portfolio balance|margin|positions|position-detail|profit-loss|profit-loss-detail|profit-loss-summary|
// settlements|trading-limits`: account queries with the official CLI's flags. Stock and futures rows get their own
// columns on a terminal; --format json prints the API response as it is.

import { type Command, Option } from 'commander';
import { PORTFOLIO_PATHS } from '../../contract/paths.js';
import type { PositionUnit } from '../../domain/portfolio.js';
import { action, UsageError } from '../context.js';
import type { Runtime } from '../daemon.js';
import { formatHeading, formatRecord, formatTable, type Row } from '../output.js';
import { accountOption, dateOrToday, integerIn, oneOf, taipeiDate } from '../parsers.js';
import { kebabCase } from './data.js';
import { enumValue } from './order.js';

export const POSITION_UNITS = ['Common', 'Share'] as const satisfies readonly PositionUnit[];
const ACCOUNT_TYPES = ['S', 'F'] as const;
type PortfolioAccountType = (typeof ACCOUNT_TYPES)[number];

export interface AccountOptions {
  account?: { broker_id: string; account_id: string } | undefined;
  accountType?: PortfolioAccountType | undefined;
}

export interface PortfolioOptions extends AccountOptions {
  unit?: PositionUnit | undefined;
  detailId?: number | undefined;
  beginDate?: string | undefined;
  endDate?: string | undefined;
}

export type PortfolioRequest = Record<string, string | number>;

/**
 * The account part of a body: account_type (the query's own type when it has one, else --account-type if given)
 * and the ids of --account. Nothing given: the daemon uses the default account of the type.
 */
export function accountRequest(options: AccountOptions, fixedType?: PortfolioAccountType): PortfolioRequest {
  const type = fixedType ?? options.accountType;
  return { ...(type === undefined ? {} : { account_type: type }), ...(options.account ?? {}) };
}

/** begin_date and end_date, each today in Taiwan unless given, in order. */
function dateRange(options: PortfolioOptions, today: string): PortfolioRequest {
  const begin = options.beginDate ?? today;
  const end = options.endDate ?? today;
  if (begin > end) throw new UsageError(`--begin-date ${begin} is after --end-date ${end}`);
  return { begin_date: begin, end_date: end };
}

const unitOf = (options: PortfolioOptions): PortfolioRequest =>
  options.unit === undefined ? {} : { unit: options.unit };

function detailIdOf(options: PortfolioOptions): PortfolioRequest {
  if (options.detailId === undefined) throw new UsageError('--detail-id is required');
  return { detail_id: options.detailId };
}

/** The body of each query, from the command's options. */
export const portfolioRequests = {
  positions: (options: PortfolioOptions) => ({ ...accountRequest(options), ...unitOf(options) }),
  positionDetail: (options: PortfolioOptions) => ({ ...accountRequest(options), ...detailIdOf(options) }),
  profitLoss: (options: PortfolioOptions, today = taipeiDate()) => ({
    ...accountRequest(options),
    ...dateRange(options, today),
    ...unitOf(options),
  }),
  profitLossDetail: (options: PortfolioOptions) => ({
    ...accountRequest(options),
    ...detailIdOf(options),
    ...unitOf(options),
  }),
  profitLossSummary: (options: PortfolioOptions, today = taipeiDate()) => ({
    ...accountRequest(options),
    ...dateRange(options, today),
  }),
};

// ---------------------------------------------------------------------------------------------------------------
// Human output: stock rows have `cond`, futures rows never do

const COLUMNS = {
  positions: {
    stock: ['id', 'code', 'direction', 'quantity', 'yd_quantity', 'price', 'last_price', 'pnl', 'cond'],
    futures: ['id', 'code', 'direction', 'quantity', 'price', 'last_price', 'pnl'],
  },
  positionDetail: {
    stock: ['date', 'code', 'direction', 'quantity', 'price', 'last_price', 'pnl', 'fee', 'cond', 'dseq'],
    futures: ['date', 'code', 'direction', 'quantity', 'entry_quantity', 'price', 'last_price', 'pnl', 'fee', 'dseq'],
  },
  profitLoss: {
    stock: ['id', 'date', 'code', 'quantity', 'price', 'pnl', 'pr_ratio', 'cond', 'dseq'],
    futures: ['id', 'date', 'code', 'direction', 'quantity', 'entry_price', 'cover_price', 'pnl', 'fee', 'tax'],
  },
  profitLossDetail: {
    stock: ['date', 'code', 'trade_type', 'quantity', 'price', 'cost', 'fee', 'tax', 'cond', 'dseq'],
    futures: ['date', 'code', 'direction', 'quantity', 'entry_date', 'entry_price', 'cover_price', 'pnl', 'fee', 'tax'],
  },
  profitLossSummary: {
    stock: ['code', 'quantity', 'entry_price', 'cover_price', 'pnl', 'pr_ratio', 'buy_cost', 'sell_cost', 'cond'],
    futures: ['code', 'direction', 'quantity', 'entry_price', 'cover_price', 'pnl', 'fee', 'tax'],
  },
} as const;

type Listing = keyof typeof COLUMNS;

const isStockRows = (rows: readonly Row[]) => rows.some((row) => 'cond' in row);

/** Rows of one listing, with the stock or the futures columns. */
export function formatPortfolioRows(listing: Listing, rows: readonly Row[]): string {
  return formatTable(rows, COLUMNS[listing][isStockRows(rows) ? 'stock' : 'futures']);
}

export interface ProfitLossSummaryAnswer {
  profitloss_sum: Row[];
  total: Row;
}

export function formatProfitLossSummary(summary: ProfitLossSummaryAnswer): string {
  return [
    formatPortfolioRows('profitLossSummary', summary.profitloss_sum),
    formatHeading('total'),
    formatRecord(summary.total, { indent: 2 }),
  ].join('\n');
}

/** Trading, margin and short limits as three rows of limit, used and available. */
export function formatTradingLimits(limits: Readonly<Record<string, number>>): string {
  return formatTable(
    (['trading', 'margin', 'short'] as const).map((kind) => ({
      type: kind,
      limit: limits[`${kind}_limit`],
      used: limits[`${kind}_used`],
      available: limits[`${kind}_available`],
    })),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Commands

const accountTypeOption = () =>
  new Option('--account-type <S|F>', 'S stock or F futures (default: S, or the type of --account)').argParser(
    oneOf(ACCOUNT_TYPES),
  );
const unitOption = () =>
  new Option(
    '--unit <UNIT>',
    `${POSITION_UNITS.map(kebabCase).join(' or ')}: stocks in lots or in shares, odd lots included (default common)`,
  ).argParser(enumValue(POSITION_UNITS));
const detailIdOption = (of: string) =>
  new Option('--detail-id <ID>', `the id of a row of \`portfolio ${of}\``)
    .argParser(integerIn(0))
    .makeOptionMandatory();
const beginDateOption = () =>
  new Option('--begin-date <DATE>', 'first day, YYYY-MM-DD or today (default: today in Taiwan)').argParser(dateOrToday);
const endDateOption = () =>
  new Option('--end-date <DATE>', 'last day, YYYY-MM-DD or today (default: today in Taiwan)').argParser(dateOrToday);

export function registerPortfolio(program: Command, runtime: Runtime): void {
  const portfolio = program
    .command('portfolio')
    .description('account balance, margin, positions, profit and loss, settlements and trading limits')
    .addHelpText(
      'after',
      `
--account is BROKER-ACCOUNT as \`sjgate auth accounts\` lists them; without it the default account
of the type is asked. Stock and futures accounts answer different columns; --format json prints the
API response as it is.

Examples:
  $ sjgate portfolio positions
  $ sjgate portfolio positions --account-type F
  $ sjgate portfolio positions --unit share
  $ sjgate portfolio profit-loss --begin-date 2026-11-02 --end-date today
  $ sjgate portfolio margin --account F002000-1234567`,
    );

  const query = <T>(path: string, body: (options: PortfolioOptions) => PortfolioRequest, human: (value: T) => string) =>
    action<PortfolioOptions>(runtime, async (cli, options) => {
      const request = body(options);
      const answer = await cli.call((client) => client.post<T>(path, request));
      cli.emit(answer, human);
    });

  portfolio
    .command('balance')
    .description('the bank balance of a stock account')
    .addOption(accountOption('stock'))
    .addHelpText('after', '\nExample:\n  $ sjgate portfolio balance')
    .action(
      query<Row>(
        PORTFOLIO_PATHS.accountBalance,
        (o) => accountRequest(o, 'S'),
        (value) => formatRecord(value),
      ),
    );

  portfolio
    .command('margin')
    .description('the margin account of a futures account: equity, margins, risk indicator')
    .addOption(accountOption('futures'))
    .addHelpText('after', '\nExample:\n  $ sjgate portfolio margin')
    .action(
      query<Row>(
        PORTFOLIO_PATHS.margin,
        (o) => accountRequest(o, 'F'),
        (value) => formatRecord(value),
      ),
    );

  portfolio
    .command('positions')
    .description('open positions of a stock or futures account, valued at the last price')
    .addOption(accountTypeOption())
    .addOption(accountOption('stock or futures'))
    .addOption(unitOption())
    .addHelpText(
      'after',
      '\nExamples:\n  $ sjgate portfolio positions\n  $ sjgate portfolio positions --unit share\n' +
        '  $ sjgate portfolio positions --account-type F',
    )
    .action(
      query<Row[]>(PORTFOLIO_PATHS.positionUnit, portfolioRequests.positions, (rows) =>
        formatPortfolioRows('positions', rows),
      ),
    );

  portfolio
    .command('position-detail')
    .description('the trades that make up one position')
    .addOption(detailIdOption('positions'))
    .addOption(accountTypeOption())
    .addOption(accountOption('stock or futures'))
    .addHelpText('after', '\nExample:\n  $ sjgate portfolio position-detail --detail-id 0')
    .action(
      query<Row[]>(PORTFOLIO_PATHS.positionDetail, portfolioRequests.positionDetail, (rows) =>
        formatPortfolioRows('positionDetail', rows),
      ),
    );

  portfolio
    .command('profit-loss')
    .description('realized profit and loss, one row per closing trade, between two dates')
    .addOption(accountTypeOption())
    .addOption(accountOption('stock or futures'))
    .addOption(beginDateOption())
    .addOption(endDateOption())
    .addOption(unitOption())
    .addHelpText(
      'after',
      '\nExamples:\n  $ sjgate portfolio profit-loss\n' +
        '  $ sjgate portfolio profit-loss --begin-date 2026-11-02 --end-date 2026-11-20 --account-type F',
    )
    .action(
      query<Row[]>(
        PORTFOLIO_PATHS.profitLoss,
        (o) => portfolioRequests.profitLoss(o),
        (rows) => formatPortfolioRows('profitLoss', rows),
      ),
    );

  portfolio
    .command('profit-loss-detail')
    .description('the opening and closing trades behind one profit-loss row')
    .addOption(detailIdOption('profit-loss'))
    .addOption(accountTypeOption())
    .addOption(accountOption('stock or futures'))
    .addOption(unitOption())
    .addHelpText('after', '\nExample:\n  $ sjgate portfolio profit-loss-detail --detail-id 0')
    .action(
      query<Row[]>(PORTFOLIO_PATHS.profitLossDetail, portfolioRequests.profitLossDetail, (rows) =>
        formatPortfolioRows('profitLossDetail', rows),
      ),
    );

  portfolio
    .command('profit-loss-summary')
    .description('realized profit and loss between two dates, summed per code, with the total')
    .addOption(accountTypeOption())
    .addOption(accountOption('stock or futures'))
    .addOption(beginDateOption())
    .addOption(endDateOption())
    .addHelpText('after', '\nExample:\n  $ sjgate portfolio profit-loss-summary --begin-date 2026-11-02')
    .action(
      query<ProfitLossSummaryAnswer>(
        PORTFOLIO_PATHS.profitLossSum,
        (o) => portfolioRequests.profitLossSummary(o),
        formatProfitLossSummary,
      ),
    );

  portfolio
    .command('settlements')
    .description('cash to receive or pay today (T), T+1 and T+2 on a stock account')
    .addOption(accountOption('stock'))
    .addHelpText('after', '\nExample:\n  $ sjgate portfolio settlements')
    .action(
      query<Row[]>(
        PORTFOLIO_PATHS.settlements,
        (o) => accountRequest(o, 'S'),
        (rows) => formatTable(rows, ['T', 'date', 'amount']),
      ),
    );

  portfolio
    .command('trading-limits')
    .description('trading, margin-purchase and short-sale limits of a stock account: used and available')
    .addOption(accountOption('stock'))
    .addHelpText('after', '\nExample:\n  $ sjgate portfolio trading-limits')
    .action(
      query<Record<string, number>>(PORTFOLIO_PATHS.tradingLimits, (o) => accountRequest(o, 'S'), formatTradingLimits),
    );
}
