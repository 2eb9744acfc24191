// The daemon's life cycle: start it in the background, run it in the foreground, find it, stop it.
// The pid file (config.pidPath) names the daemon; one whose process is gone is stale and ignored.

import { spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { checkBackendKeys, type GatewayConfig } from '../config.js';
import { ApiError, DaemonClient, UnreachableError, urlOf } from './client.js';

/** What the CLI needs to know about itself to start a copy of itself as the daemon. */
export interface Runtime {
  /** The CLI entry file (dist/cli/main.js, or src/cli/main.ts under tsx). */
  entry: string;
  version: string;
}

/** Starting the daemon failed; the message says why and where the log is. */
export class DaemonStartError extends Error {
  override name = 'DaemonStartError';
}

export interface DaemonInfo {
  pid: number | null;
  simulation: boolean;
  host: string;
  port: number;
  url: string;
  socketPath: string;
  logPath: string;
}

export interface Health {
  healthy: boolean;
  body: unknown;
}

const POLL_MS = 50;
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;
const PROBE_TIMEOUT_MS = 1_000;

export function daemonClient(config: GatewayConfig, timeoutMs?: number): DaemonClient {
  const endpoint = { socketPath: config.socketPath, host: config.host, port: config.port };
  const authorization =
    config.apiKey !== null && config.secretKey !== null ? `Bearer ${config.apiKey}:${config.secretKey}` : undefined;
  return new DaemonClient({ ...endpoint, authorization }, timeoutMs);
}

/** GET SERVER_PATHS.health: null when nothing answers, healthy false when the daemon answers with an error or not 'healthy'. */
export async function probeHealth(client: DaemonClient): Promise<Health | null> {
  try {
    const body = await client.server.health<{ status?: unknown }>();
    return { healthy: body !== null && typeof body === 'object' && body.status === 'healthy', body };
  } catch (error) {
    if (error instanceof UnreachableError) return null;
    if (error instanceof ApiError) return { healthy: false, body: error.body };
    return { healthy: false, body: null };
  }
}

/** True while the process exists and is not a zombie waiting to be reaped. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no procfs: trust kill(0)
  }
}

/** A live process that is an sjgate daemon (on Linux its command line is checked, so a reused pid is not taken). */
function isDaemonProcess(pid: number): boolean {
  if (!processAlive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--foreground');
  } catch {
    return true;
  }
}

function readPidFile(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** The pid of the running daemon from the pid file; a stale pid file is removed. */
export function daemonPid(config: GatewayConfig): number | null {
  for (const path of [config.pidPath, legacyPidPath(config)]) {
    const pid = readPidFile(path);
    if (pid === null) continue;
    if (pid !== process.pid && isDaemonProcess(pid)) return pid;
    if (pid !== process.pid) rmSync(path, { force: true });
  }
  return null;
}

/**
 * Where earlier builds of sjgate kept the pid file (`<home>/sessions/`): a daemon started by it is still found, so
 * `sjgate server stop` stops it after an upgrade. Its socket is there too; the CLI then reaches it over TCP.
 */
function legacyPidPath(config: GatewayConfig): string {
  return join(config.homePath, 'sessions', basename(config.pidPath));
}

/** The data home and its sessions and logs directories, owner-only. */
function prepareDirectories(config: GatewayConfig): void {
  const created = !existsSync(config.homePath);
  mkdirSync(config.homePath, { recursive: true, mode: 0o700 });
  if (created) chmodSync(config.homePath, 0o700);
  if (existsSync(config.logPath)) chmodSync(config.logPath, 0o600);
  for (const path of [config.socketPath, config.pidPath, config.logPath]) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  }
}

async function describe(config: GatewayConfig, client: DaemonClient, pid: number | null): Promise<DaemonInfo> {
  let simulation = !config.production;
  try {
    const info = await client.server.info<{ simulation?: unknown }>();
    if (typeof info?.simulation === 'boolean') simulation = info.simulation;
  } catch {
    // the mode from the configuration will do
  }
  return {
    pid,
    simulation,
    host: config.host,
    port: config.port,
    url: urlOf(config.host, config.port),
    socketPath: config.socketPath,
    logPath: config.logPath,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pid in the pid file, which a daemon writes right after it starts listening; waits a moment for it. */
async function pidFileOwner(config: GatewayConfig): Promise<number | null> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const pid = daemonPid(config);
    if (pid !== null) return pid;
    await sleep(25);
  }
  return null;
}

/** The last lines the daemon wrote to its log since `from` (a byte offset). */
function logTail(path: string, from: number, lines = 20): string {
  try {
    const text = readFileSync(path).subarray(from).toString('utf8').trimEnd();
    return text.split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * glibc's malloc keeps the temporary arrays of the simulator's tape builds in a heap it seldom gives back; allocations
 * of 128 KB and more in their own mappings, returned when freed, kept the daemon's RSS about 80 MB lower after the
 * whole listing's daily quotes (404 -> 324 MB). A value the user sets wins; other C libraries ignore it.
 */
const daemonEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ MALLOC_MMAP_THRESHOLD_: '131072', ...env });

/**
 * Makes sure a healthy daemon answers: reports the one that runs, or waits for one that is starting,
 * or starts one in the background with its output appended to the log file.
 */
export async function ensureDaemon(
  config: GatewayConfig,
  runtime: Runtime,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ started: boolean; info: DaemonInfo }> {
  const client = daemonClient(config, PROBE_TIMEOUT_MS);
  const health = await probeHealth(client);
  const runningPid = daemonPid(config);
  if (health?.healthy) return { started: false, info: await describe(config, client, runningPid) };
  if (health !== null || runningPid !== null) {
    // A daemon exists but is not ready yet (or is unwell): wait for it rather than start a second one.
    if (await waitHealthy(client, () => false)) {
      return { started: false, info: await describe(config, client, daemonPid(config)) };
    }
    throw new DaemonStartError(
      `sjgate${runningPid === null ? '' : ` (pid ${runningPid})`} is running but not healthy after ` +
        `${START_TIMEOUT_MS / 1000} s; see the log ${config.logPath}`,
    );
  }

  checkBackendKeys(config);
  prepareDirectories(config);
  const logStart = fileSize(config.logPath);
  const log = openSync(config.logPath, 'a', 0o600);
  const args = [...loaderArgs(), runtime.entry, 'server', 'start', '--foreground'];
  args.push('--host', config.host, '--port', String(config.port));
  let exit: string | null = null;
  let pid: number | undefined;
  try {
    const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], env: daemonEnv(env) });
    child.on('error', (error) => (exit = error.message));
    child.on('exit', (code, signal) => (exit = signal === null ? `exit code ${code}` : `signal ${signal}`));
    child.unref();
    pid = child.pid;
    if (await waitHealthy(client, () => exit !== null)) {
      child.removeAllListeners();
      // Another CLI may have started a daemon at the same moment: the healthy one is whoever wrote the pid file.
      const owner = await pidFileOwner(config);
      return {
        started: owner === null || owner === child.pid,
        info: await describe(config, client, owner ?? child.pid ?? null),
      };
    }
    child.removeAllListeners();
  } finally {
    closeSync(log);
  }
  // Another CLI may have started the daemon at the same moment, and ours gave way to it.
  const other = await probeHealth(client);
  if (other?.healthy) return { started: false, info: await describe(config, client, daemonPid(config)) };
  const tail = logTail(config.logPath, logStart);
  const why =
    exit === null
      ? `sjgate (pid ${pid ?? 'unknown'}) did not become healthy within ${START_TIMEOUT_MS / 1000} s`
      : `sjgate exited while starting (${exit})`;
  throw new DaemonStartError(
    `${why}; see the log ${config.logPath}${tail === '' ? '' : `\n--- last lines of the log ---\n${tail}`}`,
  );
}

/** Polls health every 50 ms until healthy (true), `gaveUp()` says stop, or 10 s pass (false). */
async function waitHealthy(client: DaemonClient, gaveUp: () => boolean): Promise<boolean> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if ((await probeHealth(client))?.healthy) return true;
    if (gaveUp()) return false;
    await sleep(POLL_MS);
  }
  return false;
}

/** The node flags that load a TypeScript loader (tsx), so a CLI run from source can start itself. */
function loaderArgs(): string[] {
  const args: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (/^--(import|loader|experimental-loader|require)=/.test(arg)) args.push(arg);
    else if (/^(--import|--loader|--experimental-loader|--require|-r)$/.test(arg) && i + 1 < argv.length) {
      args.push(arg, argv[++i] as string);
    }
  }
  return args;
}

/**
 * Runs the gateway in this process: writes the pid file once listening, removes it on exit,
 * closes gracefully on SIGTERM or SIGINT (a second signal exits at once).
 */
export async function runForeground(config: GatewayConfig, runtime: Runtime): Promise<void> {
  const other = daemonPid(config);
  if (other !== null) {
    throw new DaemonStartError(`sjgate is already running with pid ${other} (pid file ${config.pidPath})`);
  }
  checkBackendKeys(config);
  prepareDirectories(config);
  // The daemon's logger (pino) loads here, so that the CLI's other commands start without it.
  const [{ startGateway }, { logError, logInfo, surviveLogWriteErrors }] = await Promise.all([
    import('../server/main.js'),
    import('../log.js'),
  ]);
  surviveLogWriteErrors();
  // Everything the daemon creates (journal, log, apps, sockets) is for its owner only.
  process.umask(0o077);
  const gateway = await startGateway(config, logInfo);
  writeFileSync(config.pidPath, `${process.pid}\n`, { mode: 0o600 });
  const removePidFile = () => {
    if (readPidFile(config.pidPath) === process.pid) rmSync(config.pidPath, { force: true });
  };
  process.on('exit', removePidFile);
  const mode =
    config.backend === 'simulator'
      ? 'simulation'
      : config.production
        ? 'SinoPac production'
        : "SinoPac's simulation environment";
  logInfo(`sjgate ${runtime.version} ready (${mode}), pid ${process.pid} in ${config.pidPath}`);

  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logInfo(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    logInfo(`${signal}: shutting down`);
    gateway.close().then(
      () => {
        logInfo('sjgate stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logError('error while shutting down:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** Stops the daemon: SIGTERM, then SIGKILL if it is still there after 10 s. Null when none runs. */
export async function stopDaemon(config: GatewayConfig): Promise<{ pid: number; forced: boolean } | null> {
  const pid = daemonPid(config);
  if (pid === null) return null;
  process.kill(pid, 'SIGTERM');
  if (await waitGone(pid, STOP_TIMEOUT_MS)) return { pid, forced: false };
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // it went away by itself just now
  }
  await waitGone(pid, 2_000);
  rmSync(config.pidPath, { force: true });
  return { pid, forced: true };
}

async function waitGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (processAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}
