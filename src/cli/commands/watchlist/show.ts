// `sjgate watchlist show ID`: one watchlist and its contracts.

import type { Command } from 'commander';
import { action, type CliEnv } from '../../context.js';
import { argumentOrFlag, formatWatchlist, WATCHLIST_FIELDS } from './format.js';

export function registerShow(watchlist: Command, env: CliEnv): void {
  watchlist
    .command('show [ID]')
    .option('--id <ID>', 'the watchlist (or give it as the argument)')
    .description('show a watchlist and its contracts')
    .action(
      action<{ id?: string }>(
        env,
        async (cli, options, [argument]) => {
          const id = argumentOrFlag(argument, options.id, 'id');
          const list = await cli.call((client) => client.watchlists.get(id));
          cli.emit(list, formatWatchlist);
        },
        { fields: WATCHLIST_FIELDS },
      ),
    );
}
