// A gateway after months of trading (issue 22): a journal of BENCH_HISTORY_DAYS trading days with
// BENCH_HISTORY_ORDERS_PER_DAY orders each (generated in seconds, see history/generate.ts), then the daemon started on
// it, then started again (the first start wrote the ledger's checkpoint, so the second books no deal of the past).
// Measured beside the same daemon on an empty journal in the same run: start to healthy, RSS once healthy, and
// `order/trades` (the default call, whose official answer holds today's trades only) in latency and bytes, and a
// page of 1,000 older trades from the middle of the history.
// The scale is 250 days × 4,000 orders (1M orders); the default is a tenth of it, to keep `npm run bench` short.

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { nextTradingDay } from '../src/domain/calendar.js';
import { CLI, daemonEnv } from './daemon.js';
import { generateHistory, lastTradingDays } from './history/generate.js';

const DAYS = Number(process.env.BENCH_HISTORY_DAYS ?? 250);
const ORDERS_PER_DAY = Number(process.env.BENCH_HISTORY_ORDERS_PER_DAY ?? 400);
const LAST_DAY = process.env.BENCH_HISTORY_LAST_DAY ?? '2026-11-24';
const TRADES_CALLS = 10;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Measured {
  start_to_healthy_ms: number;
  rss_mb: number;
  trades_p50_ms: number;
  trades_bytes: number;
  trades_count: number;
  /** A page of 1,000 older trades from the middle of the history (order/trades with limit and begin_date). */
  page_p50_ms: number;
  page_count: number;
}

const HEALTHY_WITHIN_MS = 300_000;

/** Runs the gateway in the foreground in a child process (the CLI's start waits only 10 s) until it answers healthy. */
async function startForeground(env: NodeJS.ProcessEnv, baseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, 'server', 'start', '--foreground'], { env, stdio: 'ignore' });
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

/** Starts a daemon on `home` (a fresh one when undefined) at 10:00 of the day after the history, and measures it. */
async function measure(home: string | undefined, middleDay: string): Promise<Measured> {
  const today = nextTradingDay(LAST_DAY);
  const daemon = await daemonEnv({ SJ_SIM_CLOCK: 'exchange', SJ_SIM_START: `${today}T10:00:00+08:00` }, home);
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
    };
  } finally {
    await stop(child);
    if (!home) rmSync(daemon.home, { recursive: true, force: true });
  }
}

export async function run() {
  const history = await generateHistory({ days: DAYS, ordersPerDay: ORDERS_PER_DAY, lastDay: LAST_DAY });
  try {
    const middleDay = lastTradingDays(LAST_DAY, Math.ceil(DAYS / 2))[0]!;
    const empty = await measure(undefined, middleDay);
    const full = await measure(history.home, middleDay);
    // The first start booked every deal and wrote the ledger's checkpoint; the next books only the deals after it.
    const restarted = await measure(history.home, middleDay);
    return {
      benchmark: 'history',
      journal: {
        days: DAYS,
        orders: history.orders,
        deals: history.deals,
        events: history.events,
        first_day: history.firstDay,
        last_day: history.lastDay,
        generate_ms: history.generateMs,
      },
      empty,
      with_history: full,
      with_history_restarted: restarted,
      targets: { start_to_healthy_ms: 1000, rss_mb: 250, note: 'at 1,000,000 orders over 250 days (issue 22)' },
    };
  } finally {
    rmSync(history.home, { recursive: true, force: true });
  }
}
