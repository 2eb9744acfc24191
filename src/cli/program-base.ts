// What every build of the `sjgate` program shares, whichever groups of commands it holds: the global options, and
// the help with the exit codes and examples.

import { Command, Option } from 'commander';
import type { CliEnv } from './context.js';
import type { Runtime } from './daemon.js';
import type { IO } from './io.js';
import { FORMATS } from './output.js';
import { integerIn, text } from './parsers.js';

/** The program without commands, and the env its commands are built with. */
export function baseProgram(runtime: Runtime, io: IO): { program: Command; env: CliEnv } {
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
  return { program, env };
}
