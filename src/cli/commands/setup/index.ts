// `sjgate setup production`: prepare what a mode of sjgate needs besides Node.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerProduction } from './production.js';

export function registerSetup(program: Command, env: CliEnv): void {
  const setup = program
    .command('setup')
    .description("prepare what a mode needs besides Node (production: shioaji and sjgate's Python bridge)");
  registerProduction(setup, env);
}
