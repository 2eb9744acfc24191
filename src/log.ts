// The daemon's log is its stdout and stderr: a file when it runs in the background. A line that cannot be written
// (the disk holding the log is full) is dropped; logging never stops the gateway.

import { writeSync } from 'node:fs';
import { inspect } from 'node:util';

const STDOUT = 1;
const STDERR = 2;

function writeLine(fd: number, line: string): void {
  try {
    writeSync(fd, `${line}\n`);
  } catch {
    // Nowhere left to report it.
  }
}

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
