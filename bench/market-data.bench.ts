// Market-data latency on the real daemon, and the daemon's memory once the whole catalog's tapes are built.
// The simulated clock starts after the close of a trading day in exchange mode, so the whole day is published.
// Targets (issue 22): the busiest stock's AllDay ticks of a finished day (the day before) p50 < 10 ms warm; a
// 500-contract snapshot p50 < 20 ms, cold (its first call) and warm. Today's AllDay ticks are reported beside them.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { LISTED_SECURITIES } from '../src/broker/sim/catalog/listed-securities.js';
import { startDaemon } from './daemon.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const round1 = (ms: number) => Math.round(ms * 10) / 10;

async function post(baseUrl: string, path: string, body: unknown): Promise<{ ms: number; bytes: number }> {
  const begin = performance.now();
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text.slice(0, 200)}`);
  return { ms: performance.now() - begin, bytes: text.length };
}

async function timed(baseUrl: string, path: string, body: unknown) {
  const first = await post(baseUrl, path, body);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const result = await post(baseUrl, path, body);
    times.push(result.ms);
    bytes = result.bytes;
  }
  return {
    first_ms: round1(first.ms),
    p50_ms: round1(percentile(times, 0.5)),
    p90_ms: round1(percentile(times, 0.9)),
    bytes,
  };
}

function rssMb(pidFile: string): number {
  const pid = readFileSync(pidFile, 'utf8').trim();
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

function cpuSeconds(pidFile: string): number {
  const pid = readFileSync(pidFile, 'utf8').trim();
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const TODAY = '2026-11-20';
/** The trading day before TODAY (a Thursday): over, so its answers never change. */
const FINISHED_DAY = '2026-11-19';

export async function run() {
  const daemon = await startDaemon({
    SJ_SIM_CLOCK: 'exchange',
    SJ_SIM_START: `${TODAY}T15:00:00`,
    SJ_SIM_LIMITS: 'off',
  });
  try {
    const pidFile = join(daemon.home, `server-${daemon.port}.pid`);
    const busiest = [...LISTED_SECURITIES].sort((a, b) => b.avgVolumeLots - a.avgVolumeLots)[0]!;
    const ticks = await timed(daemon.baseUrl, '/api/v1/data/ticks', {
      contract: { code: busiest.code },
      query_type: 'AllDay',
    });
    const finishedTicks = await timed(daemon.baseUrl, '/api/v1/data/ticks', {
      contract: { code: busiest.code },
      date: FINISHED_DAY,
      query_type: 'AllDay',
    });
    const futures = (await (await fetch(`${daemon.baseUrl}/api/v1/data/contracts?security_type=FUT`)).json()) as {
      contracts: { code: string }[];
    };
    const options = (await (await fetch(`${daemon.baseUrl}/api/v1/data/contracts?security_type=OPT`)).json()) as {
      contracts: { code: string }[];
    };
    const codes = [
      ...LISTED_SECURITIES.map((s) => s.code),
      ...futures.contracts.map((c) => c.code),
      ...options.contracts.map((c) => c.code),
    ];
    const contracts = codes.slice(0, 500).map((code) => ({ code }));
    const snapshots = await timed(daemon.baseUrl, '/api/v1/data/snapshots', { contracts });
    // Build every tape of the day (all stocks, futures and options), then read memory and idle CPU.
    for (let i = 0; i < codes.length; i += 500) {
      await post(daemon.baseUrl, '/api/v1/data/snapshots', {
        contracts: codes.slice(i, i + 500).map((code) => ({ code })),
      });
    }
    const cpuBefore = cpuSeconds(pidFile);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const idleCpu = (cpuSeconds(pidFile) - cpuBefore) / 5;
    return [
      { benchmark: 'ticks-allday-busiest-stock', code: busiest.code, day: 'today', ...ticks, target_p50_ms: 50 },
      {
        benchmark: 'ticks-finished-day-busiest-stock',
        code: busiest.code,
        day: FINISHED_DAY,
        ...finishedTicks,
        target_p50_ms: 10,
      },
      {
        benchmark: 'snapshots-500',
        contracts: contracts.length,
        ...snapshots,
        target_first_ms: 20,
        target_p50_ms: 20,
      },
      {
        benchmark: 'market-whole-catalog',
        contracts: codes.length,
        rss_mb: rssMb(pidFile),
        cpu_share_of_one_core: Math.round(idleCpu * 1000) / 1000,
        target_rss_mb: 300,
        target_cpu_share: 0.25,
      },
    ];
  } finally {
    await daemon.stop();
  }
}
