// `sjgate apps list|upload|delete`: web apps the gateway serves at /apps/<name>/.

import { type Command, Option } from 'commander';
import type { GatewayConfig } from '../../config.js';
import { APP_PATHS, appPath } from '../../contract/paths.js';
import { MAX_APP_BYTES, MAX_APP_FILES, MB } from '../../domain/apps.js';
import { checkApp, filesOfFolder, filesOfPaths, formatSize } from '../app-files.js';
import { action, UsageError } from '../context.js';
import type { Runtime } from '../daemon.js';
import { multipartBody } from '../multipart.js';
import { formatTable } from '../output.js';
import { text } from '../parsers.js';
import { ProgressLine } from '../progress.js';

interface AppList {
  apps: string[];
}

interface Uploaded {
  name: string;
  files: string[];
}

interface UploadOptions {
  name: string;
  dir?: string;
  file?: string[];
}

/** Where a browser opens the app; a wildcard bind address is reached through loopback. */
export function appUrl(config: Pick<GatewayConfig, 'host' | 'port' | 'tls'>, name: string): string {
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  const shown = host.includes(':') ? `[${host}]` : host;
  return `${config.tls ? 'https' : 'http'}://${shown}:${config.port}/apps/${encodeURIComponent(name)}/`;
}

export function registerApps(program: Command, runtime: Runtime): void {
  const apps = program
    .command('apps')
    .description('web apps served by the gateway at /apps/<name>/ (public pages that call the API)');

  apps
    .command('list')
    .description('list the uploaded apps and their addresses')
    .action(
      action(runtime, async (cli) => {
        const answer = await cli.call((client) => client.get<AppList>(APP_PATHS.apps));
        cli.emit(answer, ({ apps }) =>
          formatTable(
            apps.map((name) => ({ name, url: appUrl(cli.config, name) })),
            ['name', 'url'],
          ),
        );
      }),
    );

  apps
    .command('upload')
    .description('upload a built web app, replacing the app of the same name')
    .requiredOption('--name <NAME>', "the app's name: letters, digits, '.', '_' and '-', up to 64", text)
    .addOption(
      new Option('--dir <DIR>', 'the folder to upload with everything in it (index.html at its top)').conflicts('file'),
    )
    .addOption(
      new Option(
        '--file <PATH...>',
        'files to upload (repeatable): a relative path keeps its folders, an absolute path only its name',
      ),
    )
    .addHelpText(
      'after',
      `
Build the app with the base path /apps/<NAME>/ (Vite: --base /apps/<NAME>/), then upload what the build wrote.
At most ${MAX_APP_BYTES / MB} MB and ${MAX_APP_FILES.toLocaleString('en')} files; index.html is the entry point.

Examples:
  $ sjgate apps upload --name myapp --dir dist
  $ cd dist && sjgate apps upload --name myapp --file index.html --file assets/index-B7xk2Q9a.js`,
    )
    .action(
      action<UploadOptions>(runtime, async (cli, options) => {
        if (options.dir === undefined && options.file === undefined) {
          throw new UsageError('give the app as --dir <DIR> or as --file <PATH>...');
        }
        const files =
          options.dir === undefined ? await filesOfPaths(options.file ?? []) : await filesOfFolder(options.dir);
        checkApp(files, options.dir);
        let progress: ProgressLine | null = null;
        const body = multipartBody(files, (sent) => progress?.update(sent));
        if (process.stderr.isTTY) progress = new ProgressLine(process.stderr, `Uploading ${options.name}`, body.length);
        let answer: Uploaded;
        try {
          answer = await cli.call((client) => client.sendStream<Uploaded>('POST', appPath(options.name), body));
        } finally {
          progress?.clear();
        }
        const bytes = files.reduce((sum, file) => sum + file.size, 0);
        cli.emit(
          answer,
          ({ name, files }) =>
            `Uploaded ${name}: ${files.length} ${files.length === 1 ? 'file' : 'files'}, ${formatSize(bytes)}\n` +
            `Open ${appUrl(cli.config, name)}`,
        );
      }),
    );

  apps
    .command('delete')
    .description('delete an app')
    .requiredOption('--name <NAME>', "the app's name", text)
    .action(
      action<{ name: string }>(runtime, async (cli, options) => {
        const answer = await cli.call((client) => client.delete<{ deleted: string }>(appPath(options.name)));
        cli.emit(answer, ({ deleted }) => `Deleted app ${deleted}`);
      }),
    );
}
