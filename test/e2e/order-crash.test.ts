// The real daemon killed with SIGKILL in the middle of a burst of place_order requests: every order it
// acknowledged is there after a restart, unchanged or further along, with its deals and its journaled events,
// and an Idempotency-Key retry after the restart returns the same order instead of placing a second one.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { canReach } from '../../src/domain/order-states.js';
import { isFinalStatus, type OrderStatus, type Trade } from '../../src/domain/orders.js';
import { builtCli, simulatorEnv } from '../helpers/daemon.js';
import { freePort } from '../helpers/net.js';

/** Requests the burst would send if nothing stopped it; the kill comes long before the end. */
const BURST = 600;
const CONCURRENCY = 24;
/** The daemon is killed once this many place_order requests were answered 200, with others in flight. */
const ACKNOWLEDGED_BEFORE_KILL = 120;
const START_TIMEOUT_MS = 15_000;

type Json = Record<string, unknown>;

interface Daemon {
  child: ChildProcess;
  exited: Promise<void>;
  output: () => string;
}

interface Sent {
  index: number;
  key: string;
  body: Json;
  /** The Trade of a 200 answer; undefined while in flight or when the request died with the daemon. */
  trade?: Trade;
  error?: string;
}

const homes: string[] = [];
const daemons: ChildProcess[] = [];
after(() => {
  for (const child of daemons) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
after(() => agent.destroy());

function call(port: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: payload
          ? { 'content-type': 'application/json', 'content-length': payload.length, ...headers }
          : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          } catch {
            reject(new Error(`${method} ${path}: HTTP ${res.statusCode} with a body that is not JSON: ${text}`));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function ok<T>(port: number, method: string, path: string, body?: unknown, headers?: Record<string, string>) {
  const response = await call(port, method, path, body, headers);
  assert.equal(response.status, 200, `${method} ${path}: ${JSON.stringify(response.body)}`);
  return response.body as T;
}

/** `sjgate server start --foreground` (built), as its own process on `home` and `port`. */
async function startDaemon(home: string, port: number): Promise<Daemon> {
  const env = simulatorEnv(home, port);
  const child = spawn(process.execPath, [builtCli(), 'server', 'start', '--foreground'], {
    cwd: home,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  daemons.push(child);
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      assert.fail(`the daemon exited while starting (${child.exitCode ?? child.signalCode}):\n${output}`);
    }
    const health = await call(port, 'GET', '/api/v1/health').catch(() => null);
    if (health?.status === 200 && (health.body as Json).status === 'healthy') break;
    if (Date.now() > deadline) assert.fail(`the daemon was not healthy after ${START_TIMEOUT_MS} ms:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, exited, output: () => output };
}

const round2 = (price: number) => Math.round(price * 100) / 100;

/** Three kinds of order, in turn: a 2884 buy that fills, a 2884 buy that rests, a TXFR1 MKT IOC that fills. */
async function orderBodies(port: number): Promise<Json[]> {
  const [snapshot] = await ok<Array<{ buy_price: number; sell_price: number }>>(
    port,
    'POST',
    '/api/v1/data/snapshots',
    {
      contracts: [{ code: '2884' }],
    },
  );
  const info = await ok<{ limit_up: number; limit_down: number }>(port, 'GET', '/api/v1/data/contracts/2884/info');
  assert.ok(snapshot && snapshot.sell_price > snapshot.buy_price, JSON.stringify(snapshot));
  // 2884 trades between NT$10 and 50, on a 0.05 grid.
  // A buy at limit-up takes the best ask at once; one a tick band below the bid waits in the book.
  const marketable = info.limit_up;
  const resting = round2(Math.max(snapshot.buy_price - 1, info.limit_down));
  assert.ok(resting < snapshot.buy_price, `no room below the bid ${snapshot.buy_price} to rest a buy`);
  const stock = (price: number, tag: string) => ({
    contract: { code: '2884' },
    stock_order: { action: 'Buy', price, quantity: 1, price_type: 'LMT', order_type: 'ROD', custom_field: tag },
  });
  return Array.from({ length: BURST }, (_, i) => {
    // custom_field (at most 6 letters or digits) names the request each stored order came from.
    const tag = `c${i.toString(36)}`;
    if (i % 3 === 0) return stock(marketable, tag);
    if (i % 3 === 1) return stock(resting, tag);
    const action = Math.floor(i / 3) % 2 === 0 ? 'Buy' : 'Sell';
    return {
      contract: { code: 'TXFR1' },
      futures_order: { action, price: 0, quantity: 1, price_type: 'MKT', order_type: 'IOC', custom_field: tag },
    };
  });
}

/**
 * Sends the bodies with CONCURRENCY requests in flight and SIGKILLs the daemon once `killAfter` were
 * acknowledged; returns what was sent and the number of requests in flight at the kill.
 */
async function burstUntilKilled(port: number, daemon: Daemon, bodies: Json[], killAfter: number) {
  const sent: Sent[] = [];
  let next = 0;
  let acknowledged = 0;
  let inFlight = 0;
  let inFlightAtKill = -1;
  let killScheduled = false;
  const pid = daemon.child.pid!;
  const worker = async () => {
    while (inFlightAtKill < 0 && next < bodies.length) {
      const entry: Sent = { index: next, key: `crash-${next}`, body: bodies[next]! };
      next++;
      sent.push(entry);
      inFlight++;
      try {
        const response = await call(port, 'POST', '/api/v1/order/place_order', entry.body, {
          'idempotency-key': entry.key,
        });
        assert.equal(response.status, 200, JSON.stringify(response.body));
        entry.trade = response.body as Trade;
        acknowledged++;
        if (acknowledged >= killAfter && !killScheduled) {
          killScheduled = true;
          // A random moment within the next 2 ms, so the kill lands anywhere in the daemon's work on an order
          // (parsing, matching, inside the journal's commit, writing the answer), not always at the same point.
          const at = performance.now() + Math.random() * 2;
          const kill = () => {
            if (performance.now() < at) return void setImmediate(kill);
            inFlightAtKill = inFlight;
            process.kill(pid, 'SIGKILL');
          };
          kill();
        }
      } catch (error) {
        if (inFlightAtKill < 0) throw error;
        entry.error = (error as Error).message;
      } finally {
        inFlight--;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await daemon.exited;
  assert.equal(daemon.child.signalCode, 'SIGKILL', 'the burst ended before the daemon was killed');
  return { sent, inFlightAtKill };
}

interface JournalSnapshot {
  orders: Array<{ id: string; status: string; record: string }>;
  deals: Array<{ order_id: string; seq: number; price: number; quantity: number }>;
  events: Array<{ seq: number; kind: string; payload: string }>;
  lastSeq: number;
  integrity: string;
}

/** What the dead daemon left in sjgate.db, read without writing. */
function readJournal(home: string): JournalSnapshot {
  const db = new Database(join(home, 'sjgate.db'), { readonly: true, fileMustExist: true });
  try {
    return {
      orders: db.prepare('SELECT id, status, record FROM orders ORDER BY rowid').all() as JournalSnapshot['orders'],
      deals: db
        .prepare('SELECT order_id, seq, price, quantity FROM deals ORDER BY rowid')
        .all() as JournalSnapshot['deals'],
      events: db.prepare('SELECT seq, kind, payload FROM events ORDER BY seq').all() as JournalSnapshot['events'],
      lastSeq: (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'").pluck().get() as number) ?? 0,
      integrity: db.pragma('integrity_check', { simple: true }) as string,
    };
  } finally {
    db.close();
  }
}

/** The order id an event is about: order reports carry order.id, deal reports trade_id. */
function eventOrderId(payload: Json): { orderId: string; opType?: string; dealSeq?: string } {
  const body = Object.values(payload.data as Json)[0] as Json;
  if ('trade_id' in body) return { orderId: body.trade_id as string, dealSeq: body.exchange_seq as string };
  const order = body.order as Json;
  return { orderId: order.id as string, opType: (body.operation as Json).op_type as string };
}

const atLeastAsFar = (then: OrderStatus, now: OrderStatus) => then === now || canReach(then, now);

test('orders acknowledged before a SIGKILL of the daemon survive a restart, whole and exactly once', {
  timeout: 60_000,
}, async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'sjgate-order-crash-'));
  homes.push(home);
  const port = await freePort();
  const first = await startDaemon(home, port);
  const bodies = await orderBodies(port);

  const { sent, inFlightAtKill } = await burstUntilKilled(port, first, bodies, ACKNOWLEDGED_BEFORE_KILL);
  const acked = sent.filter((entry) => entry.trade !== undefined);
  const unanswered = sent.filter((entry) => entry.trade === undefined);
  assert.ok(acked.length >= ACKNOWLEDGED_BEFORE_KILL);
  assert.ok(inFlightAtKill > 0, 'the kill must come while requests are in flight');
  assert.ok(unanswered.length > 0, 'some requests must have died with the daemon');
  // The burst did real work: stock fills, resting stock orders, futures fills. (A resting buy might fill if the
  // market fell a tick band meanwhile; a futures order might find the margin taken by the ones just before it.)
  const statuses = (kind: number) => acked.filter((e) => e.index % 3 === kind).map((e) => e.trade!.status.status);
  const expect = (kind: number, usual: OrderStatus, allowed: OrderStatus[]) => {
    const seen = statuses(kind);
    assert.ok(seen.includes(usual) && seen.every((s) => allowed.includes(s)), `kind ${kind}: ${seen.join(' ')}`);
  };
  expect(0, 'Filled', ['Filled']);
  expect(1, 'Submitted', ['Submitted', 'Filled']);
  expect(2, 'Filled', ['Filled', 'Failed']);

  // ---- the journal as the dead daemon left it ----
  const journal = readJournal(home);
  assert.equal(journal.integrity, 'ok');
  const storedIds = new Set(journal.orders.map((order) => order.id));
  assert.deepEqual(
    acked.map((e) => e.trade!.order.id).filter((id) => !storedIds.has(id)),
    [],
    'acknowledged orders missing from the journal after the kill',
  );
  // Event seqs are 1..n without a gap, and the sequence never got ahead of what was stored.
  assert.deepEqual(
    journal.events.map((event) => event.seq),
    journal.events.map((_, i) => i + 1),
  );
  assert.equal(journal.lastSeq, journal.events.length);
  const newEvents = new Map<string, number>();
  const dealEvents = new Map<string, string[]>();
  for (const event of journal.events) {
    const payload = JSON.parse(event.payload) as Json;
    assert.equal(payload.state, event.kind);
    const { orderId, opType, dealSeq } = eventOrderId(payload);
    assert.ok(storedIds.has(orderId), `event ${event.seq} is about an order that is not stored: ${orderId}`);
    if (opType === 'New') newEvents.set(orderId, (newEvents.get(orderId) ?? 0) + 1);
    if (dealSeq !== undefined) dealEvents.set(orderId, [...(dealEvents.get(orderId) ?? []), dealSeq]);
  }
  for (const order of journal.orders) {
    assert.equal(newEvents.get(order.id), 1, `order ${order.id} needs exactly one New event`);
    const deals = journal.deals.filter((deal) => deal.order_id === order.id);
    assert.deepEqual(
      dealEvents.get(order.id) ?? [],
      deals.map((deal) => String(deal.seq).padStart(6, '0')),
      `deal events of ${order.id}`,
    );
  }
  for (const { trade } of acked) {
    const stored = journal.deals.filter((deal) => deal.order_id === trade!.order.id);
    assert.deepEqual(
      stored.slice(0, trade!.status.deals.length).map(({ seq, price, quantity }) => ({ seq, price, quantity })),
      trade!.status.deals.map((deal) => ({ seq: Number(deal.seq), price: deal.price, quantity: deal.quantity })),
      `journaled deals of ${trade!.order.id}`,
    );
  }
  // At most the requests in flight at the kill were stored without being answered.
  assert.ok(journal.orders.length - acked.length <= inFlightAtKill, `${journal.orders.length} stored`);
  t.diagnostic(
    `${acked.length} acknowledged, ${inFlightAtKill} in flight at the kill, ${journal.orders.length} stored, ` +
      `${journal.events.length} events`,
  );

  // ---- the restarted daemon on the same home ----
  await startDaemon(home, port);
  const trades = await ok<Trade[]>(port, 'POST', '/api/v1/order/trades', {});
  const byId = new Map(trades.map((trade) => [trade.order.id, trade]));
  assert.equal(byId.size, trades.length, 'duplicate order ids in the trades');
  assert.deepEqual(
    trades.map((trade) => trade.order.id).sort(),
    journal.orders.map((order) => order.id).sort(),
    'the restarted daemon lists exactly the orders the journal held',
  );
  for (const { trade: then } of acked) {
    const now = byId.get(then!.order.id);
    assert.ok(now, `acknowledged order ${then!.order.id} is missing after the restart`);
    assert.deepEqual(now.contract, then!.contract);
    assert.deepEqual(now.order, then!.order);
    if (isFinalStatus(then!.status.status)) {
      assert.deepEqual(now.status, then!.status, `a final order (${then!.status.status}) must not change`);
    } else {
      assert.ok(atLeastAsFar(then!.status.status, now.status.status), `${then!.status.status} -> ${now.status.status}`);
      assert.deepEqual(now.status.deals.slice(0, then!.status.deals.length), then!.status.deals);
      assert.ok(now.status.deal_quantity >= then!.status.deal_quantity);
    }
  }

  // ---- retries with the same Idempotency-Key: the same order, never a second one ----
  for (const entry of sent) {
    const retry = await ok<Trade>(port, 'POST', '/api/v1/order/place_order', entry.body, {
      'idempotency-key': entry.key,
    });
    // An unanswered request may or may not have been stored: its retry finds that order or places it now.
    assert.equal(retry.order.custom_field, tagOf(entry), `retry of ${entry.key}`);
    if (entry.trade) {
      assert.equal(retry.order.id, entry.trade.order.id, `retry of ${entry.key}`);
      assert.deepEqual(retry.order, entry.trade.order);
      assert.ok(atLeastAsFar(entry.trade.status.status, retry.status.status));
    }
  }
  const afterRetries = await ok<Trade[]>(port, 'POST', '/api/v1/order/trades', {});
  const tags = afterRetries.map((trade) => trade.order.custom_field).sort();
  assert.deepEqual(tags, sent.map(tagOf).sort(), 'one order per request, whether it was answered or not');
});

function tagOf(entry: Sent): string {
  const order = (entry.body.stock_order ?? entry.body.futures_order) as Json;
  return order.custom_field as string;
}
