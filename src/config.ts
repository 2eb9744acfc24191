// Gateway configuration from the environment and a `.env` file in the working directory.
// Every mistake here is a start-up error with a message that says what to fix.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseEnv } from 'node:util';

export type SimClockMode = 'always-open' | 'exchange';
export type Backend = 'simulator' | 'shioaji';

export interface GatewayConfig {
  apiKey: string | null;
  secretKey: string | null;
  caPath: string | null;
  caPassword: string | null;
  /** SinoPac's production environment; false with the shioaji backend is SinoPac's own simulation environment. */
  production: boolean;
  /** Who answers: the built-in simulator, or SinoPac through the official SDK (SJ_BACKEND, implied by SJ_PRODUCTION). */
  backend: Backend;
  /** The bridge's Python interpreter (SJ_PYTHON); null: the one `sjgate setup production` made under the data home. */
  python: string | null;
  host: string;
  port: number;
  homePath: string;
  socketPath: string;
  pidPath: string;
  logPath: string;
  simSeed: number;
  simClock: SimClockMode;
  /** Epoch ms where the simulated clock starts; null = now. */
  simStart: number | null;
  /** Whether the simulator refuses calls over production's call-rate limits (traffic is metered either way). */
  simLimits: boolean;
  /** NT$ a simulated stock account starts with. */
  simStartingCash: number;
  /** NT$ a simulated futures account starts with. */
  simStartingCollateral: number;
  tls: { certPath: string; keyPath: string } | null;
  /** Subscribe again at start to the quote and report subscriptions held before (SJ_RESTORE_SUBSCRIPTIONS). */
  restoreSubscriptions: boolean;
  /** Which requests get a line in the daemon's log (SJ_REQUEST_LOG). */
  requestLog: RequestLogLevel;
  /** Origins besides this server's own pages and pages on this machine that may call the API (SJ_HTTP_CORS_ORIGINS). */
  corsOrigins: string[];
  /** Whether pages on any loopback port may call the API (SJ_HTTP_CORS_LOOPBACK, on by default). */
  corsLoopback: boolean;
  /** The agent harness: whether state-changing calls need a capability, and the secret they are minted with. */
  agentHarness: AgentHarnessConfig;
  /** Bearer credentials on TCP even on a loopback bind (SJ_HTTP_AUTH, `server start --auth`); beyond loopback always. */
  httpAuth: boolean;
  /** How far this clock may be from SinoPac's at login, in ms (SJ_RECEIVE_WINDOW, `--receive-window`). */
  receiveWindowMs: number;
}

export const DEFAULT_RECEIVE_WINDOW_MS = 30_000;

/** `off`: never enforced; `production`: enforced on a production daemon only; `all`: always. */
export type AgentHarnessMode = 'off' | 'production' | 'all';

export interface AgentHarnessConfig {
  mode: AgentHarnessMode;
  /** The 32 bytes of SJ_AGENT_HARNESS_SECRET_FILE; null without it. Never logged or echoed. */
  secret: Uint8Array | null;
  /** How the secret was given: `file`, or `none`. */
  bootstrap: 'file' | 'none';
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface AddressOverrides {
  host?: string | undefined;
  port?: number | undefined;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8080;

/** Reads `.env` from a directory into `env` without overriding variables that are already set. */
export function loadDotEnv(dir: string, env: NodeJS.ProcessEnv = process.env): void {
  const path = join(dir, '.env');
  if (!existsSync(path)) return;
  const parsed = parseEnv(readFileSync(path, 'utf8')) as Record<string, string>;
  for (const [key, value] of Object.entries(parsed)) {
    if (env[key] === undefined) env[key] = value;
  }
}

/** The data home: SJ_HOME_PATH, or ~/.sjgate; absolute. */
export function homePathOf(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.SJ_HOME_PATH?.trim() || join(homedir(), '.sjgate'));
}

/**
 * The configuration from the environment; a ConfigError for a setting that cannot work. `clientOnly`: for a command
 * that talks to a running daemon, which needs no SinoPac keys of its own (checkBackendKeys before starting one).
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: AddressOverrides = {},
  clientOnly = false,
): GatewayConfig {
  const text = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : null;
  };
  const production = parseBoolean('SJ_PRODUCTION', text('SJ_PRODUCTION'), false);
  const address = parseAddress(text('SJ_HTTP_ADDR') ?? `${DEFAULT_HOST}:${DEFAULT_PORT}`);
  const host = overrides.host ?? address.host;
  const port = overrides.port ?? address.port;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`port must be an integer from 0 to 65535, got ${port}`);
  }
  const homePath = homePathOf(env);
  const config: GatewayConfig = {
    apiKey: text('SJ_API_KEY'),
    secretKey: text('SJ_SEC_KEY'),
    caPath: text('SJ_CA_PATH'),
    caPassword: text('SJ_CA_PASSWD'),
    production,
    backend: parseBackend(text('SJ_BACKEND'), production),
    python: text('SJ_PYTHON'),
    host,
    port,
    homePath,
    // Where the official 1.7.9 CLI looks for a daemon, so that `shioaji` and `sjgate` share one on a data home.
    socketPath: join(homePath, `server-${port}.sock`),
    pidPath: join(homePath, `server-${port}.pid`),
    logPath: join(homePath, 'logs', `server-${port}.log`),
    simSeed: parseSeed(text('SJ_SIM_SEED')),
    simClock: parseClockMode(text('SJ_SIM_CLOCK')),
    simStart: parseStart(text('SJ_SIM_START')),
    simLimits: parseSwitch('SJ_SIM_LIMITS', text('SJ_SIM_LIMITS'), true),
    simStartingCash: parseMoney('SJ_SIM_STARTING_CASH', text('SJ_SIM_STARTING_CASH'), 10_000_000),
    simStartingCollateral: parseMoney('SJ_SIM_STARTING_COLLATERAL', text('SJ_SIM_STARTING_COLLATERAL'), 2_000_000),
    restoreSubscriptions: parseSwitch('SJ_RESTORE_SUBSCRIPTIONS', text('SJ_RESTORE_SUBSCRIPTIONS'), true),
    requestLog: parseRequestLog(text('SJ_REQUEST_LOG')),
    corsOrigins: parseOrigins(text('SJ_HTTP_CORS_ORIGINS')),
    corsLoopback: parseSwitch('SJ_HTTP_CORS_LOOPBACK', text('SJ_HTTP_CORS_LOOPBACK'), true),
    tls: parseTls(text('SJ_HTTP_TLS_CERT'), text('SJ_HTTP_TLS_KEY')),
    agentHarness: parseAgentHarness(text('SJ_AGENT_HARNESS'), text('SJ_AGENT_HARNESS_SECRET_FILE')),
    httpAuth: parseBoolean('SJ_HTTP_AUTH', text('SJ_HTTP_AUTH'), false),
    receiveWindowMs: parseReceiveWindow(text('SJ_RECEIVE_WINDOW')),
  };
  checkCredentials(config);
  if (!clientOnly) checkBackendKeys(config);
  return config;
}

/** Whole NT$, 0 to one trillion; underscores and commas may group digits (10_000_000, 10,000,000). */
function parseMoney(name: string, value: string | null, fallback: number): number {
  if (value === null) return fallback;
  const digits = value.replace(/[_,]/g, '');
  if (!/^\d{1,13}$/.test(digits)) {
    throw new ConfigError(`${name} must be a whole number of NT$ such as 10000000, got '${value}'`);
  }
  return Number(digits);
}

function parseReceiveWindow(value: string | null): number {
  if (value === null) return DEFAULT_RECEIVE_WINDOW_MS;
  const ms = Number(value);
  if (!/^\d+$/.test(value) || ms < 1_000 || ms > 600_000) {
    throw new ConfigError(`SJ_RECEIVE_WINDOW must be milliseconds from 1000 to 600000 (default 30000), got '${value}'`);
  }
  return ms;
}

function parseBoolean(name: string, value: string | null, fallback: boolean): boolean {
  if (value === null) return fallback;
  const lower = value.toLowerCase();
  if (['true', '1', 'yes'].includes(lower)) return true;
  if (['false', '0', 'no'].includes(lower)) return false;
  throw new ConfigError(`${name} must be 'true' or 'false', got '${value}'`);
}

/** An on/off switch; true/false (and the other spellings parseBoolean takes) are accepted too. */
/** `errors`: requests answered 4xx or 5xx; `all`: every request (a fifth of the hottest read's throughput). */
export type RequestLogLevel = 'off' | 'errors' | 'all';

function parseRequestLog(value: string | null): RequestLogLevel {
  if (value === null) return 'errors';
  const lower = value.toLowerCase();
  if (lower === 'errors') return 'errors';
  if (['all', 'on', 'true', '1', 'yes'].includes(lower)) return 'all';
  if (['off', 'false', '0', 'no'].includes(lower)) return 'off';
  throw new ConfigError(`SJ_REQUEST_LOG must be 'off', 'errors' or 'all', got '${value}'`);
}

function parseSwitch(name: string, value: string | null, fallback: boolean): boolean {
  if (value === null) return fallback;
  const lower = value.toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(lower)) return true;
  if (['off', 'false', '0', 'no'].includes(lower)) return false;
  throw new ConfigError(`${name} must be 'on' or 'off', got '${value}'`);
}

export function parseAddress(value: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(value);
  if (!match) {
    throw new ConfigError(`SJ_HTTP_ADDR must look like 127.0.0.1:8080 or [::1]:8080, got '${value}'`);
  }
  const port = Number(match[3]);
  if (port > 65535) throw new ConfigError(`SJ_HTTP_ADDR port must be at most 65535, got ${port}`);
  return { host: (match[1] ?? match[2]) as string, port };
}

function parseSeed(value: string | null): number {
  if (value === null) return 1;
  if (!/^-?\d{1,15}$/.test(value)) throw new ConfigError(`SJ_SIM_SEED must be an integer, got '${value}'`);
  return Number(value);
}

function parseClockMode(value: string | null): SimClockMode {
  if (value === null) return 'always-open';
  if (value === 'always-open' || value === 'exchange') return value;
  throw new ConfigError(`SJ_SIM_CLOCK must be 'always-open' or 'exchange', got '${value}'`);
}

function parseStart(value: string | null): number | null {
  if (value === null) return null;
  const withZone = /([zZ]|[+-]\d\d:\d\d)$/.test(value) ? value : `${value}+08:00`;
  const ms = Date.parse(withZone);
  if (Number.isNaN(ms)) {
    throw new ConfigError(`SJ_SIM_START must be an ISO 8601 time such as 2026-06-23T09:30:00+08:00, got '${value}'`);
  }
  return ms;
}

function parseTls(cert: string | null, key: string | null): GatewayConfig['tls'] {
  if (cert === null && key === null) return null;
  if (cert === null || key === null) {
    const missing = cert === null ? 'SJ_HTTP_TLS_CERT' : 'SJ_HTTP_TLS_KEY';
    const present = cert === null ? 'SJ_HTTP_TLS_KEY' : 'SJ_HTTP_TLS_CERT';
    throw new ConfigError(`${present} is set but ${missing} is not: set both to serve https, or neither`);
  }
  for (const [name, path] of [
    ['SJ_HTTP_TLS_CERT', cert],
    ['SJ_HTTP_TLS_KEY', key],
  ] as const) {
    if (!existsSync(path)) throw new ConfigError(`${name} points to '${path}', which does not exist`);
  }
  return { certPath: resolve(cert), keyPath: resolve(key) };
}

export const NON_LOOPBACK_NEEDS_KEYS =
  'a bind address other than loopback can be reached by other machines: set SJ_API_KEY and SJ_SEC_KEY ' +
  '(clients then send Authorization: Bearer <api_key>:<secret_key>), or bind to 127.0.0.1';

function checkCredentials(config: GatewayConfig): void {
  if (!isLoopbackHost(config.host) && (config.apiKey === null || config.secretKey === null)) {
    throw new ConfigError(`SJ_HTTP_ADDR ${config.host}: ${NON_LOOPBACK_NEEDS_KEYS}`);
  }
  if (config.httpAuth && (config.apiKey === null || config.secretKey === null)) {
    throw new ConfigError(
      'SJ_HTTP_AUTH=true (server start --auth) checks Authorization: Bearer <SJ_API_KEY>:<SJ_SEC_KEY>: ' +
        'set SJ_API_KEY and SJ_SEC_KEY, or leave out --auth',
    );
  }
  if (config.caPath !== null && config.caPassword === null) {
    throw new ConfigError('SJ_CA_PATH is set but SJ_CA_PASSWD is not: the certificate cannot be activated without it');
  }
  if (config.caPath !== null && config.backend === 'shioaji' && !existsSync(config.caPath)) {
    throw new ConfigError(
      `SJ_CA_PATH points to '${config.caPath}', which does not exist: download the certificate (Sinopac.pfx) with ` +
        "SinoPac's certificate tool and give its path",
    );
  }
}

/** The SinoPac keys the shioaji backend logs in with: a ConfigError naming what is missing and how to set it. */
export function checkBackendKeys(config: GatewayConfig): void {
  if (config.backend !== 'shioaji') return;
  const missing = [config.apiKey === null && 'SJ_API_KEY', config.secretKey === null && 'SJ_SEC_KEY'].filter(Boolean);
  if (missing.length > 0) {
    const mode = config.production
      ? 'production mode (SJ_PRODUCTION=true)'
      : 'the shioaji backend (SJ_BACKEND=shioaji)';
    throw new ConfigError(
      `${mode} needs ${missing.join(' and ')}, the API keys from SinoPac; set them in the environment or .env, ` +
        'or unset SJ_PRODUCTION and SJ_BACKEND to run the simulator',
    );
  }
}

/** A comma-separated list of origins ('https://app.example.com', 'http://10.0.0.5:3000'); never '*'. */
function parseOrigins(value: string | null): string[] {
  if (value === null) return [];
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      if (item === '*') {
        throw new ConfigError(
          "SJ_HTTP_CORS_ORIGINS cannot be '*': any web page could then trade on this gateway; list the origins",
        );
      }
      let url: URL;
      try {
        url = new URL(item);
      } catch {
        throw new ConfigError(`SJ_HTTP_CORS_ORIGINS: '${item}' is not an origin such as https://app.example.com:8443`);
      }
      if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== item.replace(/\/$/, '')) {
        throw new ConfigError(
          `SJ_HTTP_CORS_ORIGINS: '${item}' is not an origin (scheme, host and port only, such as https://app.example.com)`,
        );
      }
      return url.origin;
    });
}

function parseBackend(value: string | null, production: boolean): Backend {
  const lower = value?.toLowerCase() ?? null;
  if (lower === null) return production ? 'shioaji' : 'simulator';
  if (lower === 'shioaji') return 'shioaji';
  if (lower === 'simulator' || lower === 'sim') {
    if (production) {
      throw new ConfigError(
        'SJ_PRODUCTION=true trades a real account through SinoPac and cannot run on the simulator (SJ_BACKEND=simulator); ' +
          'unset one of them',
      );
    }
    return 'simulator';
  }
  throw new ConfigError(`SJ_BACKEND must be 'simulator' or 'shioaji', got '${value}'`);
}

/** True when the address only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

function parseAgentHarness(mode: string | null, secretFile: string | null): AgentHarnessConfig {
  const lower = mode?.toLowerCase() ?? 'off';
  if (lower !== 'off' && lower !== 'production' && lower !== 'all') {
    throw new ConfigError(`SJ_AGENT_HARNESS must be 'off', 'production' or 'all', got '${mode}'`);
  }
  const secret = secretFile === null ? null : readAgentSecret(secretFile);
  return { mode: lower, secret, bootstrap: secret === null ? 'none' : 'file' };
}

/**
 * The agent harness's secret: a file of 64 hex digits (32 bytes; a final newline may follow), readable by its owner
 * only. The message of a refusal never quotes the file.
 */
export function readAgentSecret(path: string): Uint8Array {
  const name = 'SJ_AGENT_HARNESS_SECRET_FILE';
  let mode: number;
  let text: string;
  try {
    mode = statSync(path).mode;
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'which does not exist' : `which cannot be read (${code ?? 'unknown error'})`;
    throw new ConfigError(`${name} points to '${path}', ${why}`);
  }
  if ((mode & 0o077) !== 0) {
    throw new ConfigError(
      `${name} '${path}' may be read by others (mode ${(mode & 0o777).toString(8)}): chmod 600 it, and make a new secret`,
    );
  }
  const hex = text.trim();
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new ConfigError(
      `${name} '${path}' must hold 64 hex digits (32 bytes), such as the output of \`openssl rand -hex 32\``,
    );
  }
  return new Uint8Array(Buffer.from(hex, 'hex'));
}
