// Following a server-sent event stream of the daemon until the user stops it: a connection that ends or breaks is
// opened again after a pause (1 s doubling to 15 s, back to 1 s once an event arrives), with `Last-Event-ID` set to
// the last id seen so the server resumes where the stream left off. Also what the streaming commands share: how
// Ctrl+C stops them and whether they print JSON lines or rows.

import type { Command } from 'commander';
import { abortableSleep, type Backoff, type StreamEvent } from '../client/index.js';
import { ApiError, type DaemonClient, isGatewayFault, UnreachableError } from './client.js';
import { action, type Cli, type CliEnv, type CommandSpec } from './context.js';
import { EXIT } from './errors.js';
import { type IO, type Output, writeLines } from './io.js';

export { abortableSleep };

export const BACKOFF: Backoff = { initialMs: 1_000, maxMs: 15_000 };

export interface FollowOptions {
  signal: AbortSignal;
  /** Resume after this event from the start (Last-Event-ID of the first connection). */
  lastEventId?: string | undefined;
  /** Where the notices about drops and reconnects go (stderr). */
  notice: (text: string) => void;
  /** Runs before each reconnect (not before the first connection), e.g. to subscribe again; may throw ApiError. */
  beforeReconnect?: () => Promise<void>;
  /** The pause before reconnecting: 1 s doubling to 15 s unless given. */
  backoff?: Backoff;
  /** How to wait (tests shorten it); resolves early when the signal aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** `1 s`, `500 ms`, `1.5 s`. */
const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`);

/**
 * Calls onEvent for every message of the stream at `path` until `signal` aborts, reconnecting whenever the stream
 * ends or its connection breaks (the client's event subscription, which resumes with Last-Event-ID). Ends with an
 * ApiError that asks the client to change something (an answer of a kind of GATEWAY_FAULT_KINDS, such as
 * STREAM_CAPACITY, or a 5xx that is not the envelope, is retried). The first connection is not retried when nothing
 * answers: that UnreachableError is left to the caller (which may start the daemon); once connected, an unreachable
 * daemon is waited for. An error thrown by onEvent stops the stream and is thrown.
 */
export async function followStream(
  client: DaemonClient,
  path: string,
  onEvent: (message: StreamEvent) => void,
  options: FollowOptions,
): Promise<void> {
  const { notice, backoff = BACKOFF, sleep = abortableSleep } = options;
  const stream = client.events.follow(path, {
    signal: options.signal,
    lastEventId: options.lastEventId,
    backoff,
    sleep,
    ...(options.beforeReconnect && { beforeReconnect: options.beforeReconnect }),
    onOpen: (resumed, lastEventId) => {
      if (!resumed) return;
      notice(lastEventId === undefined ? 'reconnected' : `reconnected, resuming after event ${lastEventId}`);
    },
    onDrop: (_reason, delayMs) => notice(`stream dropped; reconnecting in ${seconds(delayMs)}`),
    shouldRetry: (error, everConnected) => {
      if (error instanceof ApiError) return isGatewayFault(error);
      return !(error instanceof UnreachableError && !everConnected);
    },
  });
  for await (const message of stream) onEvent(message);
}

/**
 * Aborts when the user presses Ctrl+C, the process gets SIGTERM, or stdout fails (its reader went away: `| head`),
 * so that the command can clean up (unsubscribe) before it ends. While it is in force, a failing stdout stops the
 * command instead of ending the process at once (EPIPE exits 0, anything else 1 with the error on stderr);
 * dispose() removes the handlers and puts back the ones it replaced.
 */
export function stopSignal(io: IO): { signal: AbortSignal; dispose: () => void } {
  const { stdout } = io;
  const controller = new AbortController();
  const stop = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    controller.abort();
  };
  const replaced = stdout.listeners('error') as ((error: Error) => void)[];
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    if (controller.signal.aborted) return;
    if (error.code !== 'EPIPE') {
      writeLines(io.stderr, `error: cannot write to stdout: ${error.message}`);
      io.setExitCode(EXIT.error);
    }
    stop();
  };
  stdout.removeAllListeners('error');
  stdout.on('error', onStdoutError);
  const dispose = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    stdout.off('error', onStdoutError);
    for (const listener of replaced) stdout.on('error', listener);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return { signal: controller.signal, dispose };
}

/**
 * Whether a streaming command prints one JSON object per line: with --format json or toon (as the official CLI's
 * streams do), or when stdout is not a terminal and --format was not given. `--format human` prints rows even into a pipe.
 */
export function jsonLines(command: Command, stdout: { isTTY?: boolean }): boolean {
  const { format, json } = command.optsWithGlobals<{ format?: string; json?: unknown }>();
  if (format === 'json' || format === 'toon' || (json !== undefined && json !== false)) return true;
  const source = command.getOptionValueSourceWithGlobals('format');
  return source !== 'cli' && source !== 'env' && stdout.isTTY !== true;
}

/** One line on stdout; nothing once stdout is closed (its reader went away). */
export function printLine(stdout: Output, text: string): void {
  if (stdout.destroyed) return;
  stdout.write(`${text}\n`);
}

/**
 * `action()` for a streaming command: also tells the command whether to print JSON lines (see jsonLines), which
 * needs to know whether --format was given.
 */
export function streamAction<O>(
  env: CliEnv,
  run: (cli: Cli, options: O, json: boolean) => Promise<void>,
  spec: CommandSpec = {},
): (...commanderArgs: unknown[]) => Promise<void> {
  return (...commanderArgs: unknown[]) => {
    const command = commanderArgs[commanderArgs.length - 1] as Command;
    const json = jsonLines(command, env.io.stdout);
    return action<O>(env, (cli, options) => run(cli, options, json), spec)(...commanderArgs);
  };
}

/**
 * What a subscribing command does once subscribed: follows the stream at `path` until the signal aborts, subscribing
 * again before each reconnect (a no-op when the daemon still has it), then unsubscribes, even when the stream failed;
 * the stream's error is thrown after that, and an unsubscribe that fails only warns when there was one.
 */
export async function followSubscription(
  cli: Cli,
  path: string,
  onEvent: (message: StreamEvent) => void,
  options: { signal: AbortSignal; subscribe: () => Promise<unknown>; unsubscribe: () => Promise<unknown> },
): Promise<void> {
  let failure: { error: unknown } | null = null;
  try {
    await followStream(cli.client, path, onEvent, {
      signal: options.signal,
      notice: cli.printError,
      beforeReconnect: async () => {
        await options.subscribe();
      },
    });
  } catch (error) {
    failure = { error };
  }
  try {
    await options.unsubscribe();
  } catch (error) {
    if (failure === null) failure = { error };
    else cli.printError(`warning: could not unsubscribe: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (failure !== null) throw failure.error;
}
