// The program for one command line, loading only the group of commands it runs: a CLI round trip then loads a
// tenth of the modules. A command line this cannot place (help, the version, a command it does not list) gets the
// whole program of program.ts.

import type { Command } from 'commander';
import type { CliEnv } from './context.js';
import type { Runtime } from './daemon.js';
import type { IO } from './io.js';
import { baseProgram } from './program-base.js';

type Register = (program: Command, env: CliEnv) => void;

/** The groups whose commands need nothing from the others, and how to load each. */
const GROUPS: Readonly<Record<string, () => Promise<Register>>> = {
  server: async () => (await import('./commands/server/index.js')).registerServer,
  setup: async () => (await import('./commands/setup/index.js')).registerSetup,
  doctor: async () => (await import('./commands/doctor.js')).registerDoctor,
  auth: async () => (await import('./commands/auth/index.js')).registerAuth,
  apps: async () => (await import('./commands/apps/index.js')).registerApps,
  contracts: async () => (await import('./commands/contracts/index.js')).registerContracts,
  data: async () => (await import('./commands/data/index.js')).registerData,
  order: async () => (await import('./commands/order/index.js')).registerOrder,
  portfolio: async () => (await import('./commands/portfolio/index.js')).registerPortfolio,
  reserve: async () => (await import('./commands/reserve/index.js')).registerReserve,
  watchlist: async () => (await import('./commands/watchlist/index.js')).registerWatchlist,
  agent: async () => (await import('./commands/agent/index.js')).registerAgent,
  utils: async () => (await import('./commands/utils/index.js')).registerUtils,
};

/** The global options that take a value (`--json` only when the next word is not an option), and those that do not. */
const VALUE_OPTIONS = new Set(['-f', '--format', '--host', '--port', '--json']);
const FLAG_OPTIONS = new Set(['-v', '--verbose']);

/** The first word of the arguments (after `node sjgate`) that is not a global option or its value; null if none. */
export function commandWord(args: readonly string[]): string | null {
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as string;
    if (!word.startsWith('-')) return word;
    if (word.includes('=') || FLAG_OPTIONS.has(word)) continue;
    if (!VALUE_OPTIONS.has(word)) return null;
    const next = args[index + 1];
    if (word !== '--json' || (next !== undefined && !next.startsWith('-'))) index++;
  }
  return null;
}

/** The program for `argv` (as process.argv): only its group when one is named, else every command. */
export async function programFor(runtime: Runtime, io: IO, argv: readonly string[]): Promise<Command> {
  const word = commandWord(argv.slice(2));
  const load = word === null ? undefined : GROUPS[word];
  if (load === undefined) return (await import('./program.js')).createProgram(runtime, io);
  const { program, env } = baseProgram(runtime, io);
  (await load())(program, env);
  return program;
}
