// What `contracts futures-roots` and `contracts option-roots` share: product roots and their names.

import type { Command } from 'commander';
import type { GetMethod } from '../../client.js';
import { action, type CliEnv } from '../../context.js';
import { formatTable, type Row } from '../../output.js';
import { type Options, queryOf, regionOption } from './query.js';

export function registerRoots(
  contracts: Command,
  env: CliEnv,
  roots: { name: string; method: GetMethod; what: string },
): void {
  contracts
    .command(roots.name)
    .description(`the ${roots.what} product roots and their names`)
    .addOption(regionOption())
    .action(
      action<Options>(env, async (cli, o) => {
        const list = await cli.call((client) => roots.method(client)<Row[]>(queryOf({ region: o.region })));
        cli.emit(list, (rows, color) => formatTable(rows, ['root', 'name'], color));
      }),
    );
}
