// The command tree of `sjgate`: global options, the exit codes in the help, and one group per directory in
// commands/ (each command in a file of its own).

import { Command, Option } from 'commander';
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
import type { CliEnv } from './context.js';
import type { Runtime } from './daemon.js';
import { type IO, processIO } from './io.js';
import { FORMATS } from './output.js';
import { integerIn, text } from './parsers.js';

/** The program; it writes to `io` (the process's streams unless given), commander's own messages included. */
export function createProgram(runtime: Runtime, io: IO = processIO()): Command {
  const env: CliEnv = { runtime, io };
  const program = new Command('sjgate')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .description('A local gateway with the Shioaji trading API for the Taiwan market, with a built-in simulator.')
    .version(`sjgate ${runtime.version}`, '-V, --version', 'print the version')
    .addOption(
      new Option(
        '-f, --format <FORMAT>',
        'output: human (tables), json (the API response, pretty) or toon (compact key: value lines, as the official CLI)',
      )
        .choices(FORMATS)
        .default('human'),
    )
    .option('-v, --verbose', "print each request to the daemon, its status and time on stderr (setup: pip's output)")
    .option('--host <HOST>', 'daemon address (overrides SJ_HTTP_ADDR)', text)
    .option('--port <PORT>', 'daemon port (overrides SJ_HTTP_ADDR; also selects the socket)', integerIn(0, 65535))
    .option('--json [FIELDS]', 'print JSON with only these fields, comma-separated (--json alone lists them)')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .showHelpAfterError('(add --help for more information)')
    .exitOverride()
    .addHelpText(
      'after',
      `
Every command except \`server\`, \`setup\`, \`doctor\`, \`utils\`, \`version\`, \`tree\` and \`completions\` talks to the
daemon over its Unix socket (TCP as fallback) and starts the daemon when none runs. Configuration comes from the environment and from .env in this
directory: SJ_HTTP_ADDR (default 127.0.0.1:8080), SJ_HOME_PATH (data home, default ~/.sjgate), SJ_PRODUCTION,
SJ_BACKEND (shioaji: SinoPac through the Python bridge instead of the simulator), SJ_PYTHON (the bridge's
interpreter, default <SJ_HOME_PATH>/python/bin/python, which \`sjgate setup production\` makes).

Exit codes:
  0  success
  1  error (the API refused the request, or the daemon cannot be reached)
  2  bad usage or configuration
  3  daemon not running (server status, server check, server stop)
  4  the broker refused the order or the change (the trade is printed; its message on stderr, in English too)

Examples:
  $ sjgate server start
  $ sjgate contracts get 2330 --format json
  $ sjgate contracts info 2330 --json code,name,limit_up
  $ sjgate auth usage
  $ sjgate server stop
  $ sjgate setup production && sjgate doctor`,
    );
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
