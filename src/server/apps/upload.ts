// Receiving an app: the multipart parts of an upload streamed into a staging folder, each file checked as it
// arrives (field name, path, duplicates, count, folders, total size), so a refused upload stops as soon as it breaks
// a rule.

import type { Multipart } from '@fastify/multipart';
import {
  APP_SIZE_LIMIT,
  foldersOf,
  MAX_APP_BYTES,
  MAX_APP_FILES,
  MAX_APP_FOLDERS,
  MAX_PATH_BYTES,
  nestedEntryFolder,
  SIZE_ADVICE,
} from '../../domain/apps.js';
import { AppRefusal, uploadedFilePath } from './paths.js';
import type { StagedApp } from './staging.js';

/**
 * How far a Content-Length may exceed MAX_APP_BYTES: the multipart framing of up to MAX_APP_FILES parts, each a
 * boundary line and headers around a filename of up to MAX_PATH_BYTES.
 */
export const MULTIPART_ALLOWANCE = MAX_APP_FILES * (MAX_PATH_BYTES + 256);
export const UPLOAD_FIELD = 'files';
/** Uploads received at once, across all names; each holds a connection, a staging folder and disk writes. */
export const MAX_UPLOADS = 4;
/**
 * An upload must keep sending: at least UPLOAD_MIN_BYTES of its body in every UPLOAD_WINDOW_MS (about 1 KB/s), or it
 * is dropped with its connection. A stalled body, and one trickled a byte at a time to hold one of the places, both
 * fail it.
 */
export const UPLOAD_WINDOW_MS = 30_000;
export const UPLOAD_MIN_BYTES = 32 * 1024;

/**
 * preservePath keeps the folders of a part's filename (the parser keeps only the base name otherwise). The parser's
 * limits sit just above ours, so ours trip first with our messages; its per-file limit must be set, as the default
 * (1 MiB) cuts files short without an error.
 */
export const PARSER_OPTIONS = {
  preservePath: true,
  limits: { fileSize: MAX_APP_BYTES + 1, files: MAX_APP_FILES + 1, parts: MAX_APP_FILES + 1, fields: 1 },
};

export const CUT_SHORT = 'the upload ended before all of it arrived; nothing was kept';
export const PART_ADVICE = `send each file as a part named '${UPLOAD_FIELD}' whose filename is its path inside the app`;

export function tooLarge(what: string): AppRefusal {
  return new AppRefusal('TOO_LARGE', `${what}; ${APP_SIZE_LIMIT}. ${SIZE_ADVICE}`);
}

/**
 * The paths of an upload so far; refuses duplicates, a path used as both file and folder, too many files and too
 * many folders.
 */
class Manifest {
  readonly files = new Set<string>();
  readonly #folders = new Set<string>();

  add(path: string): void {
    if (this.files.size === MAX_APP_FILES) {
      throw new AppRefusal(
        'INVALID_REQUEST',
        `the upload has more than ${MAX_APP_FILES} files, the most an app may have`,
      );
    }
    if (this.files.has(path))
      throw new AppRefusal('INVALID_REQUEST', `the file ${JSON.stringify(path)} is in the upload twice`);
    const folders = foldersOf(path);
    const clash = folders.find((folder) => this.files.has(folder)) ?? (this.#folders.has(path) ? path : undefined);
    if (clash !== undefined) {
      throw new AppRefusal('INVALID_REQUEST', `${JSON.stringify(clash)} is both a file and a folder in the upload`);
    }
    for (const folder of folders) this.#folders.add(folder);
    if (this.#folders.size > MAX_APP_FOLDERS) {
      throw new AppRefusal(
        'INVALID_REQUEST',
        `the upload has more than ${MAX_APP_FOLDERS} folders, the most an app may have`,
      );
    }
    this.files.add(path);
  }
}

function checkEntryPoint(files: ReadonlySet<string>): void {
  if (files.has('index.html')) return;
  const folder = nestedEntryFolder(files);
  const hint =
    folder === undefined
      ? ''
      : ` (it has ${folder}/index.html: upload the contents of the folder ${folder}, not the folder itself)`;
  throw new AppRefusal('INVALID_REQUEST', `the upload has no index.html at its root, the entry point of an app${hint}`);
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
      throw new AppRefusal('INVALID_REQUEST', `unexpected part ${JSON.stringify(part.fieldname)}: ${PART_ADVICE}`);
    }
    if (part.type !== 'file' || typeof part.filename !== 'string') {
      throw new AppRefusal('INVALID_REQUEST', `a part named '${UPLOAD_FIELD}' has no filename: ${PART_ADVICE}`);
    }
    const path = uploadedFilePath(part.filename);
    manifest.add(path);
    await staged.writeFile(path, part.file, count);
    if (part.file.truncated) throw tooLarge('the upload is over the limit');
  }
  if (manifest.files.size === 0) throw new AppRefusal('INVALID_REQUEST', `the upload has no files: ${PART_ADVICE}`);
  checkEntryPoint(manifest.files);
  return [...manifest.files].sort();
}

/**
 * How the multipart parser (@fastify/busboy 3) reports a malformed body: plain Errors, known only by their message.
 * Its other errors carry a code (FST_...) and a status of their own.
 */
const MALFORMED_MULTIPART =
  /^(Multipart: Boundary not found|Unexpected end of multipart data|(Part|Preamble) terminated early due to unexpected end of multipart data)$/;

/** What a failure while receiving means for the client; errors that are not the client's are returned as they are. */
function refusalOf(error: unknown): unknown {
  if (error instanceof AppRefusal || !(error instanceof Error)) return error;
  const { code, syscall } = error as NodeJS.ErrnoException;
  if (syscall !== undefined) {
    const full = code === 'ENOSPC' || code === 'EDQUOT';
    return full ? new AppRefusal('DISK_FULL', 'the disk of the data home is full; nothing was kept') : error;
  }
  switch (code) {
    case 'FST_MP_PREMATURE_CLOSE':
      return new AppRefusal('INVALID_REQUEST', CUT_SHORT);
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge('the upload is over the limit');
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppRefusal(
        'INVALID_REQUEST',
        `the upload has more than ${MAX_APP_FILES} files, the most an app may have`,
      );
  }
  if (code === undefined && MALFORMED_MULTIPART.test(error.message)) {
    return new AppRefusal('INVALID_REQUEST', `the body is not valid multipart/form-data (${error.message})`);
  }
  return error;
}

/**
 * Streams the parts of an upload into `staged` and seals it; the sorted paths of its files. Throws an AppRefusal
 * for anything the client must change, and any other error (a bug, a failing disk) as it is; the caller discards
 * the staging folder on any failure.
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
