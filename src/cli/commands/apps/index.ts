// `sjgate apps list|upload|delete`: web apps the gateway serves at /apps/<name>/.

import type { Command } from 'commander';
import type { CliEnv } from '../../context.js';
import { registerDelete } from './delete.js';
import { registerList } from './list.js';
import { registerUpload } from './upload.js';

export function registerApps(program: Command, env: CliEnv): void {
  const apps = program
    .command('apps')
    .description('web apps served by the gateway at /apps/<name>/ (public pages that call the API)');
  registerList(apps, env);
  registerUpload(apps, env);
  registerDelete(apps, env);
}
