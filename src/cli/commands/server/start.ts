// `sjgate server start`: start the daemon in the background (or in this process), or report the one running.

import type { Command } from 'commander';
import { action, type CliEnv } from '../../context.js';
import { type DaemonInfo, ensureDaemon, runForeground } from '../../daemon.js';
import { formatHeading, formatRecord } from '../../output.js';

interface StartOptions {
  foreground?: boolean;
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
The global --host and --port options choose the address to bind (they override SJ_HTTP_ADDR).

Examples:
  $ sjgate server start
  $ sjgate server start --port 9000
  $ sjgate server start --foreground --host 0.0.0.0`,
    )
    .action(
      action<StartOptions>(
        env,
        async (cli, options) => {
          if (options.foreground) return runForeground(cli.config, cli.runtime);
          const { started, info } = await ensureDaemon(cli.config, cli.runtime);
          cli.emit(startReport(started, info), (_, color) => describeDaemon(started, info, color));
        },
        { fields: START_FIELDS },
      ),
    );
}
