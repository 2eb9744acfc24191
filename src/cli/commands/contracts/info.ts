// `sjgate contracts info`: every field of a contract.

import type { Command } from 'commander';
import { SECURITY_TYPES } from '../../../domain/contracts.js';
import { action, type CliEnv } from '../../context.js';
import { formatRecord } from '../../output.js';
import { text } from '../../parsers.js';
import { exchangeOption, type Options, queryOf, regionOption, typeOption } from './query.js';

export function registerInfo(contracts: Command, env: CliEnv): void {
  contracts
    .command('info')
    .description('every field of a contract (warrants: use `contracts warrants`)')
    .argument('<CODE>', 'product code', text)
    .addOption(
      typeOption(
        SECURITY_TYPES,
        'restrict the search to a security type (a warrant, WRT, is refused: see `contracts warrants`)',
      ),
    )
    .addOption(regionOption())
    .addOption(exchangeOption())
    .action(
      action<Options>(env, async (cli, o, [code]) => {
        const query = queryOf({ security_type: o.type, region: o.region, exchange: o.exchange });
        const info = await cli.call((client) => client.contracts.info(code as string, query));
        cli.emit(info, (value, color) => formatRecord(value, { table: true, color }));
      }),
    );
}
