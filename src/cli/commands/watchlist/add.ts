// `sjgate watchlist add ID CODE...`: add contracts at the end of a watchlist.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerContractsChange } from './change.js';

export function registerAdd(watchlist: Command, env: CliEnv): void {
  registerContractsChange(watchlist, env, {
    name: 'add',
    description: 'add contracts at the end of a watchlist (those already in it stay where they are)',
    codesOptional: false,
    send: (client, id, body) => client.watchlists.addContracts(id, body),
    example: 'add wl-1 2454 TXFR1',
  });
}
