// What every command shares: the global options, the configuration, the daemon client (starting the daemon
// when nothing answers), the IO it writes to, output in the chosen format (or the fields of --json), and one place
// that turns errors into messages and exit codes.

import type { Command } from 'commander';
import { ConfigError, type GatewayConfig, loadConfig } from '../config.js';
import { inCliTerms } from './api-terms.js';
import { ApiError, type DaemonClient, UnreachableError } from './client.js';
import { DaemonStartError, daemonClient, ensureDaemon, type Runtime } from './daemon.js';
import { EXIT, RefusedError, UsageError } from './errors.js';
import type { IO } from './io.js';
import { writeLines } from './io.js';
import { checkFields, fieldsOf, type JsonRequest, jsonRequest, selectFields } from './json-fields.js';
import { asOfficialModels } from './official-models.js';
import { type Format, formatJson } from './output.js';
import { toToon } from './toon.js';

export { EXIT, RefusedError, UsageError };

/** What the commands are built with: how to start the daemon, and where to write. */
export interface CliEnv {
  readonly runtime: Runtime;
  readonly io: IO;
}

export interface GlobalOptions {
  format: Format;
  host?: string;
  port?: number;
  /** `--json [FIELDS]`: only these fields, as JSON. */
  json?: JsonRequest;
  /** `-v, --verbose`: each request to the daemon on stderr. */
  verbose?: boolean;
}

/** What a command declares about itself to action(). */
export interface CommandSpec {
  /**
   * The fields --json may select, known before the request. Commands that change something name them, so that a
   * wrong field is refused before anything is sent; without them the fields are those of the answer.
   */
  fields?: readonly string[];
}

export class Cli {
  #config: GatewayConfig | undefined;
  #client: DaemonClient | undefined;

  constructor(
    readonly globals: GlobalOptions,
    readonly env: CliEnv,
    readonly spec: CommandSpec = {},
  ) {}

  get io(): IO {
    return this.env.io;
  }

  get runtime(): Runtime {
    return this.env.runtime;
  }

  get format(): Format {
    return this.globals.format;
  }

  /** JSON output: --format json, or --json. */
  get json(): boolean {
    return this.globals.format === 'json' || this.globals.json !== undefined;
  }

  /** The configuration from the environment (and .env), with --host/--port applied. Throws ConfigError. */
  get config(): GatewayConfig {
    // The keys of the SinoPac backend are the daemon's: checked when this command starts one (ensureDaemon).
    this.#config ??= loadConfig(process.env, { host: this.globals.host, port: this.globals.port }, true);
    return this.#config;
  }

  get client(): DaemonClient {
    this.#client ??= daemonClient(this.config);
    if (this.globals.verbose) this.#client.trace = this.printError;
    return this.#client;
  }

  /** Text on stdout, ending with a newline. */
  print(text: string): void {
    writeLines(this.io.stdout, text);
  }

  /** Text on stderr, ending with a newline. */
  printError = (text: string): void => {
    writeLines(this.io.stderr, text);
  };

  /** Runs requests against the daemon; when nothing answers, starts the daemon and runs them once more. */
  async call<T>(requests: (client: DaemonClient) => Promise<T>): Promise<T> {
    try {
      return await requests(this.client);
    } catch (error) {
      if (!(error instanceof UnreachableError)) throw error;
    }
    this.printError('starting sjgate daemon...');
    await ensureDaemon(this.config, this.runtime);
    try {
      return await requests(this.client);
    } catch (error) {
      if (!(error instanceof UnreachableError)) throw error;
      throw new DaemonStartError(`${error.message}, although it was just started; see the log ${this.config.logPath}`);
    }
  }

  /** Refuses --json fields the command does not have, when it knows them before the request. */
  checkJsonFields(): void {
    const { json } = this.globals;
    if (json !== undefined && this.spec.fields !== undefined) checkFields(json, this.spec.fields);
  }

  /** The value as JSON: whole, or only the fields of --json (a UsageError when one is not there). */
  toJson(value: unknown, pretty = true): string {
    const { json } = this.globals;
    let selected = value;
    if (json !== undefined) {
      // An empty list has no fields to tell a wrong one by, unless the command names its fields.
      const nothing = this.spec.fields === undefined && Array.isArray(value) && value.length === 0 && 'fields' in json;
      selected = nothing ? value : selectFields(value, checkFields(json, this.spec.fields ?? fieldsOf(value)));
    }
    return pretty ? formatJson(selected) : JSON.stringify(selected);
  }

  /** Prints a result: as JSON (see toJson), TOON, or what `human` makes of it, with colour when the IO has it. */
  emit<T>(value: T, human: (value: T, color: boolean) => string): void {
    if (this.json) this.print(this.toJson(value));
    else if (this.globals.format === 'toon') this.print(toToon(asOfficialModels(value)));
    else this.print(human(value, this.io.color));
  }
}

/** The global options as commander parsed them for this command. */
function globalsOf(command: Command): GlobalOptions {
  const options = command.optsWithGlobals<Partial<Omit<GlobalOptions, 'json'>> & { json?: string | boolean }>();
  const globals: GlobalOptions = { format: options.format ?? 'human' };
  if (options.verbose === true) globals.verbose = true;
  if (options.host !== undefined) globals.host = options.host;
  if (options.port !== undefined) globals.port = options.port;
  const json = jsonRequest(options.json);
  if (json !== undefined) {
    if (options.format !== 'json' && command.getOptionValueSourceWithGlobals('format') === 'cli') {
      throw new UsageError(`--json prints JSON; leave out --format ${options.format}`);
    }
    globals.json = json;
  }
  return globals;
}

/**
 * Wraps a command's action: gives it the Cli, its own options and its arguments, and turns what it throws
 * into `error: ...` on stderr (and the error envelope on stdout with --format json) and an exit code.
 */
export function action<O>(
  env: CliEnv,
  run: (cli: Cli, options: O, args: string[]) => Promise<void>,
  spec: CommandSpec = {},
): (...commanderArgs: unknown[]) => Promise<void> {
  return async (...commanderArgs: unknown[]) => {
    const command = commanderArgs[commanderArgs.length - 1] as Command;
    let cli = new Cli({ format: 'human' }, env, spec);
    try {
      cli = new Cli(globalsOf(command), env, spec);
      cli.checkJsonFields();
      await run(cli, command.opts() as O, command.processedArgs as string[]);
    } catch (error) {
      env.io.setExitCode(reportError(cli, error));
    }
  };
}

/** Prints an error the way the user should see it and returns the exit code. */
export function reportError(cli: Pick<Cli, 'json' | 'print' | 'printError'>, error: unknown): number {
  if (error instanceof ApiError) {
    if (cli.json) cli.print(formatJson(error.body));
    cli.printError(`error: ${inCliTerms(error.message)}`);
    for (const line of detailLines(error.body.details)) cli.printError(`  ${inCliTerms(line)}`);
    return EXIT.error;
  }
  if (error instanceof RefusedError) {
    cli.printError(`error: ${error.message}`);
    for (const line of error.details) cli.printError(`  ${line}`);
    return EXIT.refused;
  }
  if (error instanceof ConfigError || error instanceof UsageError) {
    cli.printError(`error: ${error.message}`);
    return EXIT.usage;
  }
  cli.printError(`error: ${error instanceof Error ? error.message : String(error)}`);
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
