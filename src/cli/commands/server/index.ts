// `sjgate server start|stop|status|check|metrics`: the daemon's life cycle, and its own request metrics.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerCheck } from './check.js';
import { registerMetrics } from './metrics.js';
import { registerStart, withModeOptions } from './start.js';
import { registerStatus } from './status.js';
import { registerStop } from './stop.js';

export function registerServer(program: Command, env: CliEnv): void {
  const server = withModeOptions(program.command('server'))
    .description('start, stop and inspect the sjgate daemon (no subcommand: start)')
    .addHelpText(
      'after',
      `
The daemon serves the API on TCP (SJ_HTTP_ADDR, default 127.0.0.1:8080, or --host/--port) and on the
Unix socket <SJ_HOME_PATH>/server-<port>.sock; its pid is in <SJ_HOME_PATH>/server-<port>.pid, where the official
shioaji CLI looks too, so both CLIs share one daemon. Its output goes to <SJ_HOME_PATH>/logs/server-<port>.log.`,
    );
  registerStart(server, env);
  registerStop(server, env);
  registerStatus(server, env);
  registerCheck(server, env);
  registerMetrics(server, env);
}
