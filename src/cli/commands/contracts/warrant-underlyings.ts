// `sjgate contracts warrant-underlyings`: the stocks that have warrants, with how many.

import type { Command } from 'commander';
import { action, type CliEnv } from '../../context.js';
import { formatTable, type Row } from '../../output.js';
import { type Options, queryOf, regionOption } from './query.js';

export function registerWarrantUnderlyings(contracts: Command, env: CliEnv): void {
  contracts
    .command('warrant-underlyings')
    .description('the stocks that have warrants, with how many')
    .option('--include-name', 'include the underlying names')
    .addOption(regionOption())
    .action(
      action<Options>(env, async (cli, o) => {
        const query = queryOf({ include_name: o.includeName === true ? true : undefined, region: o.region });
        const list = await cli.call((client) => client.contracts.warrantUnderlyings<Row[]>(query));
        cli.emit(list, (rows, color) => formatTable(rows, undefined, color));
      }),
    );
}
