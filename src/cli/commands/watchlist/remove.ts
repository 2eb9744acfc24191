// `sjgate watchlist remove ID CODE...`: remove contracts from a watchlist.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerContractsChange } from './change.js';

export function registerRemove(watchlist: Command, env: CliEnv): void {
  registerContractsChange(watchlist, env, {
    name: 'remove',
    description: 'remove contracts from a watchlist by code (a code not in it is ignored)',
    codesOptional: false,
    send: (client, id, body) => client.watchlists.removeContracts(id, body),
    example: 'remove wl-1 2454',
  });
}
