// The rules of a hosted app: its name, the paths of its files and its limits. What a client may send is checked by
// them before anything touches the disk, so no name or path can reach outside the app's own folder; the CLI checks an
// app by the same rules before sending it.

const APP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const APP_NAME_RULE =
  "an app name is 1 to 64 characters of letters, digits, '.', '_' and '-', starts with a letter or digit " +
  "and does not end with '.'";

export function isAppName(name: string): boolean {
  return APP_NAME.test(name) && !name.endsWith('.');
}

export const MB = 1024 * 1024;
export const MAX_APP_BYTES = 50 * MB;
export const MAX_APP_FILES = 10_000;
/** Each folder is created and flushed to disk: a deep layout must not turn a small upload into huge disk work. */
export const MAX_APP_FOLDERS = 1_000;
export const APP_SIZE_LIMIT = `an app may hold at most ${MAX_APP_BYTES / MB} MB (${MAX_APP_BYTES} bytes) of files`;
export const SIZE_ADVICE = 'Leave source maps and other files the app does not need out of the upload';

export const MAX_PATH_BYTES = 1024;
export const MAX_SEGMENT_BYTES = 255;
export const MAX_DEPTH = 32;

// C0 controls and DEL; a NUL or a line break in a file name is never legitimate.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this finds
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why `path` (already with '/' separators) cannot name a file inside an app, or null when it can. */
export function appPathProblem(path: string): string | null {
  if (path === '') return 'the name is empty';
  if (CONTROL.test(path)) return 'it contains a control character';
  if (/^[A-Za-z]:/.test(path)) return 'it is a Windows drive path; send the path relative to the app folder';
  if (path.includes(':')) return "it contains ':', which file names of an app may not";
  if (path.startsWith('/')) return 'it is an absolute path; send the path relative to the app folder';
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) return `it is longer than ${MAX_PATH_BYTES} bytes`;
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) {
    return "it has an empty, '.' or '..' segment; paths must stay inside the app folder, like assets/app.js";
  }
  if (segments.length > MAX_DEPTH) return `it is nested deeper than ${MAX_DEPTH} levels`;
  if (segments.some((s) => Buffer.byteLength(s) > MAX_SEGMENT_BYTES)) {
    return `a part of it is longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return null;
}

/**
 * Why a file named `path` (with '/' separators) on the uploader's side would not arrive as that path, or null. A
 * backslash would not: the gateway reads it as a folder separator, for clients on Windows.
 */
export function sentPathProblem(path: string): string | null {
  if (path.includes('\\')) return "it contains '\\', which the gateway reads as a folder separator";
  return appPathProblem(path);
}

/** The folders a file's path puts it in, outermost first: `a/b/c.js` is in `a` and `a/b`. */
export function foldersOf(path: string): string[] {
  const segments = path.split('/');
  return segments.slice(1).map((_, depth) => segments.slice(0, depth + 1).join('/'));
}

/**
 * The folder of the shallowest `index.html` among `paths` (a hint when the root has none: the folder itself was
 * uploaded instead of its contents), or undefined.
 */
export function nestedEntryFolder(paths: Iterable<string>): string | undefined {
  const nested = [...paths]
    .filter((path) => path.endsWith('/index.html'))
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))[0];
  return nested?.slice(0, -'/index.html'.length);
}
