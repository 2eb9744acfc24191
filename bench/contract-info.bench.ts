// GET /api/v1/data/contracts/2330/info on the real daemon vs a bare node:http server returning the same bytes,
// same load tool (autocannon in its own process), same run. Target: sjgate >= 80% of bare.

import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort, startDaemon } from './daemon.js';

const PATH = '/api/v1/data/contracts/2330/info';
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);

function load(url: string) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ url, connections: 50, pipelining: 1, duration: DURATION_S }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

async function startBareServer(body: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = fork(join(import.meta.dirname, 'bare-server.mjs'), [String(port)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  child.send(body);
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  return { url: `http://127.0.0.1:${port}${PATH}`, child };
}

export async function run() {
  const daemon = await startDaemon();
  try {
    const url = `${daemon.baseUrl}${PATH}`;
    const body = await (await fetch(url)).text();
    const bare = await startBareServer(body);
    try {
      await load(url); // warm-up of both, so neither is measured cold
      await load(bare.url);
      const gateway = await load(url);
      const baseline = await load(bare.url);
      return {
        benchmark: 'contract-info-throughput',
        path: PATH,
        duration_s: DURATION_S,
        connections: 50,
        sjgate_rps: Math.round(gateway.requests.average),
        bare_node_http_rps: Math.round(baseline.requests.average),
        ratio: Math.round((gateway.requests.average / baseline.requests.average) * 1000) / 1000,
        sjgate_p99_ms: gateway.latency.p99,
        bare_p99_ms: baseline.latency.p99,
        errors: gateway.errors + gateway.non2xx,
        target_ratio: 0.8,
      };
    } finally {
      bare.child.kill();
    }
  } finally {
    await daemon.stop();
  }
}
