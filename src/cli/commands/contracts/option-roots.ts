// `sjgate contracts option-roots`: the option product roots and their names.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerRoots } from './roots.js';

export function registerOptionRoots(contracts: Command, env: CliEnv): void {
  registerRoots(contracts, env, {
    name: 'option-roots',
    method: (client) => client.contracts.optionsRoots,
    what: 'option',
  });
}
