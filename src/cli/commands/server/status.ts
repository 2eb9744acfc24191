// `sjgate server status`: whether the daemon runs and is healthy (exit 0 healthy, 1 not healthy, 3 not running).

import type { Command } from 'commander';
import type { GatewayConfig } from '../../../config.js';
import { STREAM_PATHS } from '../../../contract/paths.js';
import { ApiError } from '../../client.js';
import { action, type CliEnv, EXIT } from '../../context.js';
import { daemonClient, daemonPid, probeHealth } from '../../daemon.js';
import { formatHeading, formatRecord } from '../../output.js';

interface StatusOptions {
  streams?: boolean;
}

export interface ServerStatus {
  running: boolean;
  pid: number | null;
  port: number;
  socket_path: string;
  healthy: boolean;
  /** What the running daemon serves; null when none runs (nothing is served). */
  simulation: boolean | null;
  stream_receivers: string | null;
  stream_status?: unknown;
}

/**
 * The status as key/value lines; with --streams, the stream status follows under its own heading, with the clients
 * of each stream (`streams`: counts per stream name) as one line per stream, busiest first.
 */
export function formatServerStatus(status: ServerStatus, color = false): string {
  if (!status.running) {
    return `sjgate is not running (port ${status.port}, socket ${status.socket_path}); start it with \`sjgate server start\``;
  }
  const { stream_status: streamStatus, ...rest } = status;
  const lines = [formatRecord({ ...rest }, { color })];
  if (!('stream_status' in status)) return lines[0] as string;
  if (streamStatus === null || typeof streamStatus !== 'object') {
    lines.push(`${formatHeading('stream status', color)}\n  (not available)`);
    return lines.join('\n');
  }
  const { streams, ...summary } = streamStatus as Record<string, unknown>;
  lines.push(formatHeading('stream status', color), formatRecord(summary, { indent: 2, color }));
  if (streams !== null && typeof streams === 'object') {
    const counts = Object.entries(streams as Record<string, unknown>).sort(
      ([, a], [, b]) => (typeof b === 'number' ? b : 0) - (typeof a === 'number' ? a : 0),
    );
    lines.push(
      formatHeading('clients per stream', color),
      formatRecord(Object.fromEntries(counts), { indent: 2, color }),
    );
  }
  return lines.join('\n');
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
    simulation: null,
    stream_receivers: null,
  };
  if (streams) status.stream_status = null;
  if (health === null) return status;
  status.simulation = !config.production;
  const optional = async <T>(request: () => Promise<T>): Promise<T | null> => {
    try {
      return await request();
    } catch (error) {
      if (error instanceof ApiError) return null;
      throw error;
    }
  };
  const info = await optional(() => client.server.info<{ simulation?: unknown }>());
  if (typeof info?.simulation === 'boolean') status.simulation = info.simulation;
  const receivers = await optional(() => client.stream.receivers<unknown>());
  status.stream_receivers = typeof receivers === 'string' || receivers === null ? receivers : JSON.stringify(receivers);
  if (streams) status.stream_status = await optional(() => client.stream.status());
  return status;
}

export function registerStatus(server: Command, env: CliEnv): void {
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
      action<StatusOptions>(env, async (cli, options) => {
        const status = await serverStatus(cli.config, options.streams === true);
        cli.emit(status, formatServerStatus);
        if (!status.running) cli.io.setExitCode(EXIT.notRunning);
        else if (!status.healthy) cli.io.setExitCode(EXIT.error);
      }),
    );
}
