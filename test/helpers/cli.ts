// The CLI program run in this process against a fake daemon: an HTTP server on a free port that records every
// request and answers what the test says, under a temporary data home without a socket (so the client uses TCP).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { CommanderError } from 'commander';
import { EXIT } from '../../src/cli/errors.js';
import type { IO } from '../../src/cli/io.js';
import { createProgram } from '../../src/cli/program.js';
import type { ErrorKind } from '../../src/domain/errors.js';
import { STATUS_OF_KIND } from '../../src/server/plugins/errors.js';

/** A request the fake daemon received; body is null when there was none. */
export interface Seen {
  method: string;
  url: string;
  body: unknown;
}

/** What one run of the program did. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The status and JSON body the fake daemon answers a request with. */
export type Answer = (request: Seen) => [status: number, body: unknown, headers?: Record<string, string>];

/** The error envelope of the API: an error of `kind`, answered with the status the gateway gives that kind. */
export const envelope = (kind: ErrorKind, message: string): [number, unknown] => [
  STATUS_OF_KIND[kind],
  { code: STATUS_OF_KIND[kind], error: kind, message, details: null },
];

export interface FakeDaemon {
  /** The requests of the latest run, in order. */
  readonly seen: Seen[];
  /** Starts the server and points SJ_HOME_PATH at a fresh data home; call in `before`. */
  start(): Promise<void>;
  /** Stops the server and restores SJ_HOME_PATH; call in `after`. */
  stop(): Promise<void>;
  /**
   * Runs `sjgate --host 127.0.0.1 --port <fake> ...args` in this process and collects what it prints. The runtime
   * names no real entry, so the program cannot start a daemon even if the fake one were gone.
   */
  sjgate(...args: string[]): Promise<Run>;
}

export function fakeDaemon(answer: Answer): FakeDaemon {
  const seen: Seen[] = [];
  const savedHome = process.env.SJ_HOME_PATH;
  let home = '';
  let port = 0;
  let close: () => Promise<void> = async () => {};

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        body: text === '' ? null : JSON.parse(text),
      };
      seen.push(request);
      const [status, body, headers = {}] = answer(request);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    });
  });

  return {
    seen,

    async start() {
      home = mkdtempSync(join(tmpdir(), 'sjgate-cli-'));
      process.env.SJ_HOME_PATH = home;
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
      close = () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        });
    },

    async stop() {
      await close();
      if (savedHome === undefined) delete process.env.SJ_HOME_PATH;
      else process.env.SJ_HOME_PATH = savedHome;
      if (home !== '') rmSync(home, { recursive: true, force: true });
    },

    async sjgate(...args: string[]): Promise<Run> {
      seen.length = 0;
      return runSjgate(port, args);
    },
  };
}

export interface CommandOutput {
  stdout: () => string;
  stderr: () => string;
}

/** The output of a command still running, and whether it has ended (so a test waiting on its output can stop). */
export interface RunningOutput extends CommandOutput {
  ended: () => boolean;
}

/** An IO that keeps what is written (not a terminal, no colour) and the exit code set; reads them back. */
export interface MemoryIO extends CommandOutput {
  io: IO;
  exitCode: () => number | undefined;
}

export function memoryIO(): MemoryIO {
  const out: string[] = [];
  const err: string[] = [];
  let code: number | undefined;
  const into = (chunks: string[]) =>
    new Writable({
      decodeStrings: false,
      write(chunk: unknown, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
  return {
    io: {
      stdout: into(out),
      stderr: into(err),
      color: false,
      setExitCode: (value) => {
        code = value;
      },
    },
    stdout: () => out.join(''),
    stderr: () => err.join(''),
    exitCode: () => code,
  };
}

/**
 * Runs `sjgate --host 127.0.0.1 --port <port> ...args` in this process with its output in memory. `whileRunning`
 * gets the output so far and may stop a command that runs until Ctrl+C (by emitting SIGINT).
 */
export async function runSjgate(
  port: number,
  args: string[],
  whileRunning?: (output: RunningOutput) => Promise<void>,
): Promise<Run> {
  const output = memoryIO();
  const program = createProgram({ entry: '/nonexistent/sjgate-must-not-start.js', version: '0.0.0-test' }, output.io);
  let ended = false;
  const running = program
    .parseAsync(['node', 'sjgate', '--host', '127.0.0.1', '--port', String(port), ...args])
    .finally(() => {
      ended = true;
    });
  const stopper = whileRunning?.({ ...output, ended: () => ended });
  const [result] = await Promise.allSettled([running, stopper]);
  await stopper;
  let code: number;
  if (result.status === 'rejected') {
    if (!(result.reason instanceof CommanderError)) throw result.reason;
    code = result.reason.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    code = output.exitCode() ?? EXIT.ok;
  }
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

/** Runs each case against the fake daemon: each must exit 2 with its message on stderr, and send nothing. */
export async function assertUsageErrors(daemon: FakeDaemon, cases: [string[], RegExp][]): Promise<void> {
  for (const [args, message] of cases) {
    const run = await daemon.sjgate(...args);
    assert.equal(run.code, EXIT.usage, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message, args.join(' '));
    assert.deepEqual(daemon.seen, [], args.join(' '));
  }
}
