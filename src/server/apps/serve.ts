// Which file answers a request for an app's page: the file asked for, or index.html for a client-side route (a
// path that is no file and has no extension), so a single-page app can use real URLs.

import { extname } from 'node:path';
import { APP_PATHS } from '../../contract/paths.js';
import { AppRefusal, checkAppName, requestedSegments } from './paths.js';
import { cacheControlOf, type OpenFile, REVALIDATE } from './send-file.js';
import type { AppStore } from './store.js';

export interface ServedFile {
  file: OpenFile;
  /** The name its type is taken from. */
  fileName: string;
  cacheControl: string;
}

export const appNotFound = (name: string) =>
  new AppRefusal('APP_NOT_FOUND', `no app '${name}' is uploaded; GET ${APP_PATHS.apps} lists the apps`);

/** Checks the name and that the app exists; an INVALID_REQUEST or APP_NOT_FOUND refusal otherwise. */
export async function requireApp(store: AppStore, name: string): Promise<void> {
  checkAppName(name);
  if (!(await store.has(name))) throw appNotFound(name);
}

/** The file answering `path` (the decoded part of the URL after /apps/<name>/), opened for reading. */
export async function fileToServe(store: AppStore, name: string, path: string): Promise<ServedFile> {
  await requireApp(store, name);
  const segments = requestedSegments(path);
  const last = segments.at(-1);
  if (last !== undefined) {
    const asked = await store.findFile(name, segments);
    if (asked.kind === 'file') {
      if (!path.endsWith('/')) return { file: asked, fileName: last, cacheControl: cacheControlOf(last) };
      // Asked for as a folder: served there, the file's relative URLs would resolve against a folder that is not.
      await asked.handle.close();
      const file = segments.join('/');
      throw new AppRefusal(
        'APP_FILE_NOT_FOUND',
        `app '${name}' has no folder ${file}: it is a file, at /apps/${name}/${file}`,
      );
    }
    if (asked.kind === 'outside' || extname(last) !== '') {
      throw new AppRefusal('APP_FILE_NOT_FOUND', `app '${name}' has no file ${segments.join('/')}`);
    }
  }
  const entry = await store.findFile(name, ['index.html']);
  if (entry.kind !== 'file') throw new AppRefusal('APP_FILE_NOT_FOUND', `app '${name}' has no index.html`);
  return { file: entry, fileName: 'index.html', cacheControl: REVALIDATE };
}
