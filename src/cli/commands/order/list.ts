// `sjgate order list`: the trades of every account, or of one account or account type.

import { type Command, Option } from 'commander';
import type { AccountType } from '../../../domain/accounts.js';
import type { Trade } from '../../../domain/orders.js';
import { action, type CliEnv } from '../../context.js';
import { type AccountSelector, accountOption, oneOf } from '../../parsers.js';
import { formatTrades, TRADE_FIELDS } from './trades.js';

export interface ListOptions {
  account?: AccountSelector | undefined;
  accountType?: AccountType | undefined;
}

/** The body of POST /order/trades: every account unless --account or --account-type narrows it. */
export function tradesRequest(options: ListOptions): Record<string, string> {
  return {
    ...(options.accountType === undefined ? {} : { account_type: options.accountType }),
    ...(options.account ?? {}),
  };
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
    .addHelpText(
      'after',
      '\nExamples:\n  $ sjgate order list\n  $ sjgate order list --account-type F\n  $ sjgate order list --account 9A95-1234567',
    )
    .action(
      action<ListOptions>(
        env,
        async (cli, options) => {
          const body = tradesRequest(options);
          const trades = await cli.call((client) => client.orders.trades<Trade[]>(body));
          // The official CLI asks for the stock account's trades, then the futures account's: TOON, its format,
          // lists them in that order too (each oldest first).
          cli.emit(cli.format === 'toon' ? stockTradesFirst(trades) : trades, formatTrades);
        },
        { fields: TRADE_FIELDS },
      ),
    );
}
