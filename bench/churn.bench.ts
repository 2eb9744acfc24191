// Steady state under long use (issue 22): contract info throughput against a bare node:http server returning the same
// bytes, measured fresh and again after BENCH_CHURN_SECONDS (default 60) of mixed load on the same daemon: contract
// info and contract lookups of many codes, snapshots of 50 codes, ticks and kbars, orders with Idempotency-Keys,
// order/trades, and SSE clients on the live feed. The daemon runs with bench/gc-probe.cjs preloaded, which reports its
// GC pause time, CPU time and RSS; the share of CPU spent in GC is given for each phase and for the last part of the
// mix, and RSS every 5 s of the mix (every minute of a mix longer than 10 minutes) with its least-squares slope over
// the last part: the last 30 minutes, or the last half of a shorter mix. The soak is
// BENCH_CHURN_SECONDS=3600 (200 SSE clients by default; BENCH_CHURN_SSE_CLIENTS changes it).
// BENCH_CHURN_NODE_ARGS adds Node flags to the daemon (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
// Target: ratio after the mix >= 0.9, GC < 3 % of the daemon's CPU, RSS flat over the last part of the mix.

import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type MeasuredLoad, measuredLoad, median, medianCpu, startBaseline } from './contract-info.bench.js';
import { type Daemon, startDaemon } from './daemon.js';
import { load, pinToServerCore } from './load.js';

const INFO_PATH = '/api/v1/data/contracts/2330/info';
const MIX_SECONDS = Number(process.env.BENCH_CHURN_SECONDS ?? 60);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const MIX_WORKERS = 6;
const SSE_CLIENTS = Number(process.env.BENCH_CHURN_SSE_CLIENTS ?? 200);
const RSS_EVERY_MS = 5_000;
/** The window for a flat RSS; a shorter mix is judged on its last half. */
const TAIL_SECONDS = Math.min(30 * 60, MIX_SECONDS / 2);
/** RSS samples reported: every 5 s of a short mix, every minute of a long one (all are used for the slope). */
const REPORT_EVERY = MIX_SECONDS > 600 ? 12 : 1;

interface ProbeSample {
  gc_ms: number;
  gc_young_ms: number;
  gc_count: number;
  cpu_ms: number;
  rss_mb: number;
  heap_mb: number;
  heap_total_mb: number;
  external_mb: number;
  array_buffers_mb: number;
  rss_anon_mb?: number;
}

/** The parts of the daemon's memory in one probe sample, in MB. */
function memoryParts(sample: ProbeSample) {
  return {
    rss: round1(sample.rss_mb),
    rss_anon: round1(sample.rss_anon_mb ?? Number.NaN),
    heap_used: round1(sample.heap_mb),
    heap_total: round1(sample.heap_total_mb),
    external: round1(sample.external_mb),
    array_buffers: round1(sample.array_buffers_mb),
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;

function readProbe(dir: string, pid: number): ProbeSample {
  return JSON.parse(readFileSync(join(dir, `gc-${pid}.json`), 'utf8')) as ProbeSample;
}

/** GC pause time as a share of the daemon's CPU time between two probe samples, and GCs per second of CPU. */
function gcShare(from: ProbeSample, to: ProbeSample) {
  const cpu = to.cpu_ms - from.cpu_ms;
  return {
    gc_share_of_cpu: Math.round(((to.gc_ms - from.gc_ms) / cpu) * 1000) / 1000,
    young_gc_share_of_cpu: Math.round(((to.gc_young_ms - from.gc_young_ms) / cpu) * 1000) / 1000,
    gcs: to.gc_count - from.gc_count,
    daemon_cpu_s: round1(cpu / 1000),
  };
}

/** Least-squares slope of RSS samples taken every RSS_EVERY_MS, in MB per minute. */
export function slopePerMinute(samples: readonly number[]): number {
  const n = samples.length;
  if (n < 2) return Number.NaN;
  const meanX = (n - 1) / 2;
  const meanY = samples.reduce((sum, y) => sum + y, 0) / n;
  let covariance = 0;
  let variance = 0;
  samples.forEach((y, x) => {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  });
  return Math.round((covariance / variance) * (60_000 / RSS_EVERY_MS) * 100) / 100;
}

/** Contract info on the daemon and on the bare server, taking turns; medians of ROUNDS. */
async function compare(gatewayUrl: string, gatewayPid: number, bareUrl: string, barePid: number) {
  const gateway: MeasuredLoad[] = [];
  const bare: MeasuredLoad[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    gateway.push(await measuredLoad(gatewayUrl, gatewayPid, DURATION_S));
    bare.push(await measuredLoad(bareUrl, barePid, DURATION_S));
  }
  const sjgateRps = median(gateway.map((r) => r.rps));
  const bareRps = median(bare.map((r) => r.rps));
  return {
    sjgate_rps: Math.round(sjgateRps),
    bare_rps: Math.round(bareRps),
    ratio: Math.round((sjgateRps / bareRps) * 1000) / 1000,
    sjgate_cpu_us_per_request: medianCpu(gateway),
    bare_cpu_us_per_request: medianCpu(bare),
    ratio_by_cpu: Math.round((medianCpu(bare) / medianCpu(gateway)) * 1000) / 1000,
    errors: gateway.reduce((sum, r) => sum + r.errors, 0),
  };
}

/** The mixed requests, chosen in turn; `i` varies the codes so that caches keyed by code see many keys. */
function mixedRequest(i: number, codes: string[]): [string, string, object | undefined, Record<string, string>?] {
  const code = codes[(i * 7919) % codes.length]!;
  switch (i % 10) {
    case 0:
    case 1:
      return ['GET', `/api/v1/data/contracts/${code}/info`, undefined];
    case 2:
      return ['GET', `/api/v1/data/contracts/${code}`, undefined];
    case 3: {
      const batch = Array.from({ length: 50 }, (_, k) => ({ code: codes[(i * 31 + k * 13) % codes.length]! }));
      return ['POST', '/api/v1/data/snapshots', { contracts: batch }];
    }
    case 4:
      return ['POST', '/api/v1/data/ticks', { contract: { code }, query_type: 'LastCount', last_cnt: 50 }];
    case 5:
      return ['POST', '/api/v1/data/kbars', { contract: { code } }];
    case 6:
      return ['GET', INFO_PATH, undefined];
    case 7: {
      // One order in 40 requests: about 35 orders/s at this load, which the gateway keeps all day (today's orders).
      if (i % 40 !== 7) return ['GET', `/api/v1/data/contracts/${code}/info`, undefined];
      const action = i % 80 < 40 ? 'Buy' : 'Sell';
      const order = { action, price_type: 'MKT', order_type: 'IOC', price: 0, quantity: 1 };
      return [
        'POST',
        '/api/v1/order/place_order',
        { contract: { code: '2884' }, stock_order: order },
        {
          'idempotency-key': `churn-${i}`,
        },
      ];
    }
    case 8:
      return ['POST', '/api/v1/portfolio/account_balance', {}];
    default:
      return ['GET', '/api/v1/stream/status', undefined];
  }
}

async function mixedLoad(daemon: Daemon, codes: string[], until: number, statuses: Record<string, number>) {
  let next = 0;
  const worker = async () => {
    while (Date.now() < until) {
      const [method, path, body, headers] = mixedRequest(next++, codes);
      const response = await fetch(`${daemon.baseUrl}${path}`, {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).catch(() => null);
      const key = `${path.startsWith('/api/v1/data/contracts/') ? '/data/contracts/:code' : path} ${response?.status}`;
      statuses[key] = (statuses[key] ?? 0) + 1;
      await response?.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: MIX_WORKERS }, worker));
}

/** SSE clients that read the live feed of a few subscribed stocks for the whole mix. */
async function sseClients(daemon: Daemon, codes: string[], signal: AbortSignal): Promise<() => number> {
  for (const code of codes.slice(0, 10)) {
    await fetch(`${daemon.baseUrl}/api/v1/stream/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contract: { code }, quote_type: 'Tick' }),
    });
  }
  let bytes = 0;
  for (let i = 0; i < SSE_CLIENTS; i++) {
    void fetch(`${daemon.baseUrl}/api/v1/stream/data`, { signal })
      .then(async (response) => {
        for await (const chunk of response.body!) bytes += (chunk as Uint8Array).length;
      })
      .catch(() => undefined);
  }
  return () => bytes;
}

export async function run() {
  const probeDir = mkdtempSync(join(tmpdir(), 'sjgate-churn-'));
  const extraArgs = process.env.BENCH_CHURN_NODE_ARGS ?? '';
  const daemon = await startDaemon({
    SJ_SIM_CLOCK: 'always-open',
    SJ_SIM_LIMITS: 'off',
    SJ_BENCH_GC_DIR: probeDir,
    NODE_OPTIONS: `--require ${join(import.meta.dirname, 'gc-probe.cjs')} ${extraArgs}`.trim(),
  });
  const pid = Number(readFileSync(join(daemon.home, `server-${daemon.port}.pid`), 'utf8'));
  pinToServerCore(pid);
  const url = `${daemon.baseUrl}${INFO_PATH}`;
  const body = await (await fetch(url)).text();
  const bare = await startBaseline('bare-server.mjs', body);
  try {
    const listing = (await (
      await fetch(`${daemon.baseUrl}/api/v1/data/contracts?security_type=STK&page_size=1000`)
    ).json()) as { contracts: { code: string }[] };
    const codes = listing.contracts.map((c) => c.code);
    for (const target of [url, bare.url]) await load(target, 2); // nobody measured cold
    await sleep(600);
    const beforeFresh = readProbe(probeDir, pid);
    const fresh = await compare(url, pid, bare.url, bare.child.pid!);
    await sleep(600);
    const afterFresh = readProbe(probeDir, pid);

    const statuses: Record<string, number> = {};
    const sse = new AbortController();
    const sseBytes = await sseClients(daemon, codes, sse.signal);
    const rss: number[] = [];
    const memory: ReturnType<typeof memoryParts>[] = [];
    const sampler = setInterval(() => {
      const sample = readProbe(probeDir, pid);
      rss.push(round1(sample.rss_mb));
      if (rss.length % 12 === 0) memory.push(memoryParts(sample));
    }, RSS_EVERY_MS);
    const mixStart = readProbe(probeDir, pid);
    let tailStart = mixStart;
    const tailTimer = setTimeout(
      () => {
        tailStart = readProbe(probeDir, pid);
      },
      (MIX_SECONDS - TAIL_SECONDS) * 1000,
    );
    await mixedLoad(daemon, codes, Date.now() + MIX_SECONDS * 1000, statuses);
    clearInterval(sampler);
    clearTimeout(tailTimer);
    const tailEnd = readProbe(probeDir, pid);
    sse.abort();
    await sleep(600);
    const mixEnd = readProbe(probeDir, pid);
    const after = await compare(url, pid, bare.url, bare.child.pid!);
    await sleep(600);
    const afterEnd = readProbe(probeDir, pid);
    return {
      benchmark: 'churn',
      mix_seconds: MIX_SECONDS,
      // GC shares are pause wall time over CPU time: on a busy machine a descheduled pause counts long.
      machine_load_1min: round1(loadavg()[0]!),
      fresh: { ...fresh, ...gcShare(beforeFresh, afterFresh) },
      mix: { ...gcShare(mixStart, mixEnd), sse_clients: SSE_CLIENTS, sse_mb: round1(sseBytes() / 2 ** 20), statuses },
      mix_tail: {
        seconds: TAIL_SECONDS,
        ...gcShare(tailStart, tailEnd),
        rss_slope_mb_per_min: slopePerMinute(rss.slice(-Math.floor((TAIL_SECONDS * 1000) / RSS_EVERY_MS))),
      },
      after_mix: { ...after, ...gcShare(mixEnd, afterEnd) },
      [REPORT_EVERY === 1 ? 'rss_mb_every_5s' : 'rss_mb_every_min']: rss.filter((_, i) => i % REPORT_EVERY === 0),
      memory_mb_every_min: memory,
      heap_mb_end: round1(afterEnd.heap_mb),
      targets: { ratio_after_mix: 0.9, gc_share_of_cpu: 0.03, rss_slope_mb_per_min: 0 },
    };
  } finally {
    bare.child.kill();
    await daemon.stop();
  }
}
