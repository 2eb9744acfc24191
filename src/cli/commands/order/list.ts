// `sjgate order list`: today's trades of every account, or of one account or account type; with --limit, --cursor,
// --since, --until or --all, older ones out of the journal a page at a time.

import { type Command, Option } from 'commander';
import { TRADE_PAGES } from '../../../contract/wire.js';
import type { AccountType } from '../../../domain/accounts.js';
import type { Trade } from '../../../domain/orders.js';
import { action, type Cli, type CliEnv } from '../../context.js';
import { type AccountSelector, accountOption, date, integerIn, oneOf } from '../../parsers.js';
import { formatTrades, TRADE_FIELDS } from './trades.js';

export interface ListOptions {
  account?: AccountSelector | undefined;
  accountType?: AccountType | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  all?: boolean | undefined;
}

/** The body of POST /order/trades: every account unless --account or --account-type narrows it. */
export function tradesRequest(options: ListOptions): Record<string, string> {
  return {
    ...(options.accountType === undefined ? {} : { account_type: options.accountType }),
    ...(options.account ?? {}),
  };
}

/** The paging fields of the body, when any option asks for the history rather than today's trades. */
export function pageRequest(options: ListOptions): Record<string, string | number> | undefined {
  const { limit, cursor, since, until, all } = options;
  if (limit === undefined && cursor === undefined && since === undefined && until === undefined && !all) {
    return undefined;
  }
  // A limit says "the history" even when nothing else does (--all alone); the largest page takes fewest calls.
  return {
    limit: limit ?? TRADE_PAGES.maxLimit,
    ...(cursor === undefined ? {} : { cursor }),
    ...(since === undefined ? {} : { begin_date: since }),
    ...(until === undefined ? {} : { end_date: until }),
  };
}

/** The trades of the history a page at a time; with --all every page to the end, else one and how to go on. */
async function historyPages(cli: Cli, body: Record<string, unknown>, all: boolean): Promise<Trade[]> {
  const trades: Trade[] = [];
  let cursor = body.cursor as string | undefined;
  do {
    const request = cursor === undefined ? body : { ...body, cursor };
    const { trades: page, nextCursor } = await cli.call((client) => client.orders.tradesPage<Trade[]>(request));
    trades.push(...page);
    cursor = nextCursor;
  } while (all && cursor !== undefined);
  if (cursor !== undefined) cli.printError(`more trades: add --cursor ${cursor} (or --all for every page)`);
  return trades;
}

const stockTradesFirst = (trades: Trade[]) =>
  [...trades].sort(
    (a, b) => Number(a.order.account.account_type !== 'S') - Number(b.order.account.account_type !== 'S'),
  );

export function registerList(order: Command, env: CliEnv): void {
  order
    .command('list')
    .description('the trades of every account, oldest first (or of one account or account type)')
    .addOption(accountOption('every account'))
    .addOption(new Option('--account-type <S|F>', 'the account type').argParser(oneOf(['S', 'F'] as const)))
    .addOption(
      new Option('--limit <n>', `history: at most n trades per page (1-${TRADE_PAGES.maxLimit})`).argParser(
        integerIn(1, TRADE_PAGES.maxLimit),
      ),
    )
    .addOption(new Option('--cursor <cursor>', 'history: the page after the one that printed this cursor'))
    .addOption(new Option('--since <YYYY-MM-DD>', 'history: orders placed on or after this day').argParser(date))
    .addOption(new Option('--until <YYYY-MM-DD>', 'history: orders placed on or before this day').argParser(date))
    .addOption(new Option('--all', 'history: every page to the end, not only the first'))
    .addHelpText(
      'after',
      "\nWithout history options: today's trades and the working orders, as the official server lists them." +
        '\n\nExamples:\n  $ sjgate order list\n  $ sjgate order list --account-type F\n  $ sjgate order list --account 9A95-1234567' +
        '\n  $ sjgate order list --since 2026-11-02 --until 2026-11-06 --all\n  $ sjgate order list --limit 100',
    )
    .action(
      action<ListOptions>(
        env,
        async (cli, options) => {
          const body = tradesRequest(options);
          const paging = pageRequest(options);
          const trades = paging
            ? await historyPages(cli, { ...body, ...paging }, options.all === true)
            : await cli.call((client) => client.orders.trades<Trade[]>(body));
          // The official CLI asks for the stock account's trades, then the futures account's: TOON, its format,
          // lists them in that order too (each oldest first).
          cli.emit(cli.format === 'toon' ? stockTradesFirst(trades) : trades, formatTrades);
        },
        { fields: TRADE_FIELDS },
      ),
    );
}
