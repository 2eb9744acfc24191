// `sjgate watchlist delete ID`: delete a watchlist.

import type { Command } from 'commander';
import { action, type CliEnv } from '../../context.js';
import { argumentOrFlag, WATCHLIST_FIELDS } from './format.js';

export function registerDelete(watchlist: Command, env: CliEnv): void {
  watchlist
    .command('delete [ID]')
    .option('--id <ID>', 'the watchlist (or give it as the argument)')
    .description('delete a watchlist')
    .action(
      action<{ id?: string }>(
        env,
        async (cli, options, [argument]) => {
          const id = argumentOrFlag(argument, options.id, 'id');
          const deleted = await cli.call((client) => client.watchlists.remove(id));
          cli.emit(deleted, ({ id, name }) => `Deleted watchlist ${id} (${name})`);
        },
        { fields: WATCHLIST_FIELDS },
      ),
    );
}
