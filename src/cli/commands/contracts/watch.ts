// `sjgate contracts watch`: stream contract refresh events until Ctrl+C.

import { type Command, Option } from 'commander';
import { SSE_PATHS } from '../../../contract/paths.js';
import { SECURITY_TYPES } from '../../../domain/contracts.js';
import { withQuery } from '../../client.js';
import type { CliEnv } from '../../context.js';
import type { Row } from '../../output.js';
import { followStream, printLine, stopSignal, streamAction } from '../../stream.js';
import { type Options, queryOf, regionOption } from './query.js';

/** One line per event: the JSON itself with --format json, a readable row on a terminal. */
export function formatContractEvent(event: Row): string {
  const changed = event.base_changed ? 'contracts changed' : 'no change';
  return `${event.published_at}  ${event.security_type}  ${event.action}  ${changed}`;
}

export function registerWatch(contracts: Command, env: CliEnv): void {
  contracts
    .command('watch')
    .description('stream contract refresh events (07:50, 08:00, 14:45, 17:15) until Ctrl+C')
    .addOption(new Option('--type <TYPE>', 'only this security type').choices([...SECURITY_TYPES]))
    .addOption(regionOption())
    .action(
      streamAction<Options>(env, async (cli, o, json) => {
        const path = withQuery(SSE_PATHS.contractEvent, queryOf({ region: o.region, security_type: o.type }));
        const { signal, dispose } = stopSignal(cli.io);
        if (cli.io.stderr.isTTY) cli.printError('Watching contract refresh events (Ctrl+C to stop)');
        try {
          await cli.call((client) =>
            followStream(
              client,
              path,
              (message) => {
                if (message.event !== 'contract_event') return;
                const event = JSON.parse(message.data) as Row;
                printLine(cli.io.stdout, json ? cli.toJson(event, false) : formatContractEvent(event));
              },
              { signal, notice: cli.printError },
            ),
          );
        } finally {
          dispose();
        }
      }),
    );
}
