// The soak driver (issue 14), shared by bench/soak.bench.ts (10 minutes) and test/e2e/soak.test.ts (12 s): the real
// daemon as its own process (tsx from source, or the build in dist/; its own process group, a temporary SJ_HOME_PATH, a free port,
// SJ_SIM_LIMITS=off, SJ_SIM_CLOCK=always-open) under mixed load for a given time, SIGKILLed and restarted on the
// same home and port halfway through, then checked:
//   - orders, a few in flight at a paced rate: 2884 LMT ROD buys and sells at limit-up/limit-down (they fill), 2884
//     buys well below the bid (they rest; the oldest are cancelled so that at most RESTING_KEPT stay), TXFR1 MKT IOC
//     buys and sells; every one with an Idempotency-Key and a unique custom_field tag. A request that dies with the
//     daemon is sent again with the same key once the new daemon is healthy, until it is answered;
//   - queries: snapshots, contract and contract info, positions, account balance, order/trades, stream status;
//   - SSE: `sseClients` connections, half on the aggregate stream, half on order_event; about 10 % are raw sockets
//     that never read a byte; the rest read, and reconnect with Last-Event-ID when the stream ends. A few of the
//     readers on order_event parse every event: every order event exactly once, the New event of every order
//     acknowledged (events journaled before the kill come back from the journal on reconnect);
//   - a small app upload every `uploadEveryMs`, then a GET of the app's page, which must hold what was uploaded.
// At the end every order acknowledged 200 must be in order/trades by id exactly once, and the tags there must be
// exactly the tags sent, once each (a retry that placed a second order would show a tag twice). Every answer is
// checked for status >= 500 at any time; connection errors while the daemon is down are counted apart. The daemon's
// RSS (VmRSS) is sampled every second; `rss.start` is taken after start-up and a warm-up of the same load (the SSE
// clients of the warm-up gone and a settle), `rss.end` after the last SSE client disconnected, the load stopped
// and a settle, both in the same quiet state.
//
// Everything the driver starts (daemon process group, sockets, timers, the data home) goes in `dispose()`, which
// `run()` calls itself and a test also calls from an after hook, so a failed or timed-out run cannot hang the suite.

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, type ClientRequest, type IncomingMessage, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createParser } from 'eventsource-parser';
import { builtCli, SOURCE_CLI, simulatorEnv, TSX } from './daemon.js';
import { freePort } from './net.js';

const START_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** Resting buys kept in the book; older ones are cancelled (which also bounds the cash they hold). */
const RESTING_KEPT = 30;
/** Readers on order_event that parse every event and check order events arrive exactly once. */
const VERIFIERS = 4;
const APP_NAMES = ['soak-a', 'soak-b', 'soak-c'];
const INVENTORY_LOTS = 5;
/**
 * How far the daemon's RSS at the end may be above its value after warm-up, both read in a quiet state (no client,
 * no load, a settle). What legitimately stays: today's orders in memory (about 2 KB each: 12 MB for the 6,000 orders
 * of 4 minutes, 30 MB for the 15,000 of the 10-minute run) and the order events in the replay ring. Measured on a
 * 2-core VM (start about 200 MB): 10 s after the load the RSS is still +30 to +140 MB (the heap V8 grew for 500
 * connections and for the writes queued to readers that lag is given back only when its memory reducer runs), a few
 * seconds later it is within +10 MB of the start; live heap after a forced GC was +7 MB for 3,800 orders.
 */
export const RSS_BOUND_MB = 64;
/** How long past the settle the end reading may wait for the idle daemon's RSS to come down. */
const RSS_REST_MS = 30_000;

export interface SoakOptions {
  durationMs: number;
  /** SSE connections during the main phase (default 500); `stalledFraction` of them never read (default 0.1). */
  sseClients?: number;
  stalledFraction?: number;
  /** place_order/cancel requests in flight at most (default 4) and the pace of new orders (default 25/s). */
  ordersInFlight?: number;
  ordersPerSecond?: number;
  /** Queries per second, two in flight (default 20). */
  queriesPerSecond?: number;
  uploadEveryMs?: number;
  /** Warm-up before rss.start: the same load with 10 % of the SSE clients (default 5 s). */
  warmupMs?: number;
  /** Quiet time before each RSS reading of a quiet state (default 10 s: V8 shrinks an idle heap after some seconds). */
  settleMs?: number;
  /** Where in the main phase the daemon is SIGKILLed, 0..1 (default 0.5). */
  killAt?: number;
  /** Extra Node.js arguments for the daemon (e.g. --cpu-prof, a preload that samples its memory). */
  daemonNodeArgs?: string[];
  /** Runs the built daemon (dist/, as `npm test` builds it) instead of the source through tsx, which starts slower. */
  builtDaemon?: boolean;
  /** Progress lines (default: none). */
  log?: ((line: string) => void) | undefined;
}

export interface SoakReport {
  duration_s: number;
  orders: {
    sent: number;
    acknowledged: number;
    /** Requests answered only by a retry with the same Idempotency-Key (they were in flight at the kill). */
    retried: number;
    /** Answers other than 200 (after retries): the order was refused as a request. */
    refused: number;
    by_status: Record<string, number>;
    /** Why orders failed (status.msg), a sample. */
    failed_reasons: string[];
    cancels: number;
    stored: number;
    lost: number;
    duplicates: number;
    /** Tags in order/trades that no request sent. */
    unexpected: number;
  };
  queries: { ok: number; failed: number };
  sse: {
    clients: number;
    stalled: number;
    events: number;
    connects: number;
    /** Connections that resumed with Last-Event-ID. */
    reconnects: number;
    /** Order events the parsing readers got twice, and acknowledged orders whose New event one of them never got. */
    order_events_duplicated: number;
    order_events_missing: number;
    dropped_by_gateway: number;
  };
  uploads: { ok: number; failed: number; verified: number };
  restarts: number;
  http_5xx: number;
  /** Connection errors while the daemon was being killed or restarted (expected), and at any other time. */
  connection_errors_at_kill: number;
  connection_errors_other: number;
  /** Unexpected answers (4xx where 200 was due, 5xx, wrong content), a sample of each kind. */
  errors: string[];
  rss_mb: {
    start: number;
    after_restart: number;
    peak: number;
    end: number;
    /** Seconds of idleness after the settle before rss_mb.end was read (0 when it was within the bound at once). */
    rest_s: number;
    /** One sample every 10 s. */
    timeline: number[];
  };
}

type Json = Record<string, unknown>;

interface Answer {
  status: number;
  text: string;
  /** The X-Next-Cursor header of a paged answer. */
  next?: string | undefined;
}

interface OrderRequest {
  key: string;
  tag: string;
  kind: 'buy' | 'sell' | 'rest' | 'futures';
  body: Json;
  trade?: Json;
  attempts: number;
}

interface Reader {
  path: string;
  lastId: string | null;
  req: ClientRequest | null;
  events: number;
  verify: boolean;
  /** Journal seqs of the order events seen (verifiers only). */
  seqs: Set<string>;
  newOrders: Set<string>;
  duplicated: number;
  pending: string;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const round2 = (value: number) => Math.round(value * 100) / 100;

class ConnectionError extends Error {
  constructor(
    message: string,
    readonly generation: number,
  ) {
    super(message);
  }
}

export class Soak {
  readonly home = mkdtempSync(join(tmpdir(), 'sjgate-soak-'));
  private port = 0;
  private child: ChildProcess | null = null;
  private childExited: Promise<void> = Promise.resolve();
  private output = '';
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 16 });
  private readonly abort = new AbortController();
  private disposed = false;
  /** Bumped at each kill: a connection error of a request sent to an older generation is expected. */
  private generation = 0;
  private down = false;
  /** Set when the kill is due: called once the next place_order request has gone out. */
  private killArmed: (() => void) | null = null;
  private up: Promise<void> = Promise.resolve();
  private markUp: () => void = () => {};
  /** Set when a phase's time is over: loops finish what they hold and stop. */
  private stopping = false;
  /** Aborted when a phase's time is over: ends the waits of loops that sleep between rounds. */
  private phaseOver = new AbortController();
  private readonly readers = new Set<Reader>();
  private readonly stalled = new Set<Socket>();
  private readonly sampler: NodeJS.Timeout;
  private prices = { buy: 0, sell: 0, rest: 0 };
  private nextOrderAt = 0;
  private nextQueryAt = 0;
  private seq = 0;
  private readonly sent: OrderRequest[] = [];
  private readonly resting: string[] = [];
  private readonly errorSamples = new Map<string, string>();
  private readonly onExit = () => this.killDaemon();
  private readonly r: SoakReport = {
    duration_s: 0,
    orders: {
      sent: 0,
      acknowledged: 0,
      retried: 0,
      refused: 0,
      by_status: {},
      failed_reasons: [],
      cancels: 0,
      stored: 0,
      lost: 0,
      duplicates: 0,
      unexpected: 0,
    },
    queries: { ok: 0, failed: 0 },
    sse: {
      clients: 0,
      stalled: 0,
      events: 0,
      connects: 0,
      reconnects: 0,
      order_events_duplicated: 0,
      order_events_missing: 0,
      dropped_by_gateway: 0,
    },
    uploads: { ok: 0, failed: 0, verified: 0 },
    restarts: 0,
    http_5xx: 0,
    connection_errors_at_kill: 0,
    connection_errors_other: 0,
    errors: [],
    rss_mb: { start: 0, after_restart: 0, peak: 0, end: 0, rest_s: 0, timeline: [] },
  };
  private rssSamples = 0;

  constructor(private readonly options: SoakOptions) {
    process.once('exit', this.onExit);
    // Every loop sleeps on the signal.
    setMaxListeners(0, this.abort.signal);
    this.sampler = setInterval(() => this.sampleRss(), 1000).unref();
  }

  private get signal() {
    return this.abort.signal;
  }

  private log(line: string) {
    this.options.log?.(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}`);
  }

  async run(): Promise<SoakReport> {
    const {
      durationMs,
      sseClients = 500,
      stalledFraction = 0.1,
      warmupMs = 5000,
      settleMs = 10_000,
      killAt = 0.5,
    } = this.options;
    try {
      const began = performance.now();
      this.port = await freePort();
      await this.startDaemon();
      await this.prepare();
      this.log(`daemon ${this.child?.pid} on port ${this.port}; warm-up ${warmupMs} ms`);
      await this.phase(warmupMs, Math.ceil(sseClients / 10), stalledFraction, null);
      await this.closeSse();
      await this.quietSleep(settleMs);
      this.r.rss_mb.start = this.rssMb();
      this.r.rss_mb.peak = this.r.rss_mb.start;
      this.log(`rss start ${this.r.rss_mb.start} MB; main phase ${durationMs} ms`);
      await this.phase(durationMs, sseClients, stalledFraction, durationMs * killAt);
      await this.waitForOrderEvents();
      this.r.sse.dropped_by_gateway += await this.droppedClients();
      await this.closeSse();
      await this.quietSleep(settleMs);
      await this.rssAtRest();
      this.log(`rss end ${this.r.rss_mb.end} MB (peak ${this.r.rss_mb.peak}); checking the orders`);
      await this.checkOrders();
      this.r.duration_s = round1((performance.now() - began) / 1000);
      this.r.errors = [...this.errorSamples.entries()].map(([kind, sample]) => `${kind}: ${sample}`);
      return this.r;
    } catch (error) {
      throw new Error(`${(error as Error).stack}\n--- daemon output (tail) ---\n${this.output}`);
    } finally {
      await this.dispose();
    }
  }

  /** Stops everything the driver started: safe to call more than once, from an after hook too. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.stopping = true;
    this.abort.abort();
    this.markUp();
    clearInterval(this.sampler);
    for (const reader of this.readers) reader.req?.destroy();
    this.readers.clear();
    for (const socket of this.stalled) socket.destroy();
    this.stalled.clear();
    this.agent.destroy();
    this.killDaemon();
    await Promise.race([this.childExited, sleep(5000)]);
    process.off('exit', this.onExit);
    rmSync(this.home, { recursive: true, force: true });
  }

  // ---- the daemon ----

  private killDaemon() {
    const child = this.child;
    if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }

  private async startDaemon(): Promise<void> {
    const env = simulatorEnv(this.home, this.port);
    const nodeArgs = this.options.daemonNodeArgs ?? [];
    const cli = this.options.builtDaemon ? [builtCli()] : ['--import', TSX, SOURCE_CLI];
    const child = spawn(process.execPath, [...nodeArgs, ...cli, 'server', 'start', '--foreground'], {
      cwd: this.home,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that dispose() kills whatever it may have started too.
      detached: true,
    });
    this.child = child;
    this.childExited = new Promise((resolve) => child.once('exit', () => resolve()));
    const keep = (chunk: string) => {
      this.output = (this.output + chunk).slice(-20_000);
    };
    child.stdout?.setEncoding('utf8').on('data', keep);
    child.stderr?.setEncoding('utf8').on('data', keep);
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (this.disposed) throw new Error('disposed');
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the daemon exited while starting (${child.exitCode ?? child.signalCode})`);
      }
      const health = await this.call('GET', '/api/v1/health').catch(() => null);
      if (health?.status === 200 && (JSON.parse(health.text) as Json).status === 'healthy') return;
      if (Date.now() > deadline) throw new Error(`the daemon was not healthy after ${START_TIMEOUT_MS} ms`);
      await sleep(50);
    }
  }

  private async killAndRestart(): Promise<void> {
    // The kill lands just after a place_order request left, so that at least one order is in flight, its answer
    // lost (or, if the daemon had journaled it, its acknowledgement): its retry must find it or place it, once.
    await Promise.race([
      new Promise<void>((resolve) => {
        this.killArmed = resolve;
      }),
      sleep(5000),
    ]);
    this.killArmed = null;
    if (this.disposed) return;
    this.log(`SIGKILL ${this.child?.pid} (rss ${this.rssMb()} MB)`);
    this.down = true;
    this.up = new Promise((resolve) => {
      this.markUp = resolve;
    });
    this.generation++;
    this.killDaemon();
    await this.childExited;
    for (const socket of this.stalled) socket.destroy();
    this.stalled.clear();
    // Keep-alive sockets to the dead daemon are gone; new requests open new ones.
    this.agent.destroy();
    await this.startDaemon();
    this.r.restarts++;
    this.r.rss_mb.after_restart = this.rssMb();
    this.down = false;
    this.markUp();
    this.log(`restarted as ${this.child?.pid} (rss ${this.r.rss_mb.after_restart} MB)`);
  }

  private rssMb(): number {
    const pid = this.child?.pid;
    if (pid === undefined) return 0;
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return match ? round1(Number(match[1]) / 1024) : 0;
    } catch {
      return 0;
    }
  }

  /**
   * rss_mb.end: the lowest RSS of the idle daemon over up to RSS_REST_MS more (it stops once within the bound). V8
   * gives back the pages of a heap the peak grew only when its memory reducer runs, some seconds into idleness.
   */
  private async rssAtRest(): Promise<void> {
    const began = performance.now();
    let lowest = this.rssMb();
    while (lowest - this.r.rss_mb.start > RSS_BOUND_MB && performance.now() - began < RSS_REST_MS && !this.disposed) {
      await this.quietSleep(1000);
      lowest = Math.min(lowest, this.rssMb());
    }
    this.r.rss_mb.end = lowest;
    this.r.rss_mb.rest_s = round1((performance.now() - began) / 1000);
  }

  private sampleRss() {
    if (this.down) return;
    const rss = this.rssMb();
    if (rss === 0) return;
    this.r.rss_mb.peak = Math.max(this.r.rss_mb.peak, rss);
    if (this.rssSamples++ % 10 === 0) this.r.rss_mb.timeline.push(rss);
  }

  // ---- HTTP ----

  private call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string | number> = {},
    raw?: Buffer,
  ): Promise<Answer> {
    const generation = this.generation;
    return new Promise((resolve, reject) => {
      const payload = raw ?? (body === undefined ? undefined : Buffer.from(JSON.stringify(body)));
      const req = request(
        {
          agent: this.agent,
          host: '127.0.0.1',
          port: this.port,
          method,
          path,
          headers: payload
            ? { 'content-type': 'application/json', 'content-length': payload.length, ...headers }
            : headers,
          timeout: REQUEST_TIMEOUT_MS,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', (error) => reject(new ConnectionError(error.message, generation)));
          res.on('end', () => {
            const answer = {
              status: res.statusCode ?? 0,
              text: Buffer.concat(chunks).toString('utf8'),
              next: res.headers['x-next-cursor'] as string | undefined,
            };
            if (answer.status >= 500) {
              this.r.http_5xx++;
              this.error(`${answer.status}`, `${method} ${path}: ${answer.text.slice(0, 300)}`);
            }
            resolve(answer);
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`)));
      req.on('error', (error) => reject(new ConnectionError(error.message, generation)));
      req.end(payload);
      const fire = this.killArmed;
      if (fire && path === '/api/v1/order/place_order') {
        this.killArmed = null;
        req.once('finish', () => setImmediate(fire));
      }
    });
  }

  private error(kind: string, sample: string) {
    if (!this.errorSamples.has(kind)) this.errorSamples.set(kind, sample);
  }

  /**
   * A request, sent again (after the restart) when the connection fails. `retry` false gives up after a failed
   * connection instead. Connection errors are counted as expected when they concern a generation being killed.
   */
  private async send(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string | number>,
    retry = true,
    raw?: Buffer,
  ): Promise<Answer | null> {
    for (;;) {
      if (this.disposed) return null;
      await this.up;
      try {
        return await this.call(method, path, body, headers, raw);
      } catch (error) {
        if (!(error instanceof ConnectionError)) throw error;
        if (this.down || error.generation < this.generation) {
          this.r.connection_errors_at_kill++;
        } else {
          this.r.connection_errors_other++;
          this.error('connection', `${method} ${path}: ${error.message}`);
          await sleep(100);
        }
        if (!retry) return null;
      }
    }
  }

  private async ok(method: string, path: string, body?: unknown): Promise<Json | Json[]> {
    const answer = await this.send(method, path, body);
    if (answer?.status !== 200) throw new Error(`${method} ${path}: ${answer?.status} ${answer?.text}`);
    return JSON.parse(answer.text) as Json;
  }

  // ---- set-up ----

  /** Order reports of both accounts on the streams (subscribe_trade), quotes for market data on the aggregate one. */
  private async prepare(): Promise<void> {
    for (const account_type of ['S', 'F']) await this.ok('POST', '/api/v1/auth/subscribe_trade', { account_type });
    for (const code of ['2884', 'TXFR1']) {
      const contract = code === 'TXFR1' ? { code, security_type: 'FUT', exchange: 'TAIFEX' } : { code };
      await this.ok('POST', '/api/v1/stream/subscribe', { contract, quote_type: 'Tick' });
    }
    await this.refreshPrices();
    // A few lots held from the start: a sell whose buy is still in flight (a few orders are) has shares to sell.
    for (let i = 0; i < INVENTORY_LOTS; i++) await this.placeNext('buy');
  }

  private async refreshPrices(): Promise<void> {
    const [snapshot] = (await this.ok('POST', '/api/v1/data/snapshots', { contracts: [{ code: '2884' }] })) as Json[];
    const info = (await this.ok('GET', '/api/v1/data/contracts/2884/info')) as Json;
    const bid = snapshot!.buy_price as number;
    // A buy at limit-up takes the best ask; a sell at limit-down the best bid; a buy a dollar below the bid waits.
    this.prices = {
      buy: info.limit_up as number,
      sell: info.limit_down as number,
      rest: round2(Math.max(bid - 1, info.limit_down as number)),
    };
  }

  // ---- the load ----

  private async phase(ms: number, sseClients: number, stalledFraction: number, killAfterMs: number | null) {
    this.stopping = false;
    this.phaseOver = new AbortController();
    const end = performance.now() + ms;
    const stalled = Math.round(sseClients * stalledFraction);
    const loops: Promise<void>[] = [];
    loops.push(this.openSse(sseClients - stalled, stalled));
    const { ordersInFlight = 4, uploadEveryMs = 3000 } = this.options;
    for (let i = 0; i < ordersInFlight; i++) loops.push(this.orderLoop());
    for (let i = 0; i < 2; i++) loops.push(this.queryLoop());
    loops.push(this.uploadLoop(uploadEveryMs));
    loops.push(this.priceLoop());
    if (killAfterMs !== null) {
      loops.push(
        (async () => {
          await this.quietSleep(killAfterMs);
          if (!this.disposed) await this.killAndRestart();
          await this.openStalled(stalled);
        })(),
      );
    }
    await this.quietSleep(end - performance.now());
    this.stopping = true;
    this.phaseOver.abort();
    await Promise.all(loops);
  }

  /** A sleep that ends early (without an error) when the run is disposed, or with `inPhase` when the phase is over. */
  private async quietSleep(ms: number, inPhase = false) {
    if (ms <= 0) return;
    const signal = inPhase ? AbortSignal.any([this.signal, this.phaseOver.signal]) : this.signal;
    await sleep(ms, undefined, { signal }).catch(() => undefined);
  }

  /** Waits for this loop's turn at `rate` per second; false when the phase is over. */
  private async pace(slot: 'nextOrderAt' | 'nextQueryAt', rate: number): Promise<boolean> {
    const now = performance.now();
    const at = Math.max(this[slot], now);
    this[slot] = at + 1000 / rate;
    await this.quietSleep(at - now);
    return !this.stopping;
  }

  private orderBody(kind: OrderRequest['kind'], tag: string, i: number): Json {
    if (kind === 'futures') {
      const action = i % 2 === 0 ? 'Buy' : 'Sell';
      return {
        contract: { code: 'TXFR1' },
        futures_order: { action, price: 0, quantity: 1, price_type: 'MKT', order_type: 'IOC', custom_field: tag },
      };
    }
    const action = kind === 'sell' ? 'Sell' : 'Buy';
    const price = this.prices[kind];
    return {
      contract: { code: '2884' },
      stock_order: { action, price, quantity: 1, price_type: 'LMT', order_type: 'ROD', custom_field: tag },
    };
  }

  private async orderLoop(): Promise<void> {
    const { ordersPerSecond = 25 } = this.options;
    const kinds = ['buy', 'rest', 'futures', 'sell', 'rest', 'futures'] as const;
    while (await this.pace('nextOrderAt', ordersPerSecond)) {
      if (this.resting.length > RESTING_KEPT) await this.cancel(this.resting.shift()!);
      await this.placeNext(kinds[this.seq % kinds.length]!);
    }
  }

  private async placeNext(kind: OrderRequest['kind']): Promise<void> {
    const i = this.seq++;
    // custom_field holds at most 6 letters or digits: 's' and the request's number in base 36.
    const tag = `s${i.toString(36)}`;
    const order: OrderRequest = { key: `soak-${i}`, tag, kind, body: this.orderBody(kind, tag, i), attempts: 0 };
    this.sent.push(order);
    this.r.orders.sent++;
    await this.place(order);
  }

  private async place(order: OrderRequest): Promise<void> {
    const headers = { 'idempotency-key': order.key };
    for (;;) {
      order.attempts++;
      const answer = await this.send('POST', '/api/v1/order/place_order', order.body, headers, false);
      if (this.disposed) return;
      if (answer === null) continue;
      if (answer.status !== 200) {
        this.r.orders.refused++;
        this.error(`place_order ${answer.status}`, answer.text.slice(0, 300));
        return;
      }
      const trade = JSON.parse(answer.text) as Json;
      order.trade = trade;
      this.r.orders.acknowledged++;
      if (order.attempts > 1) this.r.orders.retried++;
      const status = (trade.status as Json).status as string;
      this.r.orders.by_status[status] = (this.r.orders.by_status[status] ?? 0) + 1;
      const reason = `${order.kind}: ${(trade.status as Json).msg}`;
      if (
        status === 'Failed' &&
        this.r.orders.failed_reasons.length < 5 &&
        !this.r.orders.failed_reasons.includes(reason)
      ) {
        this.r.orders.failed_reasons.push(reason);
      }
      if (order.kind === 'rest' && status === 'Submitted') this.resting.push((trade.order as Json).id as string);
      return;
    }
  }

  private async cancel(tradeId: string): Promise<void> {
    const answer = await this.send('POST', '/api/v1/order/cancel_order', { trade_id: tradeId }, {}, false);
    if (answer === null) {
      if (!this.disposed) this.resting.push(tradeId);
      return;
    }
    if (answer.status === 200) this.r.orders.cancels++;
    else this.error(`cancel_order ${answer.status}`, answer.text.slice(0, 300));
  }

  private async priceLoop(): Promise<void> {
    while (!this.stopping) {
      await this.quietSleep(10_000, true);
      if (!this.stopping) await this.refreshPrices().catch((error: Error) => this.error('prices', error.message));
    }
  }

  private async queryLoop(): Promise<void> {
    const { queriesPerSecond = 20 } = this.options;
    const queries: Array<[string, string, unknown?]> = [
      ['POST', '/api/v1/data/snapshots', { contracts: [{ code: '2884' }, { code: '2330' }, { code: 'TXFR1' }] }],
      ['GET', '/api/v1/data/contracts/2884'],
      ['POST', '/api/v1/portfolio/position_unit', {}],
      ['GET', '/api/v1/data/contracts/TXFR1'],
      ['POST', '/api/v1/portfolio/account_balance', {}],
      ['GET', '/api/v1/data/contracts/2330/info'],
      ['GET', '/api/v1/stream/status'],
      ['POST', '/api/v1/portfolio/position_unit', { account_type: 'F' }],
    ];
    let i = 0;
    while (await this.pace('nextQueryAt', queriesPerSecond)) {
      // order/trades lists every order of the day, so it comes one time in 20.
      const [method, path, body] = i % 20 === 19 ? ['POST', '/api/v1/order/trades', {}] : queries[i % queries.length]!;
      i++;
      const answer = await this.send(method, path, body, undefined, false);
      if (answer === null) continue;
      if (answer.status === 200) this.r.queries.ok++;
      else {
        this.r.queries.failed++;
        this.error(`${method} ${path} ${answer.status}`, answer.text.slice(0, 300));
      }
    }
  }

  private async uploadLoop(everyMs: number): Promise<void> {
    let i = 0;
    while (!this.stopping) {
      const name = APP_NAMES[i++ % APP_NAMES.length]!;
      const nonce = randomBytes(8).toString('hex');
      const boundary = `----soak-${nonce}`;
      const files: Array<[string, string]> = [
        ['index.html', `<!doctype html><title>${name}</title><script src="app.js"></script><p>${nonce}</p>`],
        ['app.js', `console.log(${JSON.stringify(nonce)});\n${'// filler\n'.repeat(200)}`],
      ];
      const payload = Buffer.concat([
        ...files.map(([filename, content]) =>
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${filename}"\r\n` +
              `Content-Type: application/octet-stream\r\n\r\n${content}\r\n`,
          ),
        ),
        Buffer.from(`--${boundary}--\r\n`),
      ]);
      const headers = { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': payload.length };
      const answer = await this.send('POST', `/api/v1/apps/${name}`, undefined, headers, false, payload);
      if (answer !== null) {
        if (answer.status === 200) {
          this.r.uploads.ok++;
          const page = await this.send('GET', `/apps/${name}/`, undefined, undefined, false);
          if (page?.status === 200 && page.text.includes(nonce)) this.r.uploads.verified++;
          else if (page !== null) this.error('app page', `${page.status} ${page.text.slice(0, 200)}`);
        } else {
          this.r.uploads.failed++;
          this.error(`upload ${answer.status}`, answer.text.slice(0, 300));
        }
      }
      await this.quietSleep(everyMs, true);
    }
  }

  // ---- SSE ----

  /** Opens the readers (in batches, so the accept queue is not flooded) and the stalled sockets. */
  private async openSse(readers: number, stalled: number): Promise<void> {
    this.r.sse.clients = Math.max(this.r.sse.clients, readers + stalled);
    this.r.sse.stalled = Math.max(this.r.sse.stalled, stalled);
    const verifiers = [...this.readers].filter((reader) => reader.verify).length;
    for (let i = 0; i < readers && !this.stopping; i++) {
      const onOrders = i % 2 === 0;
      const verify = onOrders && i / 2 < VERIFIERS - verifiers;
      const reader: Reader = {
        path: onOrders ? '/api/v1/stream/data/order_event' : '/api/v1/stream/data',
        // A parsing reader starts from the journal's first event, so it must see every order of the run.
        lastId: verify ? '0-0' : null,
        req: null,
        events: 0,
        verify,
        seqs: new Set(),
        newOrders: new Set(),
        duplicated: 0,
        pending: '',
      };
      this.readers.add(reader);
      this.connectReader(reader);
      if (i % 50 === 49) await this.quietSleep(100);
    }
    await this.openStalled(stalled);
  }

  private async openStalled(count: number): Promise<void> {
    await this.up;
    for (let i = 0; i < count && !this.stopping; i++) {
      const socket = connect(this.port, '127.0.0.1');
      const path = i % 2 === 0 ? '/api/v1/stream/data' : '/api/v1/stream/data/order_event';
      socket.on('error', () => undefined);
      socket.on('close', () => this.stalled.delete(socket));
      // Never read: what the gateway writes piles up in the kernel's buffers, then in its own.
      socket.pause();
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${this.port}\r\nAccept: text/event-stream\r\n\r\n`);
      this.stalled.add(socket);
    }
  }

  private connectReader(reader: Reader): void {
    if (this.disposed || !this.readers.has(reader)) return;
    const generation = this.generation;
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (reader.lastId !== null) headers['last-event-id'] = reader.lastId;
    reader.pending = '';
    const req = request({ host: '127.0.0.1', port: this.port, path: reader.path, headers, agent: false });
    reader.req = req;
    let answered = false;
    const again = () => {
      if (reader.req !== req || !this.readers.has(reader) || this.disposed) return;
      reader.req = null;
      // Jitter, so that 450 readers do not come back in the same millisecond.
      setTimeout(() => this.connectReader(reader), 200 + Math.random() * 800).unref();
    };
    req.on('response', (res: IncomingMessage) => {
      answered = true;
      if (res.statusCode !== 200) {
        if ((res.statusCode ?? 0) >= 500) this.r.http_5xx++;
        this.error(`sse ${res.statusCode}`, reader.path);
        res.resume();
        res.on('end', again);
        return;
      }
      this.r.sse.connects++;
      if (reader.lastId !== null && reader.lastId !== '0-0') this.r.sse.reconnects++;
      res.on('data', (chunk: Buffer) => this.onSse(reader, chunk));
      res.on('close', again);
      res.on('error', () => undefined);
    });
    req.on('error', (error) => {
      if (!answered && !this.down && generation === this.generation) this.error('sse connect', error.message);
      again();
    });
    req.end();
  }

  /** Counts the events and keeps the last id; the verifiers parse every order event. */
  private onSse(reader: Reader, chunk: Buffer): void {
    const text = reader.pending + chunk.toString('utf8');
    const end = text.lastIndexOf('\n\n');
    if (end < 0) {
      reader.pending = text;
      return;
    }
    reader.pending = text.slice(end + 2);
    const whole = text.slice(0, end + 2);
    let at = whole.indexOf('event: ');
    while (at !== -1) {
      if (at === 0 || whole[at - 1] === '\n') {
        reader.events++;
        this.r.sse.events++;
      }
      at = whole.indexOf('event: ', at + 7);
    }
    const idAt = whole.lastIndexOf('id: ');
    if (idAt !== -1 && (idAt === 0 || whole[idAt - 1] === '\n')) {
      reader.lastId = whole.slice(idAt + 4, whole.indexOf('\n', idAt));
    }
    if (reader.verify) this.verify(reader, whole);
  }

  private verify(reader: Reader, text: string): void {
    const parser = createParser({
      onEvent: (event) => {
        if (event.event !== 'order_event' || event.id === undefined) return;
        const seq = event.id.split('-')[0]!;
        if (reader.seqs.has(seq)) reader.duplicated++;
        reader.seqs.add(seq);
        const payload = JSON.parse(event.data) as Json;
        const body = Object.values(payload.data as Json)[0] as Json;
        const operation = body.operation as Json | undefined;
        if (operation?.op_type === 'New') reader.newOrders.add((body.order as Json).id as string);
      },
    });
    parser.feed(text);
  }

  /** After the load: the verifiers must have the New event of every acknowledged order (up to 15 s). */
  private async waitForOrderEvents(): Promise<void> {
    const acked = this.sent.filter((order) => order.trade).map((order) => (order.trade!.order as Json).id as string);
    const verifiers = [...this.readers].filter((reader) => reader.verify);
    const missing = () =>
      verifiers.reduce((sum, reader) => sum + acked.filter((id) => !reader.newOrders.has(id)).length, 0);
    const deadline = performance.now() + 15_000;
    while (missing() > 0 && performance.now() < deadline && !this.disposed) await this.quietSleep(250);
    this.r.sse.order_events_missing = missing();
    this.r.sse.order_events_duplicated = verifiers.reduce((sum, reader) => sum + reader.duplicated, 0);
    if (verifiers.length === 0) this.error('verifiers', 'no parsing reader was open at the end');
  }

  private async droppedClients(): Promise<number> {
    const answer = await this.send('GET', '/api/v1/stream/status', undefined, undefined, false);
    return answer?.status === 200 ? ((JSON.parse(answer.text) as Json).dropped_clients as number) : 0;
  }

  private async closeSse(): Promise<void> {
    for (const reader of this.readers) reader.req?.destroy();
    this.readers.clear();
    for (const socket of this.stalled) socket.destroy();
    this.stalled.clear();
    // The gateway sees the sockets close on its next read or write.
    await this.quietSleep(500);
  }

  // ---- the final check ----

  /** Every trade the journal holds, page by page: the default call lists only today's, and the run may cross midnight. */
  private async allTrades(): Promise<Json[]> {
    const trades: Json[] = [];
    let cursor: string | undefined;
    do {
      const answer = await this.send('POST', '/api/v1/order/trades', { limit: 1000, ...(cursor ? { cursor } : {}) });
      if (answer?.status !== 200) throw new Error(`order/trades pages: ${answer?.status} ${answer?.text}`);
      trades.push(...(JSON.parse(answer.text) as Json[]));
      cursor = answer.next;
    } while (cursor !== undefined);
    return trades;
  }

  private async checkOrders(): Promise<void> {
    const trades = await this.allTrades();
    const ids = new Map<string, number>();
    const tags = new Map<string, number>();
    for (const trade of trades) {
      const order = trade.order as Json;
      ids.set(order.id as string, (ids.get(order.id as string) ?? 0) + 1);
      tags.set(order.custom_field as string, (tags.get(order.custom_field as string) ?? 0) + 1);
    }
    const sentTags = new Set(this.sent.map((order) => order.tag));
    this.r.orders.stored = trades.length;
    for (const order of this.sent) {
      if (!order.trade) continue;
      const id = (order.trade.order as Json).id as string;
      if (!ids.has(id)) {
        this.r.orders.lost++;
        this.error('lost', `${order.key} ${order.tag} ${id}`);
      }
    }
    for (const [id, count] of ids) {
      if (count > 1) {
        this.r.orders.duplicates += count - 1;
        this.error('duplicate id', id);
      }
    }
    for (const [tag, count] of tags) {
      if (count > 1) {
        this.r.orders.duplicates += count - 1;
        this.error('duplicate tag', tag);
      }
      if (!sentTags.has(tag)) this.r.orders.unexpected++;
    }
  }
}

/** Runs a soak of `durationMs` and returns its report (the driver cleans up after itself). */
export function runSoak(options: SoakOptions): Promise<SoakReport> {
  return new Soak(options).run();
}
