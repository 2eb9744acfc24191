// `sjgate contracts option-roots`: the option product roots and their names.

import type { Command } from 'commander';
import { CONTRACT_PATHS } from '../../../contract/paths.js';
import type { CliEnv } from '../../context.js';
import { registerRoots } from './roots.js';

export function registerOptionRoots(contracts: Command, env: CliEnv): void {
  registerRoots(contracts, env, { name: 'option-roots', path: CONTRACT_PATHS.optionsRoots, what: 'option' });
}
