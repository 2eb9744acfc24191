// What `order cancel`, `order update-price` and `order update-qty` share: a trade id in, the changed trade out
// (followed until the exchange has answered, unless --no-wait).

import type { Command, Option } from 'commander';
import type { Trade } from '../../../domain/orders.js';
import { type PostMethod, postTo } from '../../client.js';
import { action, type CliEnv } from '../../context.js';
import { text } from '../../parsers.js';
import { noWaitOption, waitMs, waitTimeoutOption } from './flags.js';
import { isRefused, refusal } from './refusal.js';
import { formatTrades, listOf, settle, TRADE_FIELDS, WAIT, warnIfUnsettled } from './trades.js';

export interface ChangeOptions {
  id: string;
  price?: number;
  quantity?: number;
  wait?: boolean;
  waitTimeout?: number;
}

export interface OrderChange {
  name: string;
  method: PostMethod;
  description: string;
  /** What the change is called in the refusal: `cancel`, `price change`. */
  noun: string;
  /** The flag with the new value, if the change has one. */
  extra?: Option;
  body: (options: ChangeOptions) => Record<string, unknown>;
  example: string;
}

export function registerChange(order: Command, env: CliEnv, change: OrderChange): void {
  const command = order
    .command(change.name)
    .description(change.description)
    .requiredOption('--id <TRADE_ID>', 'the trade id (order.id, the first column of `order list`)', text);
  if (change.extra) command.addOption(change.extra);
  command
    .addOption(noWaitOption('the exchange to answer'))
    .addOption(waitTimeoutOption(WAIT.timeoutMs / 1000))
    .addHelpText('after', `\nExample:\n  $ sjgate order ${change.example}`)
    .action(
      action<ChangeOptions>(
        env,
        async (cli, options) => {
          const timeoutMs = waitMs(options, WAIT.timeoutMs);
          const trade = await cli.call(async (client) => {
            const changed = await postTo<Trade>(client, change.method, change.body(options));
            return options.wait === false ? changed : settle(changed, listOf(client), { timeoutMs });
          });
          if (options.wait !== false) warnIfUnsettled(cli, trade);
          cli.emit(trade, (value, color) => formatTrades([value], color));
          if (isRefused(trade, 'change')) throw await refusal(trade, change.noun, cli.client, options.price);
        },
        { fields: TRADE_FIELDS },
      ),
    );
}
