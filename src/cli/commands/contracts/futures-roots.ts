// `sjgate contracts futures-roots`: the futures product roots and their names.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerRoots } from './roots.js';

export function registerFuturesRoots(contracts: Command, env: CliEnv): void {
  registerRoots(contracts, env, {
    name: 'futures-roots',
    method: (client) => client.contracts.futuresRoots,
    what: 'futures',
  });
}
