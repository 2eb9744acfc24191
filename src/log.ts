// The daemon's log is its stdout and stderr: a file when it runs in the background. A line that cannot be written
// (the disk holding the log is full) is dropped; logging never stops the gateway.

import { writeSync } from 'node:fs';
import { inspect } from 'node:util';
import { type Logger, pino } from 'pino';

const STDOUT = 1;
const STDERR = 2;

function writeText(fd: number, text: string): void {
  try {
    writeSync(fd, text);
  } catch {
    // Nowhere left to report it.
  }
}

const writeLine = (fd: number, line: string) => writeText(fd, `${line}\n`);

export function logInfo(line: string): void {
  writeLine(STDOUT, line);
}

export function logError(line: string, error?: unknown): void {
  const detail = error === undefined ? '' : ` ${error instanceof Error ? inspect(error) : String(error)}`;
  writeLine(STDERR, `${new Date().toISOString()} ${line}${detail}`);
}

/**
 * Output that other code writes through process.stdout and process.stderr (warnings of Node itself) fails the same
 * way: without a listener, the stream's 'error' event would end the process.
 */
export function surviveLogWriteErrors(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.removeAllListeners('error');
    stream.on('error', () => undefined);
  }
}

/**
 * Where a logged object may hold a secret: the token of a request's headers, its cookies, and the keys of a body.
 * The request log writes none of these, so this guards what a later log call might add.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'body.api_key',
  'body.secret_key',
  'req.body.api_key',
  'req.body.secret_key',
];

const LOGGER_OPTIONS = {
  base: null,
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label: string) => ({ level: label }) },
  redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
};

/**
 * Fastify's logger (pino): one JSON line an entry, written whole by `write` (the daemon's log, stdout, by default) with
 * the same rule as every other line: one that cannot be written is dropped.
 */
export function createLogger(write: (line: string) => void = (line) => writeText(STDOUT, line)): Logger {
  return pino(LOGGER_OPTIONS, { write });
}

/** Most bytes of request log waiting to be written; beyond it lines are dropped, as a line that cannot be written is. */
const REQUEST_LOG_BUFFER_BYTES = 1024 * 1024;

/**
 * The daemon's request log: the lines of a busy gateway are written in batches, not with one system call per
 * request (which cost a fifth of the throughput of the hottest read). `flush` writes what waits, at a stop.
 */
export function createRequestLogger(): { logger: Logger; flush: () => void } {
  const destination = pino.destination({ dest: STDOUT, sync: false, maxLength: REQUEST_LOG_BUFFER_BYTES });
  destination.on('error', () => undefined);
  const flush = () => {
    try {
      destination.flushSync();
    } catch {
      // Nowhere left to report it.
    }
  };
  return { logger: pino(LOGGER_OPTIONS, destination), flush };
}
