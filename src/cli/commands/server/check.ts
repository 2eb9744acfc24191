// `sjgate server check`: is the daemon up and healthy? The exit code answers (0 healthy, 1 not healthy, 3 not
// running); it never starts a daemon.

import type { Command } from 'commander';
import { action, type CliEnv, EXIT } from '../../context.js';
import { daemonClient, probeHealth } from '../../daemon.js';
import { formatRecord } from '../../output.js';

export interface ServerCheck {
  running: boolean;
  healthy: boolean;
  port: number;
  /** The daemon's /health answer as it gave it; null when nothing answered. */
  health: unknown;
}

export function registerCheck(server: Command, env: CliEnv): void {
  server
    .command('check')
    .description('check that the daemon answers and is healthy; the exit code says which')
    .addHelpText(
      'after',
      `
Exit codes: 0 healthy, 1 answers but not healthy (e.g. still logging in), 3 not running.
Unlike other commands it does not start a daemon.

Examples:
  $ sjgate server check && echo ready
  $ sjgate server check --format json`,
    )
    .action(
      action(env, async (cli) => {
        const health = await probeHealth(daemonClient(cli.config, 5_000));
        const check: ServerCheck = {
          running: health !== null,
          healthy: health?.healthy ?? false,
          port: cli.config.port,
          health: health?.body ?? null,
        };
        cli.emit(check, (value, color) => formatRecord(value, { color }));
        if (!check.running) cli.io.setExitCode(EXIT.notRunning);
        else if (!check.healthy) cli.io.setExitCode(EXIT.error);
      }),
    );
}
