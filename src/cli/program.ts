// The command tree of `sjgate`: global options, the exit codes in the help, and one group per file in commands/.

import { Command, Option } from 'commander';
import { registerApps } from './commands/apps.js';
import { registerAuth } from './commands/auth.js';
import { registerContracts } from './commands/contracts.js';
import { registerData } from './commands/data.js';
import { registerOrder } from './commands/order.js';
import { registerPortfolio } from './commands/portfolio.js';
import { registerServer } from './commands/server.js';
import type { Runtime } from './daemon.js';
import { FORMATS } from './output.js';
import { integerIn, text } from './parsers.js';

export function createProgram(runtime: Runtime): Command {
  const program = new Command('sjgate')
    .description('A local gateway with the Shioaji trading API for the Taiwan market, with a built-in simulator.')
    .version(`sjgate ${runtime.version}`, '-V, --version', 'print the version')
    .addOption(
      new Option('--format <FORMAT>', 'output: human (tables) or json (the API response, pretty)')
        .choices(FORMATS)
        .default('human'),
    )
    .option('--host <HOST>', 'daemon address (overrides SJ_HTTP_ADDR)', text)
    .option('--port <PORT>', 'daemon port (overrides SJ_HTTP_ADDR; also selects the socket)', integerIn(0, 65535))
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .showHelpAfterError('(add --help for more information)')
    .exitOverride()
    .addHelpText(
      'after',
      `
Every command except \`server\` talks to the daemon over its Unix socket (TCP as fallback) and starts
the daemon when none runs. Configuration comes from the environment and from .env in this directory:
SJ_HTTP_ADDR (default 127.0.0.1:8080), SJ_HOME_PATH (data home, default ~/.sjgate), SJ_PRODUCTION.

Exit codes:
  0  success
  1  error (the API refused the request, or the daemon cannot be reached)
  2  bad usage or configuration
  3  daemon not running (server status, server stop)

Examples:
  $ sjgate server start
  $ sjgate contracts get 2330 --format json
  $ sjgate auth usage
  $ sjgate server stop`,
    );
  registerServer(program, runtime);
  registerAuth(program, runtime);
  registerApps(program, runtime);
  registerContracts(program, runtime);
  registerData(program, runtime);
  registerOrder(program, runtime);
  registerPortfolio(program, runtime);
  return program;
}
