// SQLite reports trouble with the file underneath the journal in its own terms ("database is locked",
// "file is not a database"). These say which file and what a person can do about it.
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** A journal that cannot be used as it is; `code` is SQLite's (e.g. SQLITE_BUSY) or one of sjgate's. */
export class JournalError extends Error {
  override name = 'JournalError';
  constructor(
    message: string,
    readonly code: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

type Explanation = (path: string, sqliteMessage: string) => string;

/** By SQLite's primary result code: SQLITE_IOERR_WRITE is explained as SQLITE_IOERR. */
const EXPLANATIONS: Record<string, Explanation> = {
  SQLITE_BUSY: (path) =>
    `the journal at ${path} is locked by another sjgate process: stop that process, ` +
    'or start this one with another SJ_HOME_PATH',
  SQLITE_LOCKED: (path) => `the journal at ${path} is locked by another connection in this process`,
  SQLITE_NOTADB: (path) =>
    `the file at ${path} is not an sjgate journal (SQLite: file is not a database): ` +
    'move it aside to start with an empty journal, or restore a backup',
  SQLITE_CORRUPT: (path, detail) =>
    `the journal at ${path} is damaged (SQLite: ${detail}): restore a backup, ` +
    'or move it aside to start with an empty journal',
  SQLITE_CANTOPEN: (path) =>
    `cannot open the journal at ${path}: check that ${dirname(path)} exists and that sjgate may write to it`,
  SQLITE_READONLY: (path) =>
    `the journal at ${path} is read-only: check the permissions of the file, its -wal and -shm files ` +
    `and ${dirname(path)}`,
  SQLITE_PERM: (path) => `sjgate may not access the journal at ${path}: check the file's permissions`,
  SQLITE_FULL: (path) => `the disk holding the journal at ${path} is full: free some space and retry`,
  SQLITE_IOERR: (path, detail) =>
    `reading or writing the journal at ${path} failed (SQLite: ${detail}): check the disk and its free space`,
};

/**
 * The error to show for a failure of the journal at `path`: an actionable JournalError when the file or
 * its lock is the problem, otherwise the original error (a constraint violation is a bug, not the user's).
 */
export function explainStoreError(error: unknown, path: string): unknown {
  if (error instanceof Database.SqliteError) {
    const primaryCode = error.code.split('_', 2).join('_');
    const explain = EXPLANATIONS[primaryCode];
    return explain ? new JournalError(explain(path, error.message), error.code, { cause: error }) : error;
  }
  // better-sqlite3 checks the directory itself before SQLite sees the path.
  if (error instanceof TypeError && /directory does not exist/.test(error.message)) {
    return new JournalError(
      `cannot open the journal at ${path}: the directory ${dirname(path)} does not exist`,
      'SQLITE_CANTOPEN',
      { cause: error },
    );
  }
  return error;
}
