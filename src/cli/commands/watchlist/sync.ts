// `sjgate watchlist sync ID CODE...`: replace every contract of a watchlist.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerContractsChange } from './change.js';

export function registerSync(watchlist: Command, env: CliEnv): void {
  registerContractsChange(watchlist, env, {
    name: 'sync',
    description: "replace a watchlist's contracts with these, in this order (none empties it)",
    codesOptional: true,
    send: (client, id, body) => client.watchlists.replace(id, body),
    example: 'sync wl-1 2330 2317 TXFR1',
  });
}
