// `sjgate auth accounts|usage|default-account|subscribe-trade|unsubscribe-trade`.

import { type Command, Option } from 'commander';
import { AUTH_PATHS } from '../../contract/paths.js';
import { action } from '../context.js';
import type { Runtime } from '../daemon.js';
import { formatBar, formatHeading, formatRecord, formatTable, type Row } from '../output.js';
import { account, accountOption, oneOf } from '../parsers.js';

export interface Usage {
  connections: number;
  bytes: number;
  limit_bytes: number;
  remaining_bytes: number;
}

const ACCOUNT_COLUMNS = ['account_type', 'broker_id', 'account_id', 'person_id', 'username', 'signed'];

interface DefaultAccountOptions {
  account: { broker_id: string; account_id: string };
  accountType?: 'S' | 'F';
}

interface TradeSubscriptionOptions {
  account?: { broker_id: string; account_id: string } | undefined;
  accountType?: 'S' | 'F' | undefined;
}

/** The answer of POST /auth/subscribe_trade and /auth/unsubscribe_trade. */
export interface TradeSubscription {
  account: Row;
  subscribe_trade: boolean;
  ts: string;
}

/** The body of POST /auth/subscribe_trade (and unsubscribe_trade): the type (default S) and the account if given. */
export function tradeSubscriptionRequest(options: TradeSubscriptionOptions): Record<string, string> {
  return { account_type: options.accountType ?? 'S', ...(options.account ?? {}) };
}

/** `20260612021106` → `2026-06-12 02:11:06`; anything else as it is. */
function formatTs(ts: unknown): unknown {
  const match = typeof ts === 'string' ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(ts) : null;
  return match === null ? ts : `${match[1]}-${match[2]}-${match[3]} ${match[4]}:${match[5]}:${match[6]}`;
}

/** account (type, BROKER-ACCOUNT and user), subscribe_trade and ts as key/value lines. */
export function formatTradeSubscription(value: TradeSubscription): string {
  const { account_type: type, broker_id: broker, account_id: id, username } = value.account ?? {};
  const who = typeof username === 'string' && username !== '' ? ` (${username})` : '';
  return formatRecord({
    account: `${type ?? '?'} ${broker ?? '?'}-${id ?? '?'}${who}`,
    subscribe_trade: value.subscribe_trade,
    ts: formatTs(value.ts),
  });
}

export function registerAuth(program: Command, runtime: Runtime): void {
  const auth = program
    .command('auth')
    .description('accounts, API usage and order report subscriptions of the logged-in user');

  auth
    .command('accounts')
    .description('list the trading accounts (S stock, F futures)')
    .action(
      action(runtime, async (cli) => {
        const accounts = await cli.call((client) => client.get<Row[]>(AUTH_PATHS.accounts));
        cli.emit(accounts, (rows) => formatTable(rows, ACCOUNT_COLUMNS));
      }),
    );

  auth
    .command('usage')
    .description("today's data usage against the daily limit")
    .action(
      action(runtime, async (cli) => {
        const usage = await cli.call((client) => client.get<Usage>(AUTH_PATHS.usage));
        cli.emit(usage, formatUsage);
      }),
    );

  auth
    .command('default-account')
    .description('make an account the default of its type (used when a request names no account)')
    .requiredOption('--account <BROKER-ACCOUNT>', 'the account, e.g. 9A95-1234567', account)
    .addOption(new Option('--account-type <S|F>', 'the account type').argParser(oneOf(['S', 'F'] as const)))
    .addHelpText(
      'after',
      `
Examples:
  $ sjgate auth default-account --account 9A95-1234567
  $ sjgate auth default-account --account F002000-7654321 --account-type F`,
    )
    .action(
      action<DefaultAccountOptions>(runtime, async (cli, options) => {
        const body = {
          ...(options.accountType === undefined ? {} : { account_type: options.accountType }),
          ...options.account,
        };
        const chosen = await cli.call((client) => client.post<Row>(AUTH_PATHS.defaultAccount, body));
        cli.emit(chosen, (value) => `${formatHeading('default account')}\n${formatRecord(value)}`);
      }),
    );

  for (const [name, path, what, example] of [
    [
      'subscribe-trade',
      AUTH_PATHS.subscribeTrade,
      'receive the order and deal reports (order_event) of an account',
      'The order event stream (`sjgate order events`) carries the reports of subscribed accounts only.',
    ],
    [
      'unsubscribe-trade',
      AUTH_PATHS.unsubscribeTrade,
      'stop the order and deal reports (order_event) of an account',
      'The order event stream (`sjgate order events`) stops carrying the reports of the account.',
    ],
  ] as const) {
    auth
      .command(name)
      .description(what)
      .addOption(
        new Option('--account-type <S|F>', 'the account type (S stock, F futures)')
          .argParser(oneOf(['S', 'F'] as const))
          .default('S'),
      )
      .addOption(accountOption())
      .addHelpText(
        'after',
        `
${example}

Examples:
  $ sjgate auth ${name}
  $ sjgate auth ${name} --account-type F
  $ sjgate auth ${name} --account 9A95-1234567 --format json`,
      )
      .action(
        action<TradeSubscriptionOptions>(runtime, async (cli, options) => {
          const body = tradeSubscriptionRequest(options);
          const answer = await cli.call((client) => client.post<TradeSubscription>(path, body));
          cli.emit(answer, formatTradeSubscription);
        }),
      );
  }
}

const MB = 1024 ** 2;
const GB = 1024 ** 3;

/** Sizes below 1 GB read in MB (the 500 MB tier), larger ones in GB. */
const formatSize = (bytes: number) => (bytes < GB ? `${(bytes / MB).toFixed(2)} MB` : `${(bytes / GB).toFixed(2)} GB`);

/** As the official CLI: `Data Used: x MB / y GB [####................] p%`. */
export function formatUsage(usage: Usage): string {
  const fraction = usage.limit_bytes > 0 ? usage.bytes / usage.limit_bytes : 0;
  return [
    formatHeading('API Usage'),
    `Connections: ${usage.connections}`,
    `Data Used: ${(usage.bytes / MB).toFixed(2)} MB / ${formatSize(usage.limit_bytes)} ${formatBar(fraction)} ${(fraction * 100).toFixed(2)}%`,
    `Remaining: ${formatSize(usage.remaining_bytes)}`,
  ].join('\n');
}
