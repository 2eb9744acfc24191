// `sjgate watchlist list`: the watchlists of the logged-in person.

import type { Command } from 'commander';
import { action, type CliEnv } from '../../context.js';
import { formatWatchlists, WATCHLIST_FIELDS } from './format.js';

export function registerList(watchlist: Command, env: CliEnv): void {
  watchlist
    .command('list')
    .description('list the watchlists: id, name and contracts')
    .action(
      action(
        env,
        async (cli) => {
          const lists = await cli.call((client) => client.watchlists.list());
          cli.emit(lists, formatWatchlists);
        },
        { fields: WATCHLIST_FIELDS },
      ),
    );
}
