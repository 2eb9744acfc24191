// GET /api/v1/data/contracts/2330/info on the real daemon vs a bare node:http server returning the same bytes,
// same load tool, same run. Target: sjgate >= 80% of bare. Each server's CPU time per request is reported beside its
// requests a second: on a machine shared with other jobs the rates swing with their load, the CPU per request less.

import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { freePort, startDaemon } from './daemon.js';
import { cpuMsOf, type LoadResult, load, pinToServerCore } from './load.js';

const PATH = '/api/v1/data/contracts/2330/info';
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A baseline server in its own process, pinned like the daemon: bare node:http, or a minimal Fastify app. */
export async function startBaseline(file: string, body: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = fork(join(import.meta.dirname, file), [String(port), PATH], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  child.send(body);
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  pinToServerCore(child.pid!);
  return { url: `http://127.0.0.1:${port}${PATH}`, child };
}

export type MeasuredLoad = LoadResult & { cpuUsPerRequest: number };

/** A load run with the server's CPU time per request (µs). */
export async function measuredLoad(url: string, pid: number, seconds = DURATION_S): Promise<MeasuredLoad> {
  const before = cpuMsOf(pid);
  const result = await load(url, seconds, CONNECTIONS);
  return { ...result, cpuUsPerRequest: ((cpuMsOf(pid) - before) * 1000) / (result.rps * seconds) };
}

/** The median CPU per request of runs, in µs to a tenth. */
export const medianCpu = (runs: MeasuredLoad[]) => Math.round(median(runs.map((r) => r.cpuUsPerRequest)) * 10) / 10;

const round3 = (value: number) => Math.round(value * 1000) / 1000;

export async function run() {
  const daemon = await startDaemon();
  try {
    const daemonPid = Number(readFileSync(join(daemon.home, `server-${daemon.port}.pid`), 'utf8'));
    pinToServerCore(daemonPid);
    const url = `${daemon.baseUrl}${PATH}`;
    const body = await (await fetch(url)).text();
    const bare = await startBaseline('bare-server.mjs', body);
    const floor = await startBaseline('fastify-floor-server.mjs', body);
    try {
      for (const target of [url, bare.url, floor.url]) await load(target, 2, CONNECTIONS); // nobody measured cold
      // Alternate the two servers so that drift of a noisy machine hits both alike; report medians.
      const gatewayRuns: MeasuredLoad[] = [];
      const bareRuns: MeasuredLoad[] = [];
      const floorRuns: MeasuredLoad[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        gatewayRuns.push(await measuredLoad(url, daemonPid));
        bareRuns.push(await measuredLoad(bare.url, bare.child.pid!));
        floorRuns.push(await measuredLoad(floor.url, floor.child.pid!));
      }
      const floorRps = median(floorRuns.map((r) => r.rps));
      const gateway = { rps: median(gatewayRuns.map((r) => r.rps)), p99_ms: median(gatewayRuns.map((r) => r.p99_ms)) };
      const baseline = { rps: median(bareRuns.map((r) => r.rps)), p99_ms: median(bareRuns.map((r) => r.p99_ms)) };
      return {
        benchmark: 'contract-info-throughput',
        path: PATH,
        tool: gatewayRuns[0]!.tool,
        rounds: ROUNDS,
        duration_s: DURATION_S,
        connections: CONNECTIONS,
        response_bytes: Buffer.byteLength(body),
        sjgate_rps: Math.round(gateway.rps),
        bare_node_http_rps: Math.round(baseline.rps),
        ratio: round3(gateway.rps / baseline.rps),
        minimal_fastify_rps: Math.round(floorRps),
        ratio_to_minimal_fastify: round3(gateway.rps / floorRps),
        sjgate_cpu_us_per_request: medianCpu(gatewayRuns),
        bare_cpu_us_per_request: medianCpu(bareRuns),
        minimal_fastify_cpu_us_per_request: medianCpu(floorRuns),
        ratio_by_cpu: round3(medianCpu(bareRuns) / medianCpu(gatewayRuns)),
        load_average: Number(loadavg()[0]!.toFixed(1)),
        sjgate_p99_ms: gateway.p99_ms,
        bare_p99_ms: baseline.p99_ms,
        errors: gatewayRuns.reduce((sum, r) => sum + r.errors, 0),
        target_ratio: 0.8,
      };
    } finally {
      bare.child.kill();
      floor.child.kill();
    }
  } finally {
    await daemon.stop();
  }
}
