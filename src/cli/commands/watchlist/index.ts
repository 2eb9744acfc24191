// `sjgate watchlist list|create|show|sync|delete|add|remove`: the person's named lists of contracts.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerAdd } from './add.js';
import { registerCreate } from './create.js';
import { registerDelete } from './delete.js';
import { registerList } from './list.js';
import { registerRemove } from './remove.js';
import { registerShow } from './show.js';
import { registerSync } from './sync.js';

export function registerWatchlist(program: Command, env: CliEnv): void {
  const watchlist = program
    .command('watchlist')
    .description("named lists of contracts, kept by the gateway (the dashboard's market watch loads them)");
  registerList(watchlist, env);
  registerCreate(watchlist, env);
  registerShow(watchlist, env);
  registerSync(watchlist, env);
  registerDelete(watchlist, env);
  registerAdd(watchlist, env);
  registerRemove(watchlist, env);
}
