// The files of an app to upload, from a folder or from paths given one by one, checked against the gateway's rules
// before anything is sent, so a mistake shows at once instead of after a long upload.

import { lstat, readdir, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, posix, resolve, sep } from 'node:path';
import {
  APP_SIZE_LIMIT,
  foldersOf,
  MAX_APP_BYTES,
  MAX_APP_FILES,
  MAX_APP_FOLDERS,
  MB,
  nestedEntryFolder,
  SIZE_ADVICE,
  sentPathProblem,
} from '../domain/apps.js';
import { UsageError } from './context.js';
import type { LocalFile } from './multipart.js';

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return bytes < MB ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / MB).toFixed(1)} MB`;
}

async function kindOf(path: string, what: string): Promise<'file' | 'folder' | 'other'> {
  try {
    const info = await stat(path);
    return info.isFile() ? 'file' : info.isDirectory() ? 'folder' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`${what}: no such file or folder`);
    throw error;
  }
}

/** Every file under `dir`, named by its path inside it; symbolic links and special files are refused. */
export async function filesOfFolder(dir: string): Promise<LocalFile[]> {
  if ((await kindOf(dir, `--dir ${dir}`)) !== 'folder') throw new UsageError(`--dir ${dir} is not a folder`);
  const files: LocalFile[] = [];
  const links: string[] = [];
  const special: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(join(dir, relative), { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const path = join(dir, name);
      if (entry.isSymbolicLink()) links.push(name);
      else if (entry.isDirectory()) await walk(name);
      else if (entry.isFile()) files.push({ name, path, size: (await lstat(path)).size });
      else special.push(name);
    }
  };
  await walk('');
  if (links.length > 0) {
    throw new Error(
      `${dir} has symbolic links, which are not uploaded: ${links.join(', ')}; ` +
        'replace them with the files they point to',
    );
  }
  if (special.length > 0) throw new Error(`${dir} has entries that are not files: ${special.join(', ')}`);
  return files;
}

/**
 * The files given by --file: a relative path keeps its folders inside the app (normalized, and it must not leave
 * the current folder); an absolute path puts the file at the top under its own name.
 */
export async function filesOfPaths(paths: readonly string[]): Promise<LocalFile[]> {
  const files: LocalFile[] = [];
  for (const given of paths) {
    // Only this system's separator separates folders: on Linux, a backslash is part of a file name (and refused).
    const name = isAbsolute(given) ? basename(given) : posix.normalize(given.split(sep).join('/'));
    if (name === '..' || name.startsWith('../')) {
      throw new UsageError(
        `--file ${given} is outside the current folder; give its absolute path to upload it at the top of the app`,
      );
    }
    const path = resolve(given);
    if ((await kindOf(path, `--file ${given}`)) !== 'file') throw new UsageError(`--file ${given} is not a file`);
    const same = files.find((file) => file.name === name);
    if (same) throw new UsageError(`--file ${same.path} and --file ${given} would both be ${name} in the app`);
    files.push({ name, path, size: (await stat(path)).size });
  }
  return files;
}

/**
 * Refuses an app the gateway would refuse, by the gateway's own rules: no files, too many files or folders, too big,
 * a name that is no valid path, no index.html at the top. `dir` is the folder given with --dir, if any.
 */
export function checkApp(files: readonly LocalFile[], dir?: string): void {
  if (files.length === 0) throw new Error('nothing to upload: no files');
  for (const { name } of files) {
    const problem = sentPathProblem(name);
    if (problem !== null) throw new Error(`the file ${JSON.stringify(name)} cannot be uploaded: ${problem}; rename it`);
  }
  if (files.length > MAX_APP_FILES) {
    throw new Error(`the app has ${files.length} files; an app may have at most ${MAX_APP_FILES}`);
  }
  const folders = new Set(files.flatMap((file) => foldersOf(file.name))).size;
  if (folders > MAX_APP_FOLDERS) {
    throw new Error(`the app has ${folders} folders; an app may have at most ${MAX_APP_FOLDERS}`);
  }
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  if (bytes > MAX_APP_BYTES) {
    throw new Error(`the app is ${formatSize(bytes)} (${bytes} bytes); ${APP_SIZE_LIMIT}. ${SIZE_ADVICE}`);
  }
  if (files.some((file) => file.name === 'index.html')) return;
  const folder = nestedEntryFolder(files.map((file) => file.name));
  const hint =
    folder === undefined
      ? 'index.html is the entry point of an app'
      : `there is ${folder}/index.html: upload that folder's contents (${dir === undefined ? folder : `--dir ${join(dir, folder)}`})`;
  throw new Error(`no index.html at the top of the app; ${hint}`);
}
