// Replay flood (issue 14, case 4): N clients open /api/v1/stream/data/order_event with Last-Event-ID 0-0, asking
// for a replay of the whole order journal (about 1.1 MB), and never read a byte. Measured: the gateway's RSS before
// and at its peak, the bytes it holds for its clients (the hub's queued_bytes), and the latency of /api/v1/health on a
// new connection, idle first (the baseline of the same run) and then every 100 ms for BENCH_REPLAY_SECONDS while the
// clients are connected. N = 500 and 2,000 (BENCH_REPLAY_CLIENTS=500,2000).
//
// The gateway runs alone in its process (replay-gateway.ts); the clients are raw sockets of this process, paused
// from the start, so the kernel's buffers fill (a few MB per loopback socket) and the rest waits in the gateway.

import { type ChildProcess, fork } from 'node:child_process';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';

const CLIENT_COUNTS = (process.env.BENCH_REPLAY_CLIENTS ?? '500,2000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_REPLAY_SECONDS ?? 10);
const PATH = '/api/v1/stream/data/order_event';

interface Memory {
  type: 'memory';
  rss_mb: number;
  heap_mb: number;
  queued_mb: number;
  status: { active_connections: number; dropped_clients: number; refused_clients?: number };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const round = (ms: number) => Math.round(ms * 10) / 10;

function next<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the gateway exited (${code})`));
    const onMessage = (message: { type: string }) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as T);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

function memory(child: ChildProcess): Promise<Memory> {
  const answer = next<Memory>(child, 'memory');
  child.send({ type: 'memory' });
  return answer;
}

/** GET /api/v1/health on a new connection, as a probe makes it; its latency in ms (Infinity on an error). */
function health(port: number): Promise<number> {
  const start = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/v1/health', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - start : Number.POSITIVE_INFINITY));
    });
    req.on('error', () => resolve(Number.POSITIVE_INFINITY));
    req.end();
  });
}

function neverReading(port: number): Socket {
  const socket = connect({ host: '127.0.0.1', port });
  socket.pause();
  socket.on('error', () => {});
  socket.once('connect', () =>
    socket.write(`GET ${PATH} HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: text/event-stream\r\nlast-event-id: 0-0\r\n\r\n`),
  );
  return socket;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN);
}

async function flood(clients: number) {
  const gateway = fork(join(import.meta.dirname, 'replay-gateway.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const { port, journal_bytes } = await next<{ port: number; journal_bytes: number }>(gateway, 'listening');
  const idle: number[] = [];
  for (let n = 0; n < 20; n++) idle.push(await health(port));
  const before = await memory(gateway);
  const sockets = Array.from({ length: clients }, () => neverReading(port));
  const latencies: number[] = [];
  let peak = before;
  let peakQueued = 0;
  const end = performance.now() + SECONDS * 1000;
  while (performance.now() < end) {
    latencies.push(await health(port));
    const now = await memory(gateway);
    if (now.rss_mb > peak.rss_mb) peak = now;
    peakQueued = Math.max(peakQueued, Number.isNaN(now.queued_mb) ? 0 : now.queued_mb);
    await sleep(100);
  }
  const after = await memory(gateway);
  for (const socket of sockets) socket.destroy();
  gateway.kill();
  return {
    benchmark: 'sse-replay-flood',
    clients,
    journal_mb: round(journal_bytes / 1048576),
    seconds: SECONDS,
    rss_mb: { before: before.rss_mb, peak: peak.rss_mb, end: after.rss_mb },
    heap_mb_at_peak: peak.heap_mb,
    queued_mb_peak: peakQueued,
    health_ms: {
      idle_p50: percentile(idle, 0.5),
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: percentile(latencies, 1),
      samples: latencies.length,
      failed: latencies.filter((ms) => ms === Number.POSITIVE_INFINITY).length,
    },
    hub_at_end: after.status,
  };
}

export async function run() {
  const results = [];
  for (const clients of CLIENT_COUNTS) results.push(await flood(clients));
  return results;
}
