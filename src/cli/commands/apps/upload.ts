// `sjgate apps upload`: upload a built web app, replacing the app of the same name.

import { type Command, Option } from 'commander';
import type { AppUploaded } from '../../../contract/wire.js';
import { MAX_APP_BYTES, MAX_APP_FILES, MB } from '../../../domain/apps.js';
import { checkApp, filesOfFolder, filesOfPaths, formatSize } from '../../app-files.js';
import { action, type CliEnv, UsageError } from '../../context.js';
import { multipartBody } from '../../multipart.js';
import { text } from '../../parsers.js';
import { ProgressLine } from '../../progress.js';
import { appUrl } from './app-url.js';

interface UploadOptions {
  name: string;
  dir?: string;
  file?: string[];
}

export function registerUpload(apps: Command, env: CliEnv): void {
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
      action<UploadOptions>(
        env,
        async (cli, options) => {
          if (options.dir === undefined && options.file === undefined) {
            throw new UsageError('give the app as --dir <DIR> or as --file <PATH>...');
          }
          const files =
            options.dir === undefined ? await filesOfPaths(options.file ?? []) : await filesOfFolder(options.dir);
          checkApp(files, options.dir);
          let progress: ProgressLine | null = null;
          const body = multipartBody(files, (sent) => progress?.update(sent));
          if (cli.io.stderr.isTTY) progress = new ProgressLine(cli.io.stderr, `Uploading ${options.name}`, body.length);
          let answer: AppUploaded;
          try {
            answer = await cli.call((client) => client.apps.upload(options.name, body));
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
        },
        { fields: ['name', 'files'] },
      ),
    );
}
