// `sjgate watchlist create NAME [CODE...]`: make a watchlist.

import type { Command } from 'commander';
import { WATCHLIST_PATHS } from '../../../contract/paths.js';
import type { Watchlist } from '../../../contract/wire.js';
import { action, type CliEnv } from '../../context.js';
import { text } from '../../parsers.js';
import { contractsOf, formatWatchlist, WATCHLIST_FIELDS } from './format.js';

export function registerCreate(watchlist: Command, env: CliEnv): void {
  watchlist
    .command('create <NAME> [CODE...]')
    .description('make a watchlist, with these contracts in this order (1 to 100 characters of name)')
    .addHelpText('after', '\nExample:\n  $ sjgate watchlist create "semis" 2330 2303 2454')
    .action(
      action<Record<string, never>>(
        env,
        async (cli, _options, args) => {
          // commander hands a variadic argument over as one array
          const [name, codes = []] = args as unknown as [string, string[] | undefined];
          const body = { name, contracts: contractsOf(codes.map(text)) };
          const made = await cli.call((client) => client.post<Watchlist>(WATCHLIST_PATHS.watchlists, body));
          cli.emit(made, formatWatchlist);
        },
        { fields: WATCHLIST_FIELDS },
      ),
    );
}
