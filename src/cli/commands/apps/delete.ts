// `sjgate apps delete`: delete an app.

import type { Command } from 'commander';
import { action, type CliEnv } from '../../context.js';
import { text } from '../../parsers.js';

export function registerDelete(apps: Command, env: CliEnv): void {
  apps
    .command('delete')
    .description('delete an app')
    .requiredOption('--name <NAME>', "the app's name", text)
    .action(
      action<{ name: string }>(
        env,
        async (cli, options) => {
          const answer = await cli.call((client) => client.apps.remove(options.name));
          cli.emit(answer, ({ deleted }) => `Deleted app ${deleted}`);
        },
        { fields: ['deleted'] },
      ),
    );
}
