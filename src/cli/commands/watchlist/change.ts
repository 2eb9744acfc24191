// `watchlist sync|add|remove ID CODE...`: one command shape, a request that changes a list's contracts.

import type { Command } from 'commander';
import type { Watchlist } from '../../../contract/wire.js';
import type { DaemonClient } from '../../client.js';
import { action, type CliEnv, UsageError } from '../../context.js';
import {
  argumentOrFlag,
  contractsOfFlags,
  formatWatchlist,
  type OfficialFlags,
  WATCHLIST_FIELDS,
  withOfficialFlags,
} from './format.js';

export interface ContractsChange {
  name: 'sync' | 'add' | 'remove';
  description: string;
  /** Whether the command runs with no code (sync empties the list). */
  codesOptional: boolean;
  send(client: DaemonClient, id: string, body: { contracts: { code: string }[] }): Promise<Watchlist>;
  example: string;
}

export function registerContractsChange(watchlist: Command, env: CliEnv, change: ContractsChange): void {
  withOfficialFlags(watchlist.command(`${change.name} [ID] [CODE...]`), ['id', 'codes'])
    .description(change.description)
    .addHelpText('after', `\nExample:\n  $ sjgate watchlist ${change.example}`)
    .action(
      action<OfficialFlags>(
        env,
        async (cli, options, args) => {
          // commander hands a variadic argument over as one array
          const [id, codes = []] = args as unknown as [string | undefined, string[] | undefined];
          const listId = argumentOrFlag(id, options.id, 'id');
          const body = { contracts: contractsOfFlags(codes, options) };
          if (body.contracts.length === 0 && !change.codesOptional) {
            throw new UsageError(`name the contracts to ${change.name}, as arguments or --codes`);
          }
          const answer = await cli.call((client) => change.send(client, listId, body));
          cli.emit(answer, formatWatchlist);
        },
        { fields: WATCHLIST_FIELDS },
      ),
    );
}
