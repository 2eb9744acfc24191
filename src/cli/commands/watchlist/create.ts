// `sjgate watchlist create NAME [CODE...]`: make a watchlist.

import type { Command } from 'commander';
import type { Watchlist } from '../../../contract/wire.js';
import { postTo } from '../../client.js';
import { action, type CliEnv } from '../../context.js';
import {
  argumentOrFlag,
  contractsOfFlags,
  formatWatchlist,
  type OfficialFlags,
  WATCHLIST_FIELDS,
  withOfficialFlags,
} from './format.js';

export function registerCreate(watchlist: Command, env: CliEnv): void {
  withOfficialFlags(watchlist.command('create [NAME] [CODE...]'), ['name', 'codes'])
    .description('make a watchlist, with these contracts in this order (1 to 100 characters of name)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ sjgate watchlist create "semis" 2330 2303 2454\n  $ sjgate watchlist create --name semis --codes 2330,2303',
    )
    .action(
      action<OfficialFlags>(
        env,
        async (cli, options, args) => {
          // commander hands a variadic argument over as one array
          const [name, codes = []] = args as unknown as [string | undefined, string[] | undefined];
          const body = {
            name: argumentOrFlag(name, options.name, 'name'),
            contracts: contractsOfFlags(codes, options),
          };
          const made = await cli.call((client) =>
            postTo<Watchlist>(client, (daemon) => daemon.watchlists.create, body),
          );
          cli.emit(made, formatWatchlist);
        },
        { fields: WATCHLIST_FIELDS },
      ),
    );
}
