// `sjgate server start`: start the daemon in the background (or in this process), or report the one running.

import { type Command, Option } from 'commander';
import { loadConfig } from '../../../config.js';
import { action, type CliEnv } from '../../context.js';
import { type DaemonInfo, ensureDaemon, runForeground } from '../../daemon.js';
import { formatHeading, formatRecord } from '../../output.js';
import { integerIn } from '../../parsers.js';

/** The official CLI's start flags, on the `server` group (`sjgate server --production`, `server start --production`). */
interface ModeOptions {
  production?: boolean;
  prod?: boolean;
  auth?: boolean;
  receiveWindow?: number;
  /** --no-open: sjgate opens no browser, so it changes nothing. */
  open?: boolean;
}

interface StartOptions extends ModeOptions {
  foreground?: boolean;
}

/** Adds the official CLI's start flags to the `server` group, which parses them for `start` too. */
export function withModeOptions(command: Command): Command {
  return command
    .option(
      '--production',
      'trade through SinoPac, not the simulator: sets SJ_PRODUCTION=true for the daemon (`sjgate setup production` first)',
    )
    .addOption(new Option('--prod', 'the same as --production').hideHelp())
    .option('--auth', 'ask for Authorization: Bearer <SJ_API_KEY>:<SJ_SEC_KEY> on TCP even on 127.0.0.1 (SJ_HTTP_AUTH)')
    .option(
      '--receive-window <MS>',
      "production login: how far this machine's clock may be from SinoPac's, in ms (SJ_RECEIVE_WINDOW, default 30000)",
      integerIn(1_000, 600_000),
    )
    .option('--no-open', 'taken for the official CLI; sjgate never opens a browser (the dashboard is at the url)');
}

/** The environment the daemon starts with: this one, with what the flags set. */
export function daemonEnv(options: ModeOptions): NodeJS.ProcessEnv {
  const env = { ...process.env };
  if (options.production || options.prod) env.SJ_PRODUCTION = 'true';
  if (options.auth) env.SJ_HTTP_AUTH = 'true';
  if (options.receiveWindow !== undefined) env.SJ_RECEIVE_WINDOW = String(options.receiveWindow);
  return env;
}

/** The flags that choose how a daemon starts, as given: they cannot change one that is already running. */
function startOnlyFlags(options: ModeOptions, info: DaemonInfo): string[] {
  const production = (options.production || options.prod) && info.simulation;
  return [
    ...(production ? ['--production'] : []),
    ...(options.auth ? ['--auth'] : []),
    ...(options.receiveWindow !== undefined ? ['--receive-window'] : []),
  ];
}

const START_FIELDS = ['status', 'pid', 'simulation', 'host', 'port', 'url', 'socket_path', 'log_path'] as const;

function startReport(started: boolean, info: DaemonInfo): Record<(typeof START_FIELDS)[number], unknown> {
  return {
    status: started ? 'started' : 'already_running',
    pid: info.pid,
    simulation: info.simulation,
    host: info.host,
    port: info.port,
    url: info.url,
    socket_path: info.socketPath,
    log_path: info.logPath,
  };
}

function describeDaemon(started: boolean, info: DaemonInfo, color: boolean): string {
  const mode = info.simulation ? 'simulation' : 'production';
  const heading = `sjgate is ${started ? '' : 'already '}running (${mode}) pid ${info.pid ?? 'unknown'}`;
  const where = formatRecord(
    { url: info.url, dashboard: `${info.url}/`, socket: info.socketPath, log: info.logPath },
    { indent: 2, color },
  );
  return `${formatHeading(heading, color)}\n${where}`;
}

export function registerStart(server: Command, env: CliEnv): void {
  server
    .command('start', { isDefault: true })
    .description('start the daemon in the background, or report the one already running')
    .option('--foreground', 'run the gateway in this process (logs to stdout; Ctrl+C stops it)')
    .addHelpText(
      'after',
      `
The global --host and --port options choose the address to bind (they override SJ_HTTP_ADDR); --production,
--auth, --receive-window and --no-open, the official CLI's, are the \`server\` group's (\`sjgate server --auth\` and
\`sjgate server start --auth\` are the same).

Examples:
  $ sjgate server start
  $ sjgate server start --port 9000
  $ sjgate server start --foreground --host 0.0.0.0
  $ sjgate server start --production --no-open             # the official CLI's flags`,
    )
    .action(
      action<StartOptions>(
        env,
        async (cli, own) => {
          // The group parses its flags wherever they are given: `server --auth` and `server start --auth` alike.
          const options = { ...server.opts<ModeOptions>(), ...own };
          const daemonEnvironment = daemonEnv(options);
          const config = loadConfig(daemonEnvironment, { host: cli.globals.host, port: cli.globals.port });
          if (options.foreground) return runForeground(config, cli.runtime);
          const { started, info } = await ensureDaemon(config, cli.runtime, daemonEnvironment);
          cli.emit(startReport(started, info), (_, color) => describeDaemon(started, info, color));
          const unapplied = started ? [] : startOnlyFlags(options, info);
          if (unapplied.length > 0) {
            cli.printError(
              `note: sjgate was already running, so ${unapplied.join(', ')} (which choose how it starts) did not ` +
                'apply: `sjgate server stop`, then start it again with them',
            );
          }
        },
        { fields: START_FIELDS },
      ),
    );
}
