// `sjgate contracts get`: the contract identity of a code.

import type { Command } from 'commander';
import { contractPath } from '../../../contract/paths.js';
import type { Contract } from '../../../contract/wire.js';
import { SECURITY_TYPES } from '../../../domain/contracts.js';
import { action, type CliEnv } from '../../context.js';
import { formatRecord } from '../../output.js';
import { text } from '../../parsers.js';
import { exchangeOption, type Options, queryOf, regionOption, typeOption } from './query.js';

export function registerGet(contracts: Command, env: CliEnv): void {
  contracts
    .command('get')
    .description('the contract identity of a code (what orders and subscriptions need)')
    .argument('<CODE>', 'product code, e.g. 2330, TXFR1, IX0001', text)
    .addOption(typeOption(SECURITY_TYPES, 'restrict the search to a security type'))
    .addOption(regionOption())
    .addOption(exchangeOption())
    .action(
      action<Options>(env, async (cli, o, [code]) => {
        const query = queryOf({ security_type: o.type, region: o.region, exchange: o.exchange });
        const contract = await cli.call((client) => client.get<Contract>(contractPath(code as string), query));
        cli.emit(contract, (value, color) => formatRecord(value, { color }));
      }),
    );
}
