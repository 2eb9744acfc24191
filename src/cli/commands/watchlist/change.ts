// `watchlist sync|add|remove ID CODE...`: one command shape, a request that changes a list's contracts.

import type { Command } from 'commander';
import type { Watchlist } from '../../../contract/wire.js';
import type { DaemonClient } from '../../client.js';
import { action, type CliEnv } from '../../context.js';
import { text } from '../../parsers.js';
import { contractsOf, formatWatchlist, WATCHLIST_FIELDS } from './format.js';

export interface ContractsChange {
  name: 'sync' | 'add' | 'remove';
  description: string;
  /** Whether the command runs with no code (sync empties the list). */
  codesOptional: boolean;
  send(client: DaemonClient, id: string, body: { contracts: { code: string }[] }): Promise<Watchlist>;
  example: string;
}

export function registerContractsChange(watchlist: Command, env: CliEnv, change: ContractsChange): void {
  watchlist
    .command(`${change.name} <ID> ${change.codesOptional ? '[CODE...]' : '<CODE...>'}`)
    .description(change.description)
    .addHelpText('after', `\nExample:\n  $ sjgate watchlist ${change.example}`)
    .action(
      action<Record<string, never>>(
        env,
        async (cli, _options, args) => {
          // commander hands a variadic argument over as one array
          const [id, codes = []] = args as unknown as [string, string[] | undefined];
          const body = { contracts: contractsOf(codes.map(text)) };
          const answer = await cli.call((client) => change.send(client, text(id), body));
          cli.emit(answer, formatWatchlist);
        },
        { fields: WATCHLIST_FIELDS },
      ),
    );
}
