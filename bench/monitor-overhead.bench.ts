// What the monitor costs a request: GET /api/v1/data/contracts/2330/info on the real daemon with the monitor's
// capture off, with metrics (the default), and with metrics and request summaries, switched by PATCH
// /api/v1/monitor/settings between runs of the same load tool, alternated in rounds so drift hits all three alike.
// Reports medians and the ratio of each to capture off (1.0 = free).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RequestRing } from '../src/server/monitor/request-ring.js';
import { MetricSeries } from '../src/server/monitor/series.js';
import { startDaemon } from './daemon.js';
import { type LoadResult, load, pinToServerCore } from './load.js';

const PATH = '/api/v1/data/contracts/2330/info';
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const MODES = {
  off: { metrics: false, requests: false },
  metrics: { metrics: true, requests: false },
  metrics_and_requests: { metrics: true, requests: true },
} as const;

/**
 * The monitor's own work per request, in this process without HTTP (stable on a noisy machine): recording one
 * observation in the metrics' two rings, and one summary in the request ring, at 20,000 requests a second.
 */
export function perRecordNs() {
  const series = new MetricSeries();
  const ring = new RequestRing();
  const endpoints = Array.from({ length: 40 }, (_, i) => `/api/v1/area${i % 8}/route${i}`);
  const count = 1_000_000;
  const start = Date.parse('2026-11-23T00:00:00Z');
  // 20,000 requests a second, as under load: 50 s of traffic.
  const step = 0.05;
  const time = (record: (i: number) => void) => {
    for (let i = 0; i < 100_000; i++) record(i); // warm
    const began = process.hrtime.bigint();
    for (let i = 0; i < count; i++) record(i);
    return Math.round(Number(process.hrtime.bigint() - began) / count);
  };
  const metricsNs = time((i) =>
    series.add({
      at: start + i * step,
      source: 'incoming',
      origin: 'user',
      category: 'x',
      method: 'GET',
      endpoint: endpoints[i % 40]!,
      durationUs: 50 + (i % 5000),
      error: i % 97 === 0,
    }),
  );
  const summaryNs = time((i) =>
    ring.add({
      source: 'incoming',
      origin: 'user',
      category: 'x',
      method: 'GET',
      endpoint: endpoints[i % 40]!,
      started_ms: start + i * step,
      duration_us: 50 + (i % 5000),
      status: 200,
      outcome: 'ok',
      error_kind: null,
    }),
  );
  return { metrics_record_ns: metricsNs, summary_record_ns: summaryNs, metric_cells_held: series.cellCount() };
}

export async function run() {
  const micro = perRecordNs();
  const daemon = await startDaemon();
  try {
    pinToServerCore(Number(readFileSync(join(daemon.home, `server-${daemon.port}.pid`), 'utf8')));
    const url = `${daemon.baseUrl}${PATH}`;
    const capture = async (mode: keyof typeof MODES) => {
      const response = await fetch(`${daemon.baseUrl}/api/v1/monitor/settings`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ capture: MODES[mode] }),
      });
      if (!response.ok) throw new Error(`PATCH settings: ${response.status} ${await response.text()}`);
    };
    await load(url, 2, CONNECTIONS); // nobody measured cold
    const runs: Record<keyof typeof MODES, LoadResult[]> = { off: [], metrics: [], metrics_and_requests: [] };
    const order = Object.keys(MODES) as (keyof typeof MODES)[];
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with another mode, so no mode always follows the same one.
      for (const mode of [...order.slice(round % order.length), ...order.slice(0, round % order.length)]) {
        await capture(mode);
        runs[mode].push(await load(url, DURATION_S, CONNECTIONS));
      }
    }
    const summary = (mode: keyof typeof MODES) => ({
      rps: Math.round(median(runs[mode].map((r) => r.rps))),
      p99_ms: median(runs[mode].map((r) => r.p99_ms)),
    });
    const off = summary('off');
    const metrics = summary('metrics');
    const both = summary('metrics_and_requests');
    const ratio = (rps: number) => Math.round((rps / off.rps) * 1000) / 1000;
    return {
      benchmark: 'monitor-overhead',
      path: PATH,
      tool: runs.off[0]!.tool,
      rounds: ROUNDS,
      duration_s: DURATION_S,
      connections: CONNECTIONS,
      capture_off_rps: off.rps,
      metrics_rps: metrics.rps,
      metrics_and_requests_rps: both.rps,
      metrics_ratio: ratio(metrics.rps),
      metrics_and_requests_ratio: ratio(both.rps),
      capture_off_p99_ms: off.p99_ms,
      metrics_p99_ms: metrics.p99_ms,
      metrics_and_requests_p99_ms: both.p99_ms,
      ...micro,
      errors: Object.values(runs)
        .flat()
        .reduce((sum, r) => sum + r.errors, 0),
    };
  } finally {
    await daemon.stop();
  }
}
