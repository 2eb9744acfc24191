// The command tree of `sjgate`: the global options and help of program-base.ts, and one group per directory in
// commands/ (each command in a file of its own). lazy-program.ts builds the same with only the group a command needs.

import type { Command } from 'commander';
import { registerAgent } from './commands/agent/index.js';
import { registerApps } from './commands/apps/index.js';
import { registerAuth } from './commands/auth/index.js';
import { registerCompletions } from './commands/completions.js';
import { registerContracts } from './commands/contracts/index.js';
import { registerData } from './commands/data/index.js';
import { registerDoctor } from './commands/doctor.js';
import { registerOrder } from './commands/order/index.js';
import { registerPortfolio } from './commands/portfolio/index.js';
import { registerReserve } from './commands/reserve/index.js';
import { registerServer } from './commands/server/index.js';
import { registerSetup } from './commands/setup/index.js';
import { registerTree } from './commands/tree.js';
import { registerUtils } from './commands/utils/index.js';
import { registerVersion } from './commands/version.js';
import { registerWatchlist } from './commands/watchlist/index.js';
import type { Runtime } from './daemon.js';
import { type IO, processIO } from './io.js';
import { baseProgram } from './program-base.js';

/** The program; it writes to `io` (the process's streams unless given), commander's own messages included. */
export function createProgram(runtime: Runtime, io: IO = processIO()): Command {
  const { program, env } = baseProgram(runtime, io);
  registerServer(program, env);
  registerSetup(program, env);
  registerDoctor(program, env);
  registerAuth(program, env);
  registerApps(program, env);
  registerContracts(program, env);
  registerData(program, env);
  registerOrder(program, env);
  registerPortfolio(program, env);
  registerReserve(program, env);
  registerWatchlist(program, env);
  registerAgent(program, env);
  registerUtils(program, env);
  registerVersion(program, env);
  registerTree(program, env);
  registerCompletions(program, env);
  return program;
}
