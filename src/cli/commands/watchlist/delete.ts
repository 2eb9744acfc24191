// `sjgate watchlist delete ID`: delete a watchlist.

import type { Command } from 'commander';
import { watchlistPath } from '../../../contract/paths.js';
import type { Watchlist } from '../../../contract/wire.js';
import { action, type CliEnv } from '../../context.js';
import { text } from '../../parsers.js';
import { WATCHLIST_FIELDS } from './format.js';

export function registerDelete(watchlist: Command, env: CliEnv): void {
  watchlist
    .command('delete <ID>')
    .description('delete a watchlist')
    .action(
      action<Record<string, never>>(
        env,
        async (cli, _options, [id = '']) => {
          const deleted = await cli.call((client) => client.delete<Watchlist>(watchlistPath(text(id))));
          cli.emit(deleted, ({ id, name }) => `Deleted watchlist ${id} (${name})`);
        },
        { fields: WATCHLIST_FIELDS },
      ),
    );
}
