// `sjgate contracts combos`: every valid futures time-spread combo of a root.

import type { Command } from 'commander';
import { action, type CliEnv } from '../../context.js';
import { formatTable, type Row } from '../../output.js';
import { text } from '../../parsers.js';
import { type Options, queryOf, regionOption } from './query.js';

export function registerCombos(contracts: Command, env: CliEnv): void {
  contracts
    .command('combos')
    .description('every valid futures time-spread combo of a root')
    .requiredOption('--root <ROOT>', 'futures root, e.g. TXF', text)
    .addOption(regionOption())
    .action(
      action<Options>(env, async (cli, o) => {
        const query = queryOf({ root: o.root, region: o.region });
        const list = await cli.call((client) => client.contracts.comboFutures<Row[]>(query));
        cli.emit(list, (rows, color) =>
          formatTable(rows, ['code', 'combo_type', 'legs', 'exchange', 'managed'], color),
        );
      }),
    );
}
