// `sjgate watchlist show ID`: one watchlist and its contracts.

import type { Command } from 'commander';
import { watchlistPath } from '../../../contract/paths.js';
import type { Watchlist } from '../../../contract/wire.js';
import { action, type CliEnv } from '../../context.js';
import { text } from '../../parsers.js';
import { formatWatchlist, WATCHLIST_FIELDS } from './format.js';

export function registerShow(watchlist: Command, env: CliEnv): void {
  watchlist
    .command('show <ID>')
    .description('show a watchlist and its contracts')
    .action(
      action<Record<string, never>>(
        env,
        async (cli, _options, [id = '']) => {
          const list = await cli.call((client) => client.get<Watchlist>(watchlistPath(text(id))));
          cli.emit(list, formatWatchlist);
        },
        { fields: WATCHLIST_FIELDS },
      ),
    );
}
