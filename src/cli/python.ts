// Running Python from the CLI (`setup production`, `doctor`): a process whose output arrives line by line, for a
// progress line, a --verbose stream and the last lines of a failure; and what an interpreter is (its version, and
// whether it has pip), with the message and the fix when there is none or it is too old.

import { spawn } from 'node:child_process';
import { MIN_PYTHON } from '../python-env.js';

export interface ProcessResult {
  /** The exit code; null when a signal ended the process (or the time limit did). */
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as lines, in the order they came. */
  lines: string[];
  timedOut: boolean;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  /** Each line of stdout or stderr as it comes. */
  onLine?: (line: string) => void;
  /** Kill the process after this long (default: no limit). */
  timeoutMs?: number;
}

/**
 * Runs a program to its end. Rejects only when it cannot be started at all (ENOENT, EACCES: see notStarted); a
 * program that fails resolves with its exit code and output.
 */
export function runProcess(file: string, args: readonly string[], options: RunOptions = {}): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const lines: string[] = [];
    const splitter = () => {
      let partial = '';
      return {
        push(text: string) {
          const parts = (partial + text).split(/\r?\n|\r/);
          partial = parts.pop() ?? '';
          for (const line of parts) emit(line);
        },
        end() {
          if (partial !== '') emit(partial);
          partial = '';
        },
      };
    };
    const emit = (line: string) => {
      lines.push(line);
      options.onLine?.(line);
    };
    const outLines = splitter();
    const errLines = splitter();
    child.stdout.on('data', (chunk: Buffer) => {
      out.push(chunk);
      outLines.push(chunk.toString('utf8'));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err.push(chunk);
      errLines.push(chunk.toString('utf8'));
    });
    let timedOut = false;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
          }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      outLines.end();
      errLines.end();
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        lines,
        timedOut,
      });
    });
  });
}

/** The error a program that could not be started rejects with (ENOENT: not there; EACCES: not executable). */
export function notStarted(error: unknown): NodeJS.ErrnoException | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'EACCES' || code === 'ENOTDIR' ? (error as NodeJS.ErrnoException) : null;
}

/** The last `count` non-empty lines, indented, for an error message. */
export function lastLines(lines: readonly string[], count = 15): string {
  return lines
    .filter((line) => line.trim() !== '')
    .slice(-count)
    .map((line) => `  ${line}`)
    .join('\n');
}

export interface PythonInfo {
  /** As the interpreter says it: 3.11.7. */
  version: string;
  major: number;
  minor: number;
  /** Whether `python -m pip` works (a venv made without ensurepip has none). */
  pip: boolean;
}

const PROBE = [
  'import importlib.util, sys',
  "print('%d.%d.%d' % sys.version_info[:3])",
  "print('pip' if importlib.util.find_spec('pip') else 'no-pip')",
].join('; ');

/** Python could not be used for the bridge; the message says why and what to do. */
export class PythonError extends Error {
  override name = 'PythonError';
}

const WANTED = `${MIN_PYTHON.major}.${MIN_PYTHON.minor}`;
const INSTALL = `Debian/Ubuntu: sudo apt-get install python${WANTED} python${WANTED}-venv; macOS: brew install python@3.12`;

/** What the interpreter is, or null when it cannot be started; a PythonError when it runs but is not a Python. */
export async function probePython(python: string, env?: NodeJS.ProcessEnv): Promise<PythonInfo | null> {
  let result: ProcessResult;
  try {
    result = await runProcess(python, ['-c', PROBE], { timeoutMs: 30_000, ...(env && { env }) });
  } catch (error) {
    if (notStarted(error)) return null;
    throw error;
  }
  const [version = '', pip] = result.stdout.trim().split(/\r?\n/);
  const match = /^(\d+)\.(\d+)\.\d+$/.exec(version.trim());
  if (result.code !== 0 || !match) {
    throw new PythonError(
      `${python} did not answer as a Python interpreter does (exit code ${result.code})` +
        (result.lines.length > 0 ? `:\n${lastLines(result.lines, 5)}` : ''),
    );
  }
  return { version: version.trim(), major: Number(match[1]), minor: Number(match[2]), pip: pip?.trim() === 'pip' };
}

/** Older than the bridge runs on. */
export function isTooOld(info: Pick<PythonInfo, 'major' | 'minor'>): boolean {
  return info.major < MIN_PYTHON.major || (info.major === MIN_PYTHON.major && info.minor < MIN_PYTHON.minor);
}

/** The interpreter's version when it is new enough for the bridge; a PythonError with the fix otherwise. */
export async function requirePython(python: string, named: string, env?: NodeJS.ProcessEnv): Promise<PythonInfo> {
  const info = await probePython(python, env);
  if (info === null) {
    throw new PythonError(
      `cannot run ${python} (${named}): the Shioaji bridge needs Python ${WANTED} or newer\n` +
        `fix: install it (${INSTALL}), or name one with --python PATH or SJ_PYTHON`,
    );
  }
  if (isTooOld(info)) {
    throw new PythonError(
      `Python ${info.version} at ${python} (${named}) is too old: the Shioaji bridge needs ${WANTED} or newer\n` +
        `fix: install one (${INSTALL}), then run: sjgate setup production --python python${WANTED}`,
    );
  }
  return info;
}
