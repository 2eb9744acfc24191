// `sjgate utils token ...|api check`: the official CLI's utilities, as far as they apply to a gateway. The token pool
// commands do not (sjgate keeps no token pool) and say where the pool they mean is managed; `api check` runs the
// checks of `sjgate doctor`.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerApi } from './api.js';
import { registerToken } from './token.js';

export function registerUtils(program: Command, env: CliEnv): void {
  const utils = program
    .command('utils')
    .description("the official CLI's utilities: token (no token pool here, see its help) and api check");
  registerToken(utils, env);
  registerApi(utils, env);
}
