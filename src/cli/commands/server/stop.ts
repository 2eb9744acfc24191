// `sjgate server stop`: stop the daemon (exit 3 when none runs).

import type { Command } from 'commander';
import { action, type CliEnv, EXIT } from '../../context.js';
import { stopDaemon } from '../../daemon.js';

export function registerStop(server: Command, env: CliEnv): void {
  server
    .command('stop')
    .description('stop the daemon (SIGTERM; SIGKILL if it is still there after 10 s)')
    .addHelpText('after', '\nExit code 3 when no daemon is running.')
    .action(
      action(
        env,
        async (cli) => {
          const stopped = await stopDaemon(cli.config);
          if (stopped === null) {
            cli.emit({ stopped: false, running: false }, () => 'not running');
            cli.io.setExitCode(EXIT.notRunning);
            return;
          }
          cli.emit({ stopped: true, pid: stopped.pid, forced: stopped.forced }, () =>
            stopped.forced ? `stopped (pid ${stopped.pid} did not exit within 10 s and was killed)` : 'stopped',
          );
        },
        { fields: ['stopped', 'running', 'pid', 'forced'] },
      ),
    );
}
