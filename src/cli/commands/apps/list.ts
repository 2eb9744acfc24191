// `sjgate apps list`: the uploaded apps and their addresses.

import type { Command } from 'commander';
import { action, type CliEnv } from '../../context.js';
import { formatTable } from '../../output.js';
import { appUrl } from './app-url.js';

export function registerList(apps: Command, env: CliEnv): void {
  apps
    .command('list')
    .description('list the uploaded apps and their addresses')
    .action(
      action(env, async (cli) => {
        const answer = await cli.call((client) => client.apps.list());
        cli.emit(answer, ({ apps }, color) =>
          formatTable(
            apps.map((name) => ({ name, url: appUrl(cli.config, name) })),
            ['name', 'url'],
            color,
          ),
        );
      }),
    );
}
