// `sjgate contracts get`: the contract identity of a code; for people also its name, the day's reference and
// limits, and its last price.

import type { Command } from 'commander';
import { type Contract, isRequestExchange } from '../../../contract/wire.js';
import { SECURITY_TYPES } from '../../../domain/contracts.js';
import type { DaemonClient } from '../../client.js';
import { action, type CliEnv } from '../../context.js';
import { formatRecord } from '../../output.js';
import { text } from '../../parsers.js';
import { exchangeOption, type Options, queryOf, regionOption, typeOption } from './query.js';

/** What a person wants to see beside the identity; a part the daemon cannot give (a warrant's info) is left out. */
async function overview(client: DaemonClient, contract: Contract): Promise<Record<string, unknown>> {
  const { security_type, exchange, code } = contract;
  const ref = { security_type, ...(isRequestExchange(exchange) ? { exchange } : {}), code };
  const [info, snapshots] = await Promise.all([
    client.contracts.info(contract.code).catch(() => null),
    client.data.snapshots({ contracts: [ref] }).catch(() => []),
  ]);
  const last = snapshots[0];
  return {
    ...contract,
    ...(info === null
      ? {}
      : {
          name: info.name,
          reference: info.reference,
          ...('limit_up' in info ? { limit_up: info.limit_up, limit_down: info.limit_down } : {}),
        }),
    ...(last === undefined ? {} : { last: last.close, change: last.change_price, at: last.datetime }),
  };
}

export function registerGet(contracts: Command, env: CliEnv): void {
  contracts
    .command('get')
    .description(
      'the contract identity of a code (what orders and subscriptions need); people see its name and prices too',
    )
    .argument('<CODE>', 'product code, e.g. 2330, TXFR1, IX0001', text)
    .addOption(typeOption(SECURITY_TYPES, 'restrict the search to a security type'))
    .addOption(regionOption())
    .addOption(exchangeOption())
    .addHelpText(
      'after',
      `
The human format adds the name, the day's reference and limits, and the last price (from \`contracts info\`
and \`data snapshots\`); --format json prints the identity as the API answers it.`,
    )
    .action(
      action<Options>(env, async (cli, o, [code]) => {
        const query = queryOf({ security_type: o.type, region: o.region, exchange: o.exchange });
        const human = cli.format === 'human' && !cli.json;
        const contract = await cli.call(async (client) => {
          const found = await client.contracts.get(code as string, query);
          return human ? overview(client, found) : found;
        });
        cli.emit(contract, (value, color) => formatRecord(value, { color }));
      }),
    );
}
