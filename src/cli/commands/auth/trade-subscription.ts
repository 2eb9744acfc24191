// What `auth subscribe-trade` and `auth unsubscribe-trade` share: the body, the command, and the answer as lines.

import { type Command, Option } from 'commander';
import type { Account, SubscribeTradeAnswer } from '../../../contract/wire.js';
import { type PostMethod, postTo } from '../../client.js';
import { action, type CliEnv } from '../../context.js';
import { formatRecord } from '../../output.js';
import { type AccountSelector, accountOption, oneOf } from '../../parsers.js';

const FIELDS = ['account', 'subscribe_trade', 'ts'] as const satisfies readonly (keyof SubscribeTradeAnswer)[];

interface TradeSubscriptionOptions {
  account?: AccountSelector | undefined;
  accountType?: 'S' | 'F' | undefined;
}

/** The body of POST /auth/subscribe_trade (and unsubscribe_trade): the type (default S) and the account if given. */
export function tradeSubscriptionRequest(options: TradeSubscriptionOptions): Record<string, string> {
  return { account_type: options.accountType ?? 'S', ...(options.account ?? {}) };
}

/** The bodies for every account of the user: what the command does when no account or type is given. */
export function everyAccountRequests(accounts: readonly Account[]): Record<string, string>[] {
  return accounts.map(({ account_type, broker_id, account_id }) => ({ account_type, broker_id, account_id }));
}

/** `20260612021106` → `2026-06-12 02:11:06`; anything else as it is. */
function formatTs(ts: unknown): unknown {
  const match =
    typeof ts === 'string' || typeof ts === 'number'
      ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(String(ts))
      : null;
  return match === null ? ts : `${match[1]}-${match[2]}-${match[3]} ${match[4]}:${match[5]}:${match[6]}`;
}

/** account (type, BROKER-ACCOUNT and user), subscribe_trade and ts as key/value lines. */
export function formatTradeSubscription(value: SubscribeTradeAnswer, color = false): string {
  const account: Partial<SubscribeTradeAnswer['account']> = value.account ?? {};
  const { account_type: type, broker_id: broker, account_id: id, username } = account;
  const who = typeof username === 'string' && username !== '' ? ` (${username})` : '';
  return formatRecord(
    {
      account: `${type ?? '?'} ${broker ?? '?'}-${id ?? '?'}${who}`,
      subscribe_trade: value.subscribe_trade,
      ts: formatTs(value.ts),
    },
    { color },
  );
}

export function registerTradeSubscription(
  auth: Command,
  env: CliEnv,
  command: { name: string; method: PostMethod; what: string; note: string },
): void {
  const { name } = command;
  auth
    .command(name)
    .description(command.what)
    .addOption(
      new Option('--account-type <S|F>', 'the default account of this type (S stock, F futures)').argParser(
        oneOf(['S', 'F'] as const),
      ),
    )
    .addOption(accountOption())
    .addHelpText(
      'after',
      `
${command.note}
Without --account-type and --account: every account of the user, one answer each (a list with --format json).

Examples:
  $ sjgate auth ${name}
  $ sjgate auth ${name} --account-type F
  $ sjgate auth ${name} --account 9A95-1234567 --format json`,
    )
    .action(
      action<TradeSubscriptionOptions>(
        env,
        async (cli, options) => {
          if (options.accountType !== undefined || options.account !== undefined) {
            const body = tradeSubscriptionRequest(options);
            const answer = await cli.call((client) => postTo<SubscribeTradeAnswer>(client, command.method, body));
            cli.emit(answer, formatTradeSubscription);
            return;
          }
          const answers = await cli.call(async (client) => {
            const bodies = everyAccountRequests(await client.auth.accounts());
            const done: SubscribeTradeAnswer[] = [];
            for (const body of bodies) done.push(await postTo<SubscribeTradeAnswer>(client, command.method, body));
            return done;
          });
          cli.emit(answers, (list, color) => list.map((answer) => formatTradeSubscription(answer, color)).join('\n\n'));
        },
        { fields: FIELDS },
      ),
    );
}
