// `sjgate order events`: print order and deal reports (order_event) as they happen, until Ctrl+C.

import { type Command, Option } from 'commander';
import { SSE_PATHS } from '../../../contract/paths.js';
import type { CliEnv } from '../../context.js';
import { type AccountSelector, account } from '../../parsers.js';
import { followStream, printLine, stopSignal, streamAction } from '../../stream.js';
import { eventMatches, formatOrderEvent, formatOrderEventHeader } from './reports.js';

export interface EventsOptions {
  account?: AccountSelector | undefined;
}

export function registerEvents(order: Command, env: CliEnv): void {
  order
    .command('events')
    .description('print order and deal reports (order_event) as they happen, until Ctrl+C')
    .addOption(
      new Option(
        '--account <BROKER-ACCOUNT>',
        'only the reports of this account, e.g. 9A95-1234567 (default: every account)',
      ).argParser(account),
    )
    .addHelpText(
      'after',
      `
Follows GET ${SSE_PATHS.orderEvent}, which carries the reports of the accounts subscribed
with \`sjgate auth subscribe-trade\`. A dropped connection is reopened (1 s, doubling up to 15 s)
with the id of the last event seen, so the daemon sends what was missed, once.

Output: one JSON object per line, each event as the stream sends it ({state, data: {<state>: {...}}}),
with --format json or when stdout is not a terminal (and --format is not given); otherwise a row per
event: time, state, op_type (Deal for deals), code, action, price, quantity, ordno, status.

Examples:
  $ sjgate order events
  $ sjgate order events --account 9A95-1234567
  $ sjgate order events --format json | jq 'select(.state == "StockDeal")'`,
    )
    .action(
      streamAction<EventsOptions>(
        env,
        async (cli, options, json) => {
          const { signal, dispose } = stopSignal(cli.io);
          if (cli.io.stderr.isTTY) cli.printError('Watching order events (Ctrl+C to stop)');
          if (!json) printLine(cli.io.stdout, formatOrderEventHeader(cli.io.color));
          try {
            await cli.call((client) =>
              followStream(
                client,
                SSE_PATHS.orderEvent,
                (message) => {
                  if (message.event === 'order_event_gap') {
                    cli.printError('warning: the daemon dropped order events this client was too slow to read');
                    return;
                  }
                  if (message.event !== 'order_event') return;
                  const event = JSON.parse(message.data) as unknown;
                  if (!eventMatches(event, options.account)) return;
                  printLine(cli.io.stdout, json ? cli.toJson(event, false) : formatOrderEvent(event));
                },
                { signal, notice: cli.printError },
              ),
            );
          } finally {
            dispose();
          }
        },
        { fields: ['state', 'data'] },
      ),
    );
}
