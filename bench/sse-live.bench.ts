// SSE on the live feed (issue 22): 1,000 clients on the aggregate stream while the simulator trades the busiest codes
// at real speed (sse-live-gateway.ts), so the events and their timing are the market's: latency is from the moment a
// trade happens in simulated time (its tick's `time`, read on CLOCK_MONOTONIC) to its receipt by a client, which
// covers the feed's step, the quote stream, the hub and the socket. Target: p99 under 20 ms. The gateway's CPU per
// delivered event is reported beside it (streams.bench.ts compares the hub's fan-out with a bare server's).
//
// Processes as in streams.bench.ts: the gateway pinned to core 0, two client processes on the last core.

import { fork } from 'node:child_process';
import { join } from 'node:path';
import { pinToServerCore } from './load.js';
import { ask, latency, type Message, type Stats, startWorkers } from './streams.bench.js';

const CLIENTS = Number(process.env.BENCH_SSE_CLIENTS ?? 1000);
const SECONDS = Number(process.env.BENCH_SSE_SECONDS ?? 10);
const WARMUP_S = 2;
const TARGET_P99_MS = 20;
const PATH = '/api/v1/stream/data';

const round3 = (value: number) => Math.round(value * 1000) / 1000;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export async function run() {
  const workers = await startWorkers();
  const gateway = fork(join(import.meta.dirname, 'sse-live-gateway.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    const ready = await ask<Message & { port: number; base_us: number; codes: string[] }>(
      gateway,
      { type: '' },
      'listening',
    );
    if (process.env.BENCH_SSE_PIN !== '0') pinToServerCore(gateway.pid!);
    await Promise.all(
      workers.map((worker, i) =>
        ask(
          worker,
          {
            type: 'connect',
            port: ready.port,
            path: PATH,
            count: Math.floor(CLIENTS / workers.length) + (i < CLIENTS % workers.length ? 1 : 0),
            time_base_us: ready.base_us,
          },
          'connected',
        ),
      ),
    );
    await sleep(WARMUP_S * 1000);
    await Promise.all(workers.map((worker) => ask(worker, { type: 'reset' }, 'reset')));
    const measured = await ask<Message & { cpu_us: number; window_ms: number; rss_mb: number }>(
      gateway,
      { type: 'measure', seconds: SECONDS },
      'measured',
    );
    const stats = await Promise.all(workers.map((worker) => ask<Stats>(worker, { type: 'stats' }, 'stats')));
    const delivered = stats.reduce((sum, s) => sum + s.events, 0);
    const result = latency(stats);
    return {
      benchmark: 'sse-live',
      stream: PATH,
      codes: ready.codes,
      clients: CLIENTS,
      seconds: SECONDS,
      delivered,
      events_per_second_per_client: Math.round((delivered / CLIENTS / (measured.window_ms / 1000)) * 10) / 10,
      latency_from_trade_ms: result,
      negative_latencies: stats.reduce((sum, s) => sum + s.negatives, 0),
      cpu_us_per_delivered_event: round3(measured.cpu_us / delivered),
      server_cpu_share: round3(measured.cpu_us / 1000 / measured.window_ms),
      server_rss_mb: measured.rss_mb,
      clock_note: 'the simulated clock is mapped onto CLOCK_MONOTONIC once, through Date.now() (1 ms resolution)',
      target_latency_p99_ms: TARGET_P99_MS,
      pass: { latency_p99: result.p99 < TARGET_P99_MS },
    };
  } finally {
    for (const worker of workers) worker.disconnect();
    if (gateway.connected) gateway.disconnect();
  }
}
