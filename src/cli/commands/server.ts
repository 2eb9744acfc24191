// `sjgate server start|stop|status`: the daemon's life cycle.

import type { Command } from 'commander';
import type { GatewayConfig } from '../../config.js';
import { SERVER_PATHS, STREAM_PATHS } from '../../contract/paths.js';
import { ApiError } from '../client.js';
import { action, EXIT } from '../context.js';
import {
  type DaemonInfo,
  daemonClient,
  daemonPid,
  ensureDaemon,
  probeHealth,
  type Runtime,
  runForeground,
  stopDaemon,
} from '../daemon.js';
import { formatHeading, formatRecord } from '../output.js';

interface StartOptions {
  foreground?: boolean;
}

interface StatusOptions {
  streams?: boolean;
}

export interface ServerStatus {
  running: boolean;
  pid: number | null;
  port: number;
  socket_path: string;
  healthy: boolean;
  simulation: boolean;
  stream_receivers: string | null;
  stream_status?: unknown;
}

export function registerServer(program: Command, runtime: Runtime): void {
  const server = program
    .command('server')
    .description('start, stop and inspect the sjgate daemon (no subcommand: start)')
    .addHelpText(
      'after',
      `
The daemon serves the API on TCP (SJ_HTTP_ADDR, default 127.0.0.1:8080, or --host/--port) and on the
Unix socket <SJ_HOME_PATH>/sessions/server-<port>.sock. Its output goes to <SJ_HOME_PATH>/logs/server-<port>.log.`,
    );

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
      action<StartOptions>(runtime, async (cli, options) => {
        if (options.foreground) return runForeground(cli.config, runtime);
        const { started, info } = await ensureDaemon(cli.config, runtime);
        cli.emit(startReport(started, info), () => describeDaemon(started, info));
      }),
    );

  server
    .command('stop')
    .description('stop the daemon (SIGTERM; SIGKILL if it is still there after 10 s)')
    .addHelpText('after', '\nExit code 3 when no daemon is running.')
    .action(
      action(runtime, async (cli) => {
        const stopped = await stopDaemon(cli.config);
        if (stopped === null) {
          cli.emit({ stopped: false, running: false }, () => 'not running');
          process.exitCode = EXIT.notRunning;
          return;
        }
        cli.emit({ stopped: true, pid: stopped.pid, forced: stopped.forced }, () =>
          stopped.forced ? `stopped (pid ${stopped.pid} did not exit within 10 s and was killed)` : 'stopped',
        );
      }),
    );

  server
    .command('status')
    .description('show whether the daemon runs and is healthy')
    .option('--streams', `also show the stream status (GET ${STREAM_PATHS.status})`)
    .addHelpText(
      'after',
      `
Exit codes: 0 running and healthy, 1 running but not healthy, 3 not running.

Examples:
  $ sjgate server status
  $ sjgate server status --streams --format json`,
    )
    .action(
      action<StatusOptions>(runtime, async (cli, options) => {
        const status = await serverStatus(cli.config, options.streams === true);
        cli.emit(status, formatServerStatus);
        if (!status.running) process.exitCode = EXIT.notRunning;
        else if (!status.healthy) process.exitCode = EXIT.error;
      }),
    );
}

/**
 * The status as key/value lines; with --streams, the stream status follows under its own heading, with the clients
 * of each stream (`streams`: counts per stream name) as one line per stream, busiest first.
 */
export function formatServerStatus(status: ServerStatus): string {
  const { stream_status: streamStatus, ...rest } = status;
  const lines = [formatRecord({ ...rest })];
  if (!('stream_status' in status)) return lines[0] as string;
  if (streamStatus === null || typeof streamStatus !== 'object') {
    lines.push(`${formatHeading('stream status')}\n  (not available)`);
    return lines.join('\n');
  }
  const { streams, ...summary } = streamStatus as Record<string, unknown>;
  lines.push(formatHeading('stream status'), formatRecord(summary, { indent: 2 }));
  if (streams !== null && typeof streams === 'object') {
    const counts = Object.entries(streams as Record<string, unknown>).sort(
      ([, a], [, b]) => (typeof b === 'number' ? b : 0) - (typeof a === 'number' ? a : 0),
    );
    lines.push(formatHeading('clients per stream'), formatRecord(Object.fromEntries(counts), { indent: 2 }));
  }
  return lines.join('\n');
}

function startReport(started: boolean, info: DaemonInfo) {
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

function describeDaemon(started: boolean, info: DaemonInfo): string {
  const mode = info.simulation ? 'simulation' : 'production';
  const heading = `sjgate is ${started ? '' : 'already '}running (${mode}) pid ${info.pid ?? 'unknown'}`;
  const where = formatRecord(
    { url: info.url, dashboard: `${info.url}/`, socket: info.socketPath, log: info.logPath },
    { indent: 2 },
  );
  return `${formatHeading(heading)}\n${where}`;
}

async function serverStatus(config: GatewayConfig, streams: boolean): Promise<ServerStatus> {
  const client = daemonClient(config, 5_000);
  const health = await probeHealth(client);
  const pid = daemonPid(config);
  const status: ServerStatus = {
    running: health !== null || pid !== null,
    pid,
    port: config.port,
    socket_path: config.socketPath,
    healthy: health?.healthy ?? false,
    simulation: !config.production,
    stream_receivers: null,
  };
  if (streams) status.stream_status = null;
  if (health === null) return status;
  const optional = async <T>(request: () => Promise<T>): Promise<T | null> => {
    try {
      return await request();
    } catch (error) {
      if (error instanceof ApiError) return null;
      throw error;
    }
  };
  const info = await optional(() => client.get<{ simulation?: unknown }>(SERVER_PATHS.info));
  if (typeof info?.simulation === 'boolean') status.simulation = info.simulation;
  const receivers = await optional(() => client.get<unknown>(STREAM_PATHS.receivers));
  status.stream_receivers = typeof receivers === 'string' || receivers === null ? receivers : JSON.stringify(receivers);
  if (streams) status.stream_status = await optional(() => client.get(STREAM_PATHS.status));
  return status;
}
