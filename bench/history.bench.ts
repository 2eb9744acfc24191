// A gateway after months of trading (issue 22): a journal of BENCH_HISTORY_DAYS trading days with
// BENCH_HISTORY_ORDERS_PER_DAY orders each, and as many on the bench's own day (generated in seconds, see
// history/generate.ts), then the daemon started on it at 14:00 of that day, then started again (the first start wrote
// the ledger's checkpoint, so the second books no deal of the past). Measured beside the same daemon on an empty
// journal in the same run: start to healthy, RSS once healthy, `order/trades` (the default call, whose official
// answer holds today's trades only) in latency and bytes, and a page of 1,000 older trades from the middle of the
// history; on the restarted daemon, the default call's throughput beside a bare node:http server answering the same
// bytes (bench/bare-server.mjs), taking turns.
// The scale is 250 days × 4,000 orders (1M orders); the default is a tenth of it, to keep `npm run bench` short.
// To compare builds on one journal without generating it again: BENCH_HISTORY_HOME keeps the journal's data home
// there (and reuses it when it holds one: its first start is then a restart too), BENCH_HISTORY_RESTARTS starts the
// daemon that many times after the first start, and BENCH_HISTORY_CLI runs another build (its dist/cli/main.js).

import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { nextTradingDay } from '../src/domain/calendar.js';
import { median, startBaseline } from './contract-info.bench.js';
import { CLI, daemonEnv } from './daemon.js';
import { generateHistory, lastTradingDays } from './history/generate.js';
import { type LoadResult, load, pinToServerCore } from './load.js';

const DAYS = Number(process.env.BENCH_HISTORY_DAYS ?? 250);
const ORDERS_PER_DAY = Number(process.env.BENCH_HISTORY_ORDERS_PER_DAY ?? 400);
const LAST_DAY = process.env.BENCH_HISTORY_LAST_DAY ?? '2026-11-24';
const TODAY = nextTradingDay(LAST_DAY);
const TRADES_CALLS = 10;
const LOAD_SECONDS = Number(process.env.BENCH_DURATION ?? 3);
const LOAD_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LOAD_CONNECTIONS = 10;
const KEPT_HOME = process.env.BENCH_HISTORY_HOME;
const RESTARTS = Number(process.env.BENCH_HISTORY_RESTARTS ?? 1);
const GATEWAY_CLI = process.env.BENCH_HISTORY_CLI ?? CLI;

interface Measured {
  start_to_healthy_ms: number;
  rss_mb: number;
  trades_p50_ms: number;
  trades_bytes: number;
  trades_count: number;
  /** A page of 1,000 older trades from the middle of the history (order/trades with limit and begin_date). */
  page_p50_ms: number;
  page_count: number;
  page_bytes: number;
  /** The default call under load beside a bare server answering its bytes (the restarted daemon only). */
  default_vs_bare?: Awaited<ReturnType<typeof defaultCallVsBare>>;
}

const HEALTHY_WITHIN_MS = 300_000;

/** Runs the gateway in the foreground in a child process (the CLI's start waits only 10 s) until it answers healthy. */
async function startForeground(env: NodeJS.ProcessEnv, baseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [GATEWAY_CLI, 'server', 'start', '--foreground'], { env, stdio: 'ignore' });
  const deadline = Date.now() + HEALTHY_WITHIN_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode} before it was healthy`);
    const healthy = await fetch(`${baseUrl}/api/v1/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return child;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill('SIGKILL');
  throw new Error(`the gateway was not healthy within ${HEALTHY_WITHIN_MS / 1000} s`);
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function tradesCall(baseUrl: string, body = {}): Promise<{ ms: number; bytes: number; count: number }> {
  const begin = performance.now();
  const response = await fetch(`${baseUrl}/api/v1/order/trades`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - begin;
  return { ms, bytes: Buffer.byteLength(text), count: (JSON.parse(text) as unknown[]).length };
}

/** CPU time a process has used so far, in ms (Linux: /proc/<pid>/stat, user and system, at 100 ticks a second). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A load run, with the server's CPU time per request: steadier than requests a second on a shared machine. */
type MeasuredLoad = LoadResult & { cpuMsPerRequest: number };

async function loadMeasured(url: string, pid: number): Promise<MeasuredLoad> {
  const cpuBefore = cpuMsOf(pid);
  const result = await load(url, LOAD_SECONDS, LOAD_CONNECTIONS, '{}');
  return { ...result, cpuMsPerRequest: (cpuMsOf(pid) - cpuBefore) / (result.rps * LOAD_SECONDS) };
}

/**
 * The default `order/trades` and a bare server answering its bytes, each loaded in turn; medians of the rounds, and
 * the ratio of the servers' CPU time per request (bare / sjgate; 1 when sjgate spends no more per answer).
 */
async function defaultCallVsBare(baseUrl: string, pid: number) {
  const url = `${baseUrl}/api/v1/order/trades`;
  const body = await (
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  ).text();
  pinToServerCore(pid);
  const bare = await startBaseline('bare-server.mjs', body);
  try {
    for (const target of [url, bare.url]) await load(target, 1, LOAD_CONNECTIONS, '{}'); // nobody measured cold
    const gatewayRuns: MeasuredLoad[] = [];
    const bareRuns: MeasuredLoad[] = [];
    for (let round = 0; round < LOAD_ROUNDS; round++) {
      gatewayRuns.push(await loadMeasured(url, pid));
      bareRuns.push(await loadMeasured(bare.url, bare.child.pid!));
    }
    const sjgateRps = median(gatewayRuns.map((r) => r.rps));
    const bareRps = median(bareRuns.map((r) => r.rps));
    const sjgateCpu = median(gatewayRuns.map((r) => r.cpuMsPerRequest));
    const bareCpu = median(bareRuns.map((r) => r.cpuMsPerRequest));
    return {
      tool: gatewayRuns[0]!.tool,
      connections: LOAD_CONNECTIONS,
      rounds: `${LOAD_ROUNDS} × ${LOAD_SECONDS} s`,
      response_bytes: Buffer.byteLength(body),
      sjgate_rps: Math.round(sjgateRps),
      bare_rps: Math.round(bareRps),
      ratio: Math.round((sjgateRps / bareRps) * 1000) / 1000,
      sjgate_cpu_ms_per_request: Math.round(sjgateCpu * 1000) / 1000,
      bare_cpu_ms_per_request: Math.round(bareCpu * 1000) / 1000,
      cpu_ratio: Math.round((bareCpu / sjgateCpu) * 1000) / 1000,
      sjgate_p99_ms: median(gatewayRuns.map((r) => r.p99_ms)),
      bare_p99_ms: median(bareRuns.map((r) => r.p99_ms)),
      errors: gatewayRuns.reduce((sum, r) => sum + r.errors, 0),
      target_ratio: 0.8,
    };
  } finally {
    bare.child.kill();
  }
}

/**
 * Starts a daemon on `home` (a fresh one when undefined) at 14:00 of the bench's day, after its orders, and measures
 * it; with `vsBare`, the default call's throughput beside a bare server too.
 */
async function measure(home: string | undefined, middleDay: string, vsBare = false): Promise<Measured> {
  // Without the official rate limits: the load below would be mostly 429s.
  const env = { SJ_SIM_CLOCK: 'exchange', SJ_SIM_START: `${TODAY}T14:00:00+08:00`, SJ_SIM_LIMITS: 'off' };
  const daemon = await daemonEnv(env, home);
  const begin = performance.now();
  const child = await startForeground(daemon.env, daemon.baseUrl);
  const startMs = performance.now() - begin;
  try {
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
    const calls = [];
    for (let i = 0; i < TRADES_CALLS; i++) calls.push(await tradesCall(daemon.baseUrl));
    const pages = [];
    const page = { limit: 1000, begin_date: middleDay };
    for (let i = 0; i < TRADES_CALLS; i++) pages.push(await tradesCall(daemon.baseUrl, page));
    return {
      start_to_healthy_ms: Math.round(startMs),
      rss_mb: Math.round(rssKb / 1024),
      trades_p50_ms: Math.round(median(calls.map((call) => call.ms)) * 10) / 10,
      trades_bytes: calls[0]!.bytes,
      trades_count: calls[0]!.count,
      page_p50_ms: Math.round(median(pages.map((call) => call.ms)) * 10) / 10,
      page_count: pages[0]!.count,
      page_bytes: pages[0]!.bytes,
      ...(vsBare ? { default_vs_bare: await defaultCallVsBare(daemon.baseUrl, child.pid!) } : {}),
    };
  } finally {
    await stop(child);
    if (!home) rmSync(daemon.home, { recursive: true, force: true });
  }
}

/** The generated journal's data home: BENCH_HISTORY_HOME as it was kept by an earlier run, or generated now. */
async function historyHome() {
  if (KEPT_HOME && existsSync(join(KEPT_HOME, 'history.json'))) {
    return { ...JSON.parse(readFileSync(join(KEPT_HOME, 'history.json'), 'utf8')), home: KEPT_HOME, reused: true };
  }
  // The bench's own day is generated too: the default call lists its trades.
  const history = await generateHistory({ days: DAYS + 1, ordersPerDay: ORDERS_PER_DAY, lastDay: TODAY });
  if (!KEPT_HOME) return { ...history, reused: false };
  cpSync(history.home, KEPT_HOME, { recursive: true });
  rmSync(history.home, { recursive: true, force: true });
  writeFileSync(join(KEPT_HOME, 'history.json'), JSON.stringify({ ...history, home: KEPT_HOME }));
  return { ...history, home: KEPT_HOME, reused: false };
}

export async function run() {
  const history = await historyHome();
  try {
    const middleDay = lastTradingDays(LAST_DAY, Math.ceil(DAYS / 2))[0]!;
    const empty = await measure(undefined, middleDay);
    const full = await measure(history.home, middleDay);
    // The first start booked every deal and wrote the ledger's checkpoint; the next books only the deals after it.
    const restarts: Measured[] = [];
    for (let i = 0; i < RESTARTS; i++) restarts.push(await measure(history.home, middleDay, i === RESTARTS - 1));
    return {
      benchmark: 'history',
      gateway: GATEWAY_CLI,
      journal: {
        days: DAYS,
        today: TODAY,
        orders: history.orders,
        deals: history.deals,
        events: history.events,
        first_day: history.firstDay,
        last_day: history.lastDay,
        generate_ms: history.generateMs,
        reused: history.reused,
      },
      empty,
      with_history: full,
      with_history_restarted: restarts.at(-1),
      ...(RESTARTS > 1 ? { restarts_ms: restarts.map((r) => r.start_to_healthy_ms) } : {}),
      targets: { start_to_healthy_ms: 1000, rss_mb: 250, note: 'at 1,000,000 orders over 250 days (issue 22)' },
    };
  } finally {
    if (!KEPT_HOME) rmSync(history.home, { recursive: true, force: true });
  }
}
