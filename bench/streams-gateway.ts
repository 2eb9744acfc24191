// The sjgate side of the SSE fan-out benchmark, in a process of its own so that process.cpuUsage() is the gateway's
// alone: the real app (buildApp around a gateway over the simulator on a manual clock, so the simulated market never moves by itself)
// listening on 127.0.0.1, and on command publishes synthetic tick_stk events through app.streams.hub.publish at a
// fixed rate. Each event is a real tick_stk payload captured from the simulator, plus `published_us`: the publish time
// in µs on CLOCK_MONOTONIC (process.hrtime), which every process on the machine shares. (performance.timeOrigin +
// performance.now() does not: each process fixes its timeOrigin at start, and two processes disagree by 1-4 ms.)
//
// IPC: it sends {type: 'listening', port, tick} once ready; then answers
//   {type: 'publish', seconds, rate, pad} with {type: 'published', ...} (CPU of the window, RSS samples),
//   {type: 'status'} with {type: 'status', connections, dropped_clients, status} (the hub's own status).

import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { ManualClock, taipeiInstant } from '../src/domain/time.js';
import { buildApp } from '../src/server/app.js';
import { simGateway } from '../test/helpers/gateway.js';

/** After the last publish, how long writes may take to reach the kernel before the CPU window closes. */
const DRAIN_MS = 250;

const clock = new ManualClock(taipeiInstant('2026-11-23', '10:00'));
const { broker, gateway } = simGateway({ clock, seed: 1, clockMode: 'always-open', apiKey: null });
const app = await buildApp({
  gateway,
  bindHost: '127.0.0.1',
  rateLimits: false,
  // BENCH_SSE_MAX_BUFFERED overrides the hub's per-client cap (e.g. to see what stalled clients cost without it).
  streams: process.env.BENCH_SSE_MAX_BUFFERED ? { maxBufferedBytes: Number(process.env.BENCH_SSE_MAX_BUFFERED) } : {},
  identity: { version: 'bench', scheme: 'http', protocols: ['HTTP/1.1'], startedAt: Date.now() },
});
await app.ready();

/** A tick_stk the simulator publishes for 2330, as the streams carry it. */
async function captureTick(): Promise<Record<string, unknown>> {
  let tick: Record<string, unknown> | null = null;
  const stop = broker.quotes.onMarketEvent((event) => {
    if (event.name === 'tick_stk' && tick === null) tick = event.data as Record<string, unknown>;
  });
  const body = { security_type: 'STK', exchange: 'TSE', code: '2330', quote_type: 'Tick' };
  const subscribed = await app.inject({ method: 'POST', url: '/api/v1/stream/subscribe', payload: body });
  if (subscribed.statusCode !== 200) throw new Error(`subscribe failed: ${subscribed.body}`);
  for (let i = 0; i < 100 && tick === null; i++) {
    clock.advance(30_000);
    broker.feed.step();
  }
  stop();
  await app.inject({ method: 'POST', url: '/api/v1/stream/unsubscribe', payload: body });
  if (tick === null) throw new Error('the simulator published no tick_stk for 2330');
  return tick;
}

const tick = await captureTick();
await app.listen({ host: '127.0.0.1', port: 0 });
/** Every open socket, to add up what the gateway holds for clients that do not read (its own buffers, not the kernel's). */
const sockets = new Set<Socket>();
app.server.on('connection', (socket: Socket) => {
  sockets.add(socket);
  socket.once('close', () => sockets.delete(socket));
});
const { port } = app.server.address() as { port: number };

/** CLOCK_MONOTONIC in µs: one clock for every process on the machine, read the same way by the clients. */
const nowUs = () => {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1_000_000 + Math.round(nanoseconds / 1000);
};
const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
/** RSS, the V8 heap and Buffers, and the bytes queued in the gateway's socket buffers, in MB. */
function memory() {
  const usage = process.memoryUsage();
  let queued = 0;
  for (const socket of sockets) queued += socket.writableLength;
  return { rss: mb(usage.rss), heap: mb(usage.heapUsed), buffers: mb(usage.arrayBuffers), queued: mb(queued) };
}

/** Write syscalls (write, writev) this process made so far: how many messages one socket write carries. */
function writeSyscalls(): number {
  try {
    return Number(/syscw: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/** p50, p99 and max of the times one timer tick took to publish its events and flush every socket, in ms. */
function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0) * 100) / 100;
  return { p50: at(0.5), p99: at(0.99), max: at(1) };
}

interface PublishCommand {
  type: 'publish';
  seconds: number;
  rate: number;
  /** Extra bytes of filler in each event (a `pad` field), to make them bigger. */
  pad: number;
}

/** Publishes `rate` events per second for `seconds` on a fixed schedule (catching up when a timer fires late). */
async function publishFor({ seconds, rate, pad }: PublishCommand) {
  const template = pad > 0 ? { ...tick, pad: 'x'.repeat(pad) } : tick;
  const interval = 1000 / rate;
  const total = Math.round(seconds * rate);
  const samples = [memory()];
  const sampler = setInterval(() => samples.push(memory()), 1000);
  let sent = 0;
  let lateMax = 0;
  const fanoutMs: number[] = [];
  const cpuBefore = process.cpuUsage();
  const writesBefore = writeSyscalls();
  const start = performance.now();
  await new Promise<void>((done) => {
    const step = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor((now - start) / interval) + 1);
      const first = sent;
      while (sent < due) {
        lateMax = Math.max(lateMax, now - (start + sent * interval));
        const data = { ...template, published_us: nowUs() };
        app.streams.hub.publish('tick_stk', data);
        sent++;
      }
      // The responses are corked while written and flushed in process.nextTick: this tick runs after those.
      if (sent > first) process.nextTick(() => fanoutMs.push(performance.now() - now));
      if (sent >= total) done();
      else setTimeout(step, Math.max(0, start + sent * interval - performance.now()));
    };
    step();
  });
  const publishMs = performance.now() - start;
  await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
  const cpu = process.cpuUsage(cpuBefore);
  const writes = writeSyscalls() - writesBefore;
  clearInterval(sampler);
  samples.push(memory());
  return {
    type: 'published',
    events: sent,
    publish_ms: publishMs,
    window_ms: performance.now() - start,
    cpu_us: cpu.user + cpu.system,
    cpu_user_us: cpu.user,
    cpu_system_us: cpu.system,
    write_syscalls: writes,
    late_max_ms: lateMax,
    fanout_ms: percentiles(fanoutMs),
    data_bytes: Buffer.byteLength(JSON.stringify({ ...template, published_us: nowUs() })),
    rss_mb: samples.map((sample) => sample.rss),
    memory_mb: samples,
    hub: app.streams.hub.status(),
  };
}

process.on('message', (message: { type: string }) => {
  if (message.type === 'publish') {
    publishFor(message as PublishCommand).then(
      (result) => process.send!(result),
      (error: unknown) => process.send!({ type: 'error', error: String(error) }),
    );
  } else if (message.type === 'status') {
    const status = app.streams.hub.status();
    process.send!({ type: 'status', connections: status.streams.data, status, memory_mb: memory() });
  }
});
process.on('disconnect', () => process.exit(0));
process.send!({ type: 'listening', port, tick });
