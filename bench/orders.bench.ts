// Durable orders over HTTP on the real daemon: place_order round-trip latency with one keep-alive connection
// (target p50 < 2 ms), and sustained acknowledged orders per second with many in flight (target >= 2,000/s),
// against a bare node:http server that does the minimal durable work (parse, one SQLite transaction with
// synchronous FULL, answer) with the same client in the same run. A third result times the journal's commit of
// one order alone on this disk, one order per transaction and grouped, to show what fsync per order costs.
//
// The orders do real work: 2884 (a cheap stock) 1 lot, alternately a buy at limit-up and a sell at limit-down,
// LMT ROD, so every one matches at once against the displayed depth and is Filled with one deal: rules, matching,
// holdings, journal (order, status change, deal, two events). Shares bought first cover the sells. The book
// remembers what orders took (issue 18), so thousands of round trips walk each side's price away and lose about
// NT$1,400 each: 10,000,000 of cash ran out after about 7,000 round trips and the rest were refused (Failed), so the
// account starts with NT$10,000,000,000 here (SJ_SIM_STARTING_CASH).
// The daemon runs with SJ_SIM_LIMITS=off: production's limit (orders group: 250 calls per 10 s) would refuse
// all but the first 250 orders of a run, and then pause place_order for 60 s.
//
// BENCH_CPU_PROF=<dir> runs the daemon with --cpu-prof into <dir> and adds its top functions by self time.

import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import {
  closeSync,
  fdatasyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Journal } from '../src/store/journal.js';
import { CLI, daemonEnv, freePort } from './daemon.js';
import { pinToServerCore } from './load.js';

const LATENCY_ORDERS = Number(process.env.BENCH_LATENCY_ORDERS ?? 2000);
const WARMUP_ORDERS = 300;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
/** Lots bought before the runs, so that CONCURRENCY sells in flight never sell shares not held. */
const INVENTORY_LOTS = Math.max(64, CONCURRENCY * 2);
const JOURNAL_ORDERS = Number(process.env.BENCH_JOURNAL_ORDERS ?? 3000);
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : null;

const PLACE = '/api/v1/order/place_order';
const LIMITS_NOTE =
  'SJ_SIM_LIMITS=off: the orders rate group (250 calls per 10 s, then a 60 s pause) would refuse the rest';

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const round2 = (value: number) => Math.round(value * 100) / 100;
const round3 = (value: number) => Math.round(value * 1000) / 1000;

interface Answer {
  status: number;
  text: string;
  ms: number;
}

/** A keep-alive HTTP client with up to `connections` sockets, POSTing prepared bodies. */
function client(port: number, connections: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const post = (path: string, body: Buffer) =>
    new Promise<Answer>((resolvePost, reject) => {
      const begin = performance.now();
      const req = request(
        {
          agent,
          host: '127.0.0.1',
          port,
          method: 'POST',
          path,
          headers: { 'content-type': 'application/json', 'content-length': body.length },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () =>
            resolvePost({
              status: res.statusCode ?? 0,
              text: Buffer.concat(chunks).toString('utf8'),
              ms: performance.now() - begin,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return { post, close: () => agent.destroy() };
}

type Client = ReturnType<typeof client>;

interface Workload {
  buy: Buffer;
  sell: Buffer;
  describe: string;
}

async function workload(baseUrl: string): Promise<Workload> {
  const info = (await (await fetch(`${baseUrl}/api/v1/data/contracts/2884/info`)).json()) as {
    limit_up: number;
    limit_down: number;
  };
  const order = (action: string, price: number) =>
    Buffer.from(
      JSON.stringify({
        contract: { code: '2884' },
        stock_order: { action, price, quantity: 1, price_type: 'LMT', order_type: 'ROD' },
      }),
    );
  return {
    buy: order('Buy', info.limit_up),
    sell: order('Sell', info.limit_down),
    describe:
      `2884 1 lot LMT ROD, alternately Buy at limit-up (${info.limit_up}) and Sell at limit-down ` +
      `(${info.limit_down}): each fills at once at the best price, one deal; ${INVENTORY_LOTS} lots bought first`,
  };
}

/** The trade's status, or the HTTP status when the answer is not a Trade. */
function outcome(answer: Answer): string {
  if (answer.status !== 200) return `http_${answer.status}`;
  return (JSON.parse(answer.text) as { status: { status: string } }).status.status;
}

function count(into: Record<string, number>, key: string): void {
  into[key] = (into[key] ?? 0) + 1;
}

async function sequential(http: Client, bodies: Buffer[], n: number) {
  const times: number[] = [];
  const outcomes: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    const answer = await http.post(PLACE, bodies[i % bodies.length]!);
    times.push(answer.ms);
    count(outcomes, outcome(answer));
  }
  return { times, outcomes };
}

/** `concurrency` closed loops for `seconds`, each alternating the bodies; completions counted per second. */
async function sustained(http: Client, bodies: Buffer[], seconds: number, concurrency: number) {
  const times: number[] = [];
  const outcomes: Record<string, number> = {};
  const perSecond = new Array<number>(seconds).fill(0);
  let errors = 0;
  const begin = performance.now();
  const end = begin + seconds * 1000;
  const loop = async () => {
    for (let i = 0; performance.now() < end; i++) {
      try {
        const answer = await http.post(PLACE, bodies[i % bodies.length]!);
        const done = performance.now();
        if (done > end) break;
        times.push(answer.ms);
        count(outcomes, outcome(answer));
        perSecond[Math.floor((done - begin) / 1000)]!++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const acknowledged = outcomes.Filled ?? 0;
  return { times, outcomes, errors, perSecond, rate: acknowledged / seconds };
}

/** Pins this process (the load generator) to the last core while `work` runs, as the other benches pin wrk. */
async function onClientCore<T>(work: () => Promise<T>): Promise<T> {
  const cores = cpus().length;
  const pin = (list: string) => {
    try {
      execFileSync('taskset', ['-cp', list, String(process.pid)], { stdio: 'ignore' });
    } catch {
      // no taskset: run unpinned
    }
  };
  if (cores > 1) pin(String(cores - 1));
  try {
    return await work();
  } finally {
    if (cores > 1) pin(`0-${cores - 1}`);
  }
}

async function bareBaseline(answer: string, bodies: Buffer[]) {
  const dir = mkdtempSync(join(tmpdir(), 'sjgate-bench-bare-'));
  const port = await freePort();
  const child = fork(join(import.meta.dirname, 'bare-journal-server.mjs'), [String(port), join(dir, 'bare.db')], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    await new Promise<void>((resolveReady) => child.once('message', () => resolveReady()));
    child.send(answer);
    await new Promise<void>((resolveReady) => child.once('message', () => resolveReady()));
    pinToServerCore(child.pid!);
    const http = client(port, CONCURRENCY);
    try {
      await sequential(http, bodies, WARMUP_ORDERS);
      const latency = await sequential(http, bodies, LATENCY_ORDERS);
      const load = await sustained(http, bodies, DURATION_S, CONCURRENCY);
      return { latency, load };
    } finally {
      http.close();
    }
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One filled order's commit as the gateway's OrderJournal writes it (save it, a status change, one deal, the New and Deal
 * events; the order counter once per transaction), `perCommit` orders per transaction; with synchronous FULL (the
 * journal's) and NORMAL (no fsync per commit in WAL) for comparison.
 */
function journalCommits(trade: { order: { id: string } }, perCommit: number, synchronous: 'FULL' | 'NORMAL') {
  const dir = mkdtempSync(join(tmpdir(), 'sjgate-bench-journal-'));
  const journal = Journal.open(join(dir, 'sjgate.db'));
  // The journal always uses FULL; NORMAL is set behind its back only to measure what the fsync costs.
  (journal as unknown as { db: { pragma(s: string): unknown } }).db.pragma(`synchronous = ${synchronous}`);
  // The order's row holds no deals: they are in their own rows.
  const stored = { ...trade, status: { ...(trade as { status?: object }).status, deals: [] } };
  const record = { ...stored, accountKey: '9A95-1234567', market: 'stock', tape: 'board', queueAhead: 0 };
  const event = { state: 'StockOrder', data: { StockOrder: trade } };
  const commits = Math.ceil(JOURNAL_ORDERS / perCommit);
  const times: number[] = [];
  let n = 0;
  const begin = performance.now();
  for (let c = 0; c < commits; c++) {
    const t = performance.now();
    journal.transaction(() => {
      for (let k = 0; k < perCommit; k++) {
        const id = `b${++n}`;
        journal.orders.save({
          id,
          accountKey: record.accountKey,
          code: '2884',
          status: 'Filled',
          placedAt: n,
          updatedAt: n,
          open: false,
          record,
        });
        journal.orders.addStatusChange(id, n, 'Filled', '委託成功');
        journal.orders.addDeal({
          orderId: id,
          seq: 1,
          accountKey: record.accountKey,
          code: '2884',
          action: 'Buy',
          price: 32.5,
          quantity: 1,
          at: n,
          record: { seq: '000001', price: 32.5, quantity: 1, ts: n / 1000 },
        });
        journal.events.append({ at: n, kind: 'StockOrder', accountKey: record.accountKey, payload: event });
        journal.events.append({ at: n, kind: 'StockDeal', accountKey: record.accountKey, payload: event });
      }
      journal.meta.set('order_counter', String(n));
    });
    times.push(performance.now() - t);
  }
  const seconds = (performance.now() - begin) / 1000;
  journal.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    orders_per_commit: perCommit,
    synchronous,
    commit_p50_ms: round3(percentile(times, 0.5)),
    commit_p99_ms: round3(percentile(times, 0.99)),
    orders_per_s: Math.round(n / seconds),
  };
}

/** The daemon's top functions by self time in the largest profile in `dir` (the daemon's; the CLI's are small). */
function topFunctions(dir: string, top = 15) {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f));
  const largest = files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (!largest) return null;
  const profile = JSON.parse(readFileSync(largest, 'utf8')) as {
    nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
    samples: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  for (const id of profile.samples) {
    const frame = byId.get(id)!.callFrame;
    const where = frame.url.replace(/^.*\/(src|dist|node_modules)\//, '$1/');
    const key = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + 1);
  }
  const total = profile.samples.length;
  return {
    file: largest,
    top_self: [...self.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, samples]) => ({ fn: name, pct: Math.round((samples / total) * 1000) / 10 })),
  };
}

/**
 * `sjgate server start --foreground` as a child of this process (node flags such as --cpu-prof cannot go through
 * NODE_OPTIONS), healthy before it returns; stop() ends it with SIGTERM, the graceful shutdown.
 */
async function startForeground(extra: NodeJS.ProcessEnv, nodeArgs: string[]) {
  const daemon = await daemonEnv(extra);
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, CLI, 'server', 'start', '--foreground'], {
    cwd: daemon.home,
    env: daemon.env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the daemon exited while starting (code ${child.exitCode})`);
    const health = await fetch(`${daemon.baseUrl}/api/v1/health`).catch(() => null);
    if (health?.ok) break;
    if (Date.now() > deadline) throw new Error('the daemon was not healthy after 15 s');
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
  }
  return {
    ...daemon,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(daemon.home, { recursive: true, force: true });
    },
  };
}

/** The daemon's CPU time so far (user + system), in seconds. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** How many 4 KB append + fdatasync rounds this disk does per second now (what bounds one fsync per order). */
function diskFdatasyncPerSecond(seconds = 2): number {
  const dir = mkdtempSync(join(tmpdir(), 'sjgate-bench-disk-'));
  const fd = openSync(join(dir, 'probe'), 'w');
  const block = Buffer.alloc(4096, 1);
  let n = 0;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    writeSync(fd, block);
    fdatasyncSync(fd);
    n++;
  }
  closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
  return Math.round(n / seconds);
}

/** Enough for every round trip of a run (see the top of this file). */
const STARTING_CASH = '10000000000';

export async function run() {
  const nodeArgs: string[] = [];
  if (CPU_PROF_DIR) {
    mkdirSync(CPU_PROF_DIR, { recursive: true });
    nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`);
  }
  const daemon = await startForeground(
    { SJ_SIM_LIMITS: 'off', SJ_SIM_CLOCK: 'always-open', SJ_SIM_STARTING_CASH: STARTING_CASH },
    nodeArgs,
  );
  let gateway: {
    latency: Awaited<ReturnType<typeof sequential>>;
    load: Awaited<ReturnType<typeof sustained>>;
    latencyAfter: Awaited<ReturnType<typeof sequential>>;
    ordersBefore: { latency: number; load: number; latencyAfter: number };
    cpuMsPerOrder: number;
    cpuShare: number;
    disk: number;
    answer: string;
    describe: string;
    bodies: Buffer[];
  };
  try {
    pinToServerCore(daemon.pid);
    const orders = await workload(daemon.baseUrl);
    const http = client(daemon.port, CONCURRENCY);
    try {
      gateway = await onClientCore(async () => {
        const inventory = await sequential(http, [orders.buy], INVENTORY_LOTS);
        if (inventory.outcomes.Filled !== INVENTORY_LOTS) {
          throw new Error(`the inventory buys did not all fill: ${JSON.stringify(inventory.outcomes)}`);
        }
        const sample = await http.post(PLACE, orders.sell);
        await sequential(http, [orders.buy, orders.sell], WARMUP_ORDERS);
        const placed = INVENTORY_LOTS + 1 + WARMUP_ORDERS;
        const latency = await sequential(http, [orders.sell, orders.buy], LATENCY_ORDERS);
        const disk = diskFdatasyncPerSecond();
        const cpuBefore = cpuSeconds(daemon.pid);
        const load = await sustained(http, [orders.sell, orders.buy], DURATION_S, CONCURRENCY);
        const cpu = cpuSeconds(daemon.pid) - cpuBefore;
        // Closed loops finish the requests in flight at the end; every answered one is an order in the daemon.
        const loadOrders = load.times.length + CONCURRENCY;
        const latencyAfter = await sequential(http, [orders.sell, orders.buy], LATENCY_ORDERS);
        return {
          latency,
          load,
          latencyAfter,
          ordersBefore: {
            latency: placed,
            load: placed + LATENCY_ORDERS,
            latencyAfter: placed + LATENCY_ORDERS + loadOrders,
          },
          cpuMsPerOrder: (cpu * 1000) / load.times.length,
          cpuShare: cpu / DURATION_S,
          disk,
          answer: sample.text,
          describe: orders.describe,
          bodies: [orders.sell, orders.buy],
        };
      });
    } finally {
      http.close();
    }
  } finally {
    await daemon.stop();
  }
  const bare = await onClientCore(() => bareBaseline(gateway.answer, gateway.bodies));
  const trade = JSON.parse(gateway.answer) as { order: { id: string } };
  const disk = diskFdatasyncPerSecond();
  const commits = [
    journalCommits(trade, 1, 'FULL'),
    journalCommits(trade, 1, 'NORMAL'),
    journalCommits(trade, 16, 'FULL'),
    journalCommits(trade, 64, 'FULL'),
  ];

  const { latency, load, latencyAfter } = gateway;
  const bareRate = bare.load.times.length / DURATION_S;
  const results: object[] = [
    {
      benchmark: 'place-order-latency',
      orders: gateway.describe,
      connection: 'one keep-alive connection, one request at a time',
      requests: latency.times.length,
      outcomes: latency.outcomes,
      orders_in_daemon_before: gateway.ordersBefore.latency,
      p50_ms: round3(percentile(latency.times, 0.5)),
      p90_ms: round3(percentile(latency.times, 0.9)),
      p99_ms: round3(percentile(latency.times, 0.99)),
      bare_durable_p50_ms: round3(percentile(bare.latency.times, 0.5)),
      bare_durable_p99_ms: round3(percentile(bare.latency.times, 0.99)),
      // The same measure again once the throughput run has added its orders: place_order scans every order.
      after: {
        orders_in_daemon_before: gateway.ordersBefore.latencyAfter,
        outcomes: latencyAfter.outcomes,
        p50_ms: round3(percentile(latencyAfter.times, 0.5)),
        p90_ms: round3(percentile(latencyAfter.times, 0.9)),
        p99_ms: round3(percentile(latencyAfter.times, 0.99)),
      },
      rate_limits: LIMITS_NOTE,
      target_p50_ms: 2,
    },
    {
      benchmark: 'place-order-throughput',
      orders: gateway.describe,
      concurrency: CONCURRENCY,
      duration_s: DURATION_S,
      orders_in_daemon_before: gateway.ordersBefore.load,
      acknowledged: load.outcomes.Filled ?? 0,
      outcomes: load.outcomes,
      errors: load.errors,
      orders_per_s: Math.round(load.rate),
      per_second: load.perSecond,
      p50_ms: round2(percentile(load.times, 0.5)),
      p99_ms: round2(percentile(load.times, 0.99)),
      daemon_cpu_ms_per_order: round3(gateway.cpuMsPerOrder),
      daemon_cpu_share: round2(gateway.cpuShare),
      disk_fdatasync_per_s: gateway.disk,
      bare_durable_rps: Math.round(bareRate),
      ratio: round3(load.rate / bareRate),
      rate_limits: LIMITS_NOTE,
      target_orders_per_s: 2000,
    },
    {
      benchmark: 'journal-commit',
      what: "one filled order's journal writes as the gateway's OrderJournal makes them, in this process, on this disk",
      disk: tmpdir(),
      disk_fdatasync_per_s: disk,
      runs: commits,
    },
  ];
  if (CPU_PROF_DIR) results.push({ benchmark: 'place-order-cpu-profile', ...topFunctions(CPU_PROF_DIR) });
  return results;
}
