// What every command shares: the global options, the configuration, the daemon client (starting the daemon
// when nothing answers), output in the chosen format, and one place that turns errors into messages and exit codes.

import type { Command } from 'commander';
import { ConfigError, type GatewayConfig, loadConfig } from '../config.js';
import { ApiError, type DaemonClient, UnreachableError } from './client.js';
import { DaemonStartError, daemonClient, ensureDaemon, type Runtime } from './daemon.js';
import { type Format, formatJson, print, printError } from './output.js';

export const EXIT = { ok: 0, error: 1, usage: 2, notRunning: 3 } as const;

/** A mistake in how the command was called: exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface GlobalOptions {
  format: Format;
  host?: string;
  port?: number;
}

export class Cli {
  #config: GatewayConfig | undefined;
  #client: DaemonClient | undefined;

  constructor(
    readonly globals: GlobalOptions,
    readonly runtime: Runtime,
  ) {}

  get format(): Format {
    return this.globals.format;
  }

  get json(): boolean {
    return this.globals.format === 'json';
  }

  /** The configuration from the environment (and .env), with --host/--port applied. Throws ConfigError. */
  get config(): GatewayConfig {
    this.#config ??= loadConfig(process.env, { host: this.globals.host, port: this.globals.port });
    return this.#config;
  }

  get client(): DaemonClient {
    this.#client ??= daemonClient(this.config);
    return this.#client;
  }

  /** Runs requests against the daemon; when nothing answers, starts the daemon and runs them once more. */
  async call<T>(requests: (client: DaemonClient) => Promise<T>): Promise<T> {
    try {
      return await requests(this.client);
    } catch (error) {
      if (!(error instanceof UnreachableError)) throw error;
    }
    printError('starting sjgate daemon...');
    await ensureDaemon(this.config, this.runtime);
    try {
      return await requests(this.client);
    } catch (error) {
      if (!(error instanceof UnreachableError)) throw error;
      throw new DaemonStartError(`${error.message}, although it was just started; see the log ${this.config.logPath}`);
    }
  }

  /** Prints a result: the value as pretty JSON, or what `human` makes of it. */
  emit<T>(value: T, human: (value: T) => string): void {
    print(this.json ? formatJson(value) : human(value));
  }
}

/** The global options as commander parsed them for this command. */
function globalsOf(command: Command): GlobalOptions {
  const options = command.optsWithGlobals<Partial<GlobalOptions>>();
  const globals: GlobalOptions = { format: options.format ?? 'human' };
  if (options.host !== undefined) globals.host = options.host;
  if (options.port !== undefined) globals.port = options.port;
  return globals;
}

/**
 * Wraps a command's action: gives it the Cli, its own options and its arguments, and turns what it throws
 * into `error: ...` on stderr (and the error envelope on stdout with --format json) and an exit code.
 */
export function action<O>(
  runtime: Runtime,
  run: (cli: Cli, options: O, args: string[]) => Promise<void>,
): (...commanderArgs: unknown[]) => Promise<void> {
  return async (...commanderArgs: unknown[]) => {
    const command = commanderArgs[commanderArgs.length - 1] as Command;
    const cli = new Cli(globalsOf(command), runtime);
    try {
      await run(cli, command.opts() as O, command.processedArgs as string[]);
    } catch (error) {
      process.exitCode = reportError(cli, error);
    }
  };
}

/** Prints an error the way the user should see it and returns the exit code. */
export function reportError(cli: Pick<Cli, 'json'>, error: unknown): number {
  if (error instanceof ApiError) {
    if (cli.json) print(formatJson(error.body));
    printError(`error: ${error.message}`);
    for (const line of detailLines(error.body.details)) printError(`  ${line}`);
    return EXIT.error;
  }
  if (error instanceof ConfigError || error instanceof UsageError) {
    printError(`error: ${error.message}`);
    return EXIT.usage;
  }
  printError(`error: ${error instanceof Error ? error.message : String(error)}`);
  return EXIT.error;
}

/** Validation details `[{loc, msg}]` as `body.legs.0: msg` lines; a text detail as itself. */
export function detailLines(details: unknown): string[] {
  if (typeof details === 'string') return details === '' ? [] : [details];
  if (!Array.isArray(details)) return [];
  return details.map((detail) => {
    if (detail === null || typeof detail !== 'object') return String(detail);
    const { loc, msg } = detail as { loc?: unknown; msg?: unknown };
    const where = Array.isArray(loc) ? loc.join('.') : typeof loc === 'string' ? loc : '';
    const text = typeof msg === 'string' ? msg : JSON.stringify(detail);
    return where === '' ? text : `${where}: ${text}`;
  });
}
