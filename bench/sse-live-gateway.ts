// The sjgate side of the live SSE benchmark (sse-live.bench.ts), in a process of its own so that process.cpuUsage() is
// the gateway's alone: the real app over the simulator on a clock that runs at real speed from a busy time of the
// exchange day, the feed started as the daemon starts it, Tick subscriptions of the busiest codes. Nothing is
// synthetic: the events are the simulator's trades, published when the feed steps.
//
// IPC: sends {type: 'listening', port, base_us, codes}: base_us is the simulated day's midnight (Taipei) as a
// CLOCK_MONOTONIC time in µs, so a client reads a tick's `time` field as the moment it traded on the shared clock.
// Then answers {type: 'measure', seconds} with {type: 'measured', cpu_us, window_ms, rss_mb}.

import { performance } from 'node:perf_hooks';
import { clockStartingAt, taipeiInstant } from '../src/domain/time.js';
import { buildApp } from '../src/server/app.js';
import { simGateway } from '../test/helpers/gateway.js';

const DAY = process.env.BENCH_SSE_LIVE_DAY ?? '2026-11-20';
const START = process.env.BENCH_SSE_LIVE_TIME ?? '13:20';
const CODES = (process.env.BENCH_SSE_LIVE_CODES ?? '2330,2317,2454,2308,2881,2882,2891,2303,0050,0056').split(',');
const FUTURES = ['TXFR1', 'MXFR1'];

const clock = clockStartingAt(taipeiInstant(DAY, START));
const { gateway } = simGateway({ clock, seed: 1, clockMode: 'exchange', apiKey: null });
const app = await buildApp({
  gateway,
  bindHost: '127.0.0.1',
  rateLimits: false,
  streams: {},
  identity: { version: 'bench', scheme: 'http', protocols: ['HTTP/1.1'], startedAt: Date.now() },
});
await app.ready();
for (const code of [...CODES, ...FUTURES]) {
  const isFuture = FUTURES.includes(code);
  const payload = {
    security_type: isFuture ? 'FUT' : 'STK',
    exchange: isFuture ? 'TAIFEX' : 'TSE',
    code,
    quote_type: 'Tick',
  };
  const answer = await app.inject({ method: 'POST', url: '/api/v1/stream/subscribe', payload });
  if (answer.statusCode !== 200) throw new Error(`subscribe ${code}: ${answer.body}`);
}
await app.listen({ host: '127.0.0.1', port: 0 });
gateway.start();
const { port } = app.server.address() as { port: number };

const monotonicUs = () => {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1_000_000 + nanoseconds / 1000;
};
const simulatedMinusMonotonicUs = clock.now() * 1000 - monotonicUs();
const baseUs = taipeiInstant(DAY, '00:00') * 1000 - simulatedMinusMonotonicUs;

process.on('message', (message: { type: string; seconds?: number }) => {
  if (message.type !== 'measure') return;
  const before = process.cpuUsage();
  const started = performance.now();
  setTimeout(() => {
    const cpu = process.cpuUsage(before);
    process.send!({
      type: 'measured',
      cpu_us: cpu.user + cpu.system,
      window_ms: performance.now() - started,
      rss_mb: Math.round(process.memoryUsage().rss / 1048576),
    });
  }, message.seconds! * 1000);
});
process.on('disconnect', () => process.exit(0));
process.send!({ type: 'listening', port, base_us: baseUs, codes: [...CODES, ...FUTURES] });
