// Receiving an app: the multipart parts of an upload streamed into a staging folder, each file checked as it
// arrives (field name, path, duplicates, count, total size), so a refused upload stops as soon as it breaks a rule.

import type { Multipart } from '@fastify/multipart';
import { AppRefusal, uploadedFilePath } from './paths.js';
import type { StagedApp } from './staging.js';

export const MAX_APP_BYTES = 50 * 1024 * 1024;
export const MAX_APP_FILES = 10_000;
/** How far a Content-Length may exceed MAX_APP_BYTES: the multipart framing of up to MAX_APP_FILES parts. */
export const MULTIPART_ALLOWANCE = 1024 * 1024;
export const UPLOAD_FIELD = 'files';

/**
 * preservePath keeps the folders of a part's filename (the parser keeps only the base name otherwise). The parser's
 * limits sit just above ours, so ours trip first with our messages; its per-file limit must be set, as the default
 * (1 MiB) cuts files short without an error.
 */
export const PARSER_OPTIONS = {
  preservePath: true,
  limits: { fileSize: MAX_APP_BYTES + 1, files: MAX_APP_FILES + 1, parts: MAX_APP_FILES + 1, fields: 1 },
};

export const PART_ADVICE = `send each file as a part named '${UPLOAD_FIELD}' whose filename is its path inside the app`;

export function tooLarge(what: string): AppRefusal {
  return new AppRefusal(
    413,
    `${what}; an app may hold at most 50 MB (${MAX_APP_BYTES} bytes) of files. Leave source maps and other ` +
      'files the app does not need out of the upload',
  );
}

/** The paths of an upload so far; refuses duplicates, a path used as both file and folder, and too many files. */
class Manifest {
  readonly files = new Set<string>();
  readonly #folders = new Set<string>();

  add(path: string): void {
    if (this.files.size === MAX_APP_FILES) {
      throw new AppRefusal(400, `the upload has more than ${MAX_APP_FILES} files, the most an app may have`);
    }
    if (this.files.has(path)) throw new AppRefusal(400, `the file ${JSON.stringify(path)} is in the upload twice`);
    const segments = path.split('/');
    for (let depth = 1; depth <= segments.length; depth++) {
      const prefix = segments.slice(0, depth).join('/');
      const clash = depth < segments.length ? this.files.has(prefix) : this.#folders.has(prefix);
      if (clash) throw new AppRefusal(400, `${JSON.stringify(prefix)} is both a file and a folder in the upload`);
    }
    for (let depth = 1; depth < segments.length; depth++) this.#folders.add(segments.slice(0, depth).join('/'));
    this.files.add(path);
  }
}

function checkEntryPoint(files: ReadonlySet<string>): void {
  if (files.has('index.html')) return;
  const nested = [...files]
    .filter((path) => path.endsWith('/index.html'))
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))[0];
  const hint =
    nested === undefined
      ? ''
      : ` (it has ${nested}: upload the contents of the folder ${nested.slice(0, -'/index.html'.length)}, ` +
        'not the folder itself)';
  throw new AppRefusal(400, `the upload has no index.html at its root, the entry point of an app${hint}`);
}

async function stageParts(parts: AsyncIterable<Multipart>, staged: StagedApp): Promise<string[]> {
  const manifest = new Manifest();
  let bytes = 0;
  const count = (chunk: number) => {
    bytes += chunk;
    if (bytes > MAX_APP_BYTES) throw tooLarge('the upload is over the limit');
  };
  for await (const part of parts) {
    if (part.fieldname !== UPLOAD_FIELD) {
      throw new AppRefusal(400, `unexpected part ${JSON.stringify(part.fieldname)}: ${PART_ADVICE}`);
    }
    if (part.type !== 'file' || typeof part.filename !== 'string') {
      throw new AppRefusal(400, `a part named '${UPLOAD_FIELD}' has no filename: ${PART_ADVICE}`);
    }
    const path = uploadedFilePath(part.filename);
    manifest.add(path);
    await staged.writeFile(path, part.file, count);
    if (part.file.truncated) throw tooLarge('the upload is over the limit');
  }
  if (manifest.files.size === 0) throw new AppRefusal(400, `the upload has no files: ${PART_ADVICE}`);
  checkEntryPoint(manifest.files);
  return [...manifest.files].sort();
}

/** What a failure while receiving means for the client; errors that are not the client's are returned as they are. */
function refusalOf(error: unknown): unknown {
  if (error instanceof AppRefusal || !(error instanceof Error)) return error;
  const { code, syscall } = error as NodeJS.ErrnoException;
  if (syscall !== undefined) {
    const full = code === 'ENOSPC' || code === 'EDQUOT';
    return full ? new AppRefusal(507, 'the disk of the data home is full; nothing was kept') : error;
  }
  switch (code) {
    case 'FST_MP_PREMATURE_CLOSE':
      return new AppRefusal(400, 'the upload ended before all of it arrived; nothing was kept');
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge('the upload is over the limit');
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppRefusal(400, `the upload has more than ${MAX_APP_FILES} files, the most an app may have`);
  }
  // The multipart parser reports a malformed body with plain Errors.
  if (error.constructor === Error || code?.startsWith('FST_') === true) {
    return new AppRefusal(400, `the body is not valid multipart/form-data (${error.message})`);
  }
  return error;
}

/**
 * Streams the parts of an upload into `staged` and seals it; the sorted paths of its files. Throws an AppRefusal
 * for anything the client must change; the caller discards the staging folder on any failure.
 */
export async function receiveUpload(parts: AsyncIterable<Multipart>, staged: StagedApp): Promise<string[]> {
  try {
    const files = await stageParts(parts, staged);
    await staged.seal();
    return files;
  } catch (error) {
    throw refusalOf(error);
  }
}
