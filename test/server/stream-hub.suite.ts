// The SSE hub over real sockets: ids, families, replay after a reconnect (ring and journal), gap notices, a
// stalled client dropped while the others keep up, and replays paced by the client and by the memory budget.

import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DedicatedStream } from '../../src/server/sse/families.js';
import { type HubOptions, type JournaledEvent, parseEventId, StreamHub } from '../../src/server/sse/hub.js';
import { connectNeverReading, connectSse } from '../helpers/sse.js';

interface Harness {
  hub: StreamHub;
  journal: JournaledEvent[];
  subscribed: Set<string>;
  url: (stream: DedicatedStream | 'data') => string;
  port: number;
  app: FastifyInstance;
  /** Bytes the server's sockets hold unsent: in all, and the most one holds. */
  queued: () => { total: number; largest: number };
}

const apps: FastifyInstance[] = [];
after(async () => {
  for (const app of apps) await app.close();
});

async function harness(options: Partial<HubOptions> = {}): Promise<Harness> {
  const journal: JournaledEvent[] = [];
  const subscribed = new Set(['9A95-1234567']);
  const hub = new StreamHub({
    orderEventsAfter: (seq, limit) => journal.filter((e) => e.seq > seq).slice(0, limit),
    delivers: (key) => subscribed.has(key),
    lastOrderSeq: 0,
    ...options,
  });
  const app = Fastify({ forceCloseConnections: true });
  app.get<{ Params: { stream: DedicatedStream | 'data' } }>('/s/:stream', (request, reply) => {
    const header = request.headers['last-event-id'];
    hub.attach(reply, request.params.stream, parseEventId(typeof header === 'string' ? header : undefined));
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  apps.push(app);
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const queued = () => {
    const unsent = [...sockets].map((socket) => socket.writableLength);
    return { total: unsent.reduce((sum, n) => sum + n, 0), largest: Math.max(0, ...unsent) };
  };
  const { port } = app.server.address() as { port: number };
  return { hub, journal, subscribed, app, port, queued, url: (stream) => `http://127.0.0.1:${port}/s/${stream}` };
}

/** Journals `count` reports of `bytes` each without publishing them: what a client that reconnects must catch up. */
function journalOf(h: Harness, count: number, bytes: number) {
  const filler = 'x'.repeat(bytes);
  for (let n = 1; n <= count; n++) h.journal.push({ seq: n, accountKey: '9A95-1234567', event: { n, filler } });
}

/** Polls until `done` holds, every 20 ms for at most `ms`; calls `each` at every look. */
async function until(done: () => boolean, ms: number, each: () => void = () => {}) {
  for (let waited = 0; !done() && waited < ms; waited += 20) {
    each();
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Journals and publishes an order event, as the broker does after its commit. */
function report(h: Harness, accountKey = '9A95-1234567') {
  const seq = (h.journal.at(-1)?.seq ?? 0) + 1;
  const entry = { seq, accountKey, event: { state: 'StockOrder', data: { StockOrder: { n: seq } } } };
  h.journal.push(entry);
  h.hub.publishOrderEvent(entry);
  return seq;
}

const tick = (n: number) => ({ code: '2330', close: `${600 + n}`, volume: n });
const idsAreIncreasing = (ids: string[]) =>
  ids.every((id, i) => i === 0 || Number(id.split('-')[1]) > Number(ids[i - 1]!.split('-')[1]));

describe('stream hub', () => {
  it('sends each family to its streams with increasing ids; the aggregate gets them all', async () => {
    const h = await harness();
    const ticks = await connectSse(h.url('tick_stk'));
    const all = await connectSse(h.url('data'));
    h.hub.publish('tick_stk', tick(1));
    h.hub.publish('bidask_stk', { code: '2330' });
    h.hub.publish('session', { resp_code: 200, event_code: 16, info: 'TIC/v1/STK/*/TSE/2330', event: 'x' });
    report(h);
    const seen = await all.waitFor(4);
    assert.deepEqual(
      seen.map((e) => e.event),
      ['tick_stk', 'bidask_stk', 'session', 'order_event'],
    );
    assert.deepEqual(JSON.parse(seen[0]!.data), tick(1));
    assert.ok(idsAreIncreasing(seen.map((e) => e.id!)));
    const dedicated = await ticks.waitFor(2);
    assert.deepEqual(
      dedicated.map((e) => e.event),
      ['tick_stk', 'session'],
      'a dedicated market stream carries its family and the session acks, nothing else',
    );
    assert.equal(dedicated[0]!.id, seen[0]!.id, 'one message, one id, whatever the stream');
    ticks.close();
    all.close();
  });

  it('delivers order events only of accounts with subscribe_trade, and says which seq in the id', async () => {
    const h = await harness();
    const orders = await connectSse(h.url('order_event'));
    report(h, '9A95-7654321');
    const seq = report(h);
    const [event] = await orders.waitFor(1);
    assert.equal(event!.id!.split('-')[0], String(seq));
    assert.deepEqual(JSON.parse(event!.data), h.journal[1]!.event);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(orders.events.length, 1, "the unsubscribed account's report is not delivered");
    orders.close();
  });

  it('replays what a client missed from the buffer when it reconnects with Last-Event-ID', async () => {
    const h = await harness();
    const first = await connectSse(h.url('data'));
    for (let n = 1; n <= 3; n++) h.hub.publish('tick_stk', tick(n));
    const got = await first.waitFor(3);
    first.close();
    await first.closed;
    for (let n = 4; n <= 6; n++) h.hub.publish('tick_stk', tick(n));
    report(h);
    const again = await connectSse(h.url('data'), { 'last-event-id': got[2]!.id! });
    const missed = await again.waitFor(4);
    assert.deepEqual(
      missed.map((e) => JSON.parse(e.data).volume ?? 'order'),
      [4, 5, 6, 'order'],
    );
    h.hub.publish('tick_stk', tick(7));
    await again.waitFor(5);
    assert.equal(again.events.length, 5, 'nothing twice');
    again.close();
  });

  it('says how many of a family fell out of the buffer, then replays the rest', async () => {
    const h = await harness({ ring: { maxFrames: 4, maxBytes: 1 << 20 } });
    const first = await connectSse(h.url('tick_stk'));
    h.hub.publish('tick_stk', tick(0));
    const [last] = await first.waitFor(1);
    first.close();
    await first.closed;
    for (let n = 1; n <= 10; n++) h.hub.publish(n % 2 ? 'tick_stk' : 'bidask_stk', tick(n));
    const again = await connectSse(h.url('tick_stk'), { 'last-event-id': last!.id! });
    const events = await again.waitFor(3);
    assert.equal(events[0]!.event, 'tick_stk_gap');
    assert.deepEqual(JSON.parse(events[0]!.data), { type: 'lagged', dropped: 3 }, 'ticks 1, 3, 5 are gone');
    assert.deepEqual(
      events.slice(1).map((e) => JSON.parse(e.data).volume),
      [7, 9],
    );
    again.close();
  });

  it('replays every missed order event exactly once from the journal when the buffer lost them', async () => {
    const h = await harness({ ring: { maxFrames: 3, maxBytes: 1 << 20 } });
    const first = await connectSse(h.url('order_event'));
    report(h);
    report(h);
    const got = await first.waitFor(2);
    first.close();
    await first.closed;
    for (let n = 0; n < 20; n++) {
      report(h);
      h.hub.publish('tick_stk', tick(n));
    }
    const again = await connectSse(h.url('order_event'), { 'last-event-id': got[1]!.id! });
    const replayed = await again.waitFor(20);
    assert.deepEqual(
      replayed.map((e) => JSON.parse(e.data).data.StockOrder.n),
      Array.from({ length: 20 }, (_, i) => i + 3),
    );
    // Resuming from the middle of a replay loses nothing and repeats nothing.
    again.close();
    await again.closed;
    report(h);
    const third = await connectSse(h.url('order_event'), { 'last-event-id': replayed[9]!.id! });
    const rest = await third.waitFor(11);
    assert.deepEqual(
      rest.map((e) => JSON.parse(e.data).data.StockOrder.n),
      Array.from({ length: 11 }, (_, i) => i + 13),
    );
    report(h);
    await third.waitFor(12);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(third.events.length, 12);
    third.close();
  });

  it('replays order events from the journal for an id of an earlier run, and notes the market data lost', async () => {
    const h = await harness({ startedAt: Date.now(), lastOrderSeq: 3 });
    for (let n = 0; n < 3; n++) h.journal.push({ seq: n + 1, accountKey: '9A95-1234567', event: { n } });
    const earlierRun = `1-${(Date.now() - 60_000) * 1000}`;
    const client = await connectSse(h.url('data'), { 'last-event-id': earlierRun });
    const events = await client.waitFor(3, (e) => e.event === 'order_event' || e.event === 'tick_stk_gap');
    assert.deepEqual(
      events.filter((e) => e.event === 'order_event').map((e) => JSON.parse(e.data)),
      [{ n: 1 }, { n: 2 }],
    );
    const gap = client.events.find((e) => e.event === 'tick_stk_gap');
    assert.deepEqual(JSON.parse(gap!.data), { type: 'lagged', dropped: null });
    client.close();
  });

  it('drops a stalled client while the others receive everything, and counts clients up and down', {
    timeout: 30_000,
  }, async () => {
    const h = await harness({ maxBufferedBytes: 64 * 1024 });
    const stalled = await connectSse(h.url('data'));
    const reader = await connectSse(h.url('data'));
    const other = await connectSse(h.url('tick_stk'));
    assert.deepEqual(
      { data: h.hub.status().streams.data, tick: h.hub.status().streams.tick_stk },
      { data: 2, tick: 1 },
    );
    stalled.stall();
    const big = { code: '2330', filler: 'x'.repeat(16 * 1024) };
    const total = 800;
    for (let n = 0; n < total; n++) {
      h.hub.publish('tick_stk', { ...big, n });
      if (n % 4 === 0) await new Promise((r) => setImmediate(r));
    }
    await reader.waitFor(total, undefined, 20_000);
    await other.waitFor(total, undefined, 20_000);
    // Waits as long as the test's time limit allows: how soon the hub sees the stall depends on the machine's load.
    while (h.hub.droppedClients === 0) await new Promise((r) => setTimeout(r, 20));
    assert.equal(h.hub.droppedClients, 1, 'the stalled client is dropped');
    stalled.close();
    assert.equal(h.hub.status().streams.data, 1, 'the stalled client is gone');
    reader.close();
    other.close();
    await reader.closed;
    await other.closed;
    // The count goes down once the server sees the sockets close, which takes longer on a loaded machine.
    while (h.hub.status().active_connections > 0) await new Promise((r) => setTimeout(r, 10));
  });

  it('replays a journal to a client that never reads only up to its cap, and drops it when it stays there', async () => {
    // 6.4 MB: more than the kernel takes for a loopback socket (about 4 MB), so the rest must wait in the hub.
    const h = await harness({ maxBufferedBytes: 64 * 1024, lastOrderSeq: 400 });
    journalOf(h, 400, 16 * 1024);
    const stalled = await connectNeverReading(h.port, '/s/order_event', '0-0');
    let largest = 0;
    await until(
      () => h.hub.droppedClients > 0,
      10_000,
      () => {
        largest = Math.max(largest, h.queued().largest);
      },
    );
    assert.equal(h.hub.droppedClients, 1, 'dropped after its grace over the cap');
    assert.ok(largest <= 64 * 1024 + 17 * 1024, `it held ${largest} bytes: its cap and one report`);
    assert.equal(h.hub.status().replays.running, 0);
    stalled.destroy();
  });

  it('a replay meets the live reports and ticks published meanwhile: each once, in order', async () => {
    const h = await harness({
      maxBufferedBytes: 16 * 1024,
      ring: { maxFrames: 50, maxBytes: 1 << 20 },
      lastOrderSeq: 0,
    });
    for (let n = 0; n < 1500; n++) report(h);
    const client = await connectSse(h.url('data'), { 'last-event-id': '0-0' });
    for (let n = 1; n <= 300; n++) {
      if (n % 3 === 0) report(h);
      h.hub.publish('tick_stk', tick(n));
      if (n % 10 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    await until(() => h.hub.status().replays.running === 0, 10_000);
    h.hub.publish('tick_stk', tick(301));
    report(h);
    await client.waitFor(1, (e) => e.event === 'tick_stk' && JSON.parse(e.data).volume === 301, 10_000);
    await client.waitFor(1601, (e) => e.event === 'order_event', 10_000);
    const reports = client.events.filter((e) => e.event === 'order_event');
    assert.deepEqual(
      reports.map((e) => JSON.parse(e.data).data.StockOrder.n),
      Array.from({ length: 1601 }, (_, i) => i + 1),
      'every report once, in journal order',
    );
    const ticks = client.events.filter((e) => e.event === 'tick_stk').map((e) => JSON.parse(e.data).volume);
    assert.deepEqual(
      ticks,
      [...new Set(ticks)].sort((a, b) => a - b),
      'no tick twice, none out of order',
    );
    assert.equal(ticks.at(-1), 301);
    const orderSeqs = client.events.filter((e) => e.id).map((e) => Number(e.id!.split('-')[0]));
    assert.ok(
      orderSeqs.every((seq, i) => i === 0 || seq >= orderSeqs[i - 1]!),
      'ids never point back',
    );
    client.close();
  });

  it('holds a replay back while slow clients hold more than the budget, then finishes it', async () => {
    const h = await harness({ maxBufferedBytes: 64 * 1024, maxQueuedBytes: 160 * 1024, lastOrderSeq: 1000 });
    journalOf(h, 1000, 16 * 1024);
    const reader = await connectSse(h.url('order_event'), { 'last-event-id': '0-0' });
    await reader.waitFor(10);
    // Each fills what the kernel takes (about 4 MB) and then its cap, well before the reader has had its 16 MB.
    const stalled = await Promise.all(
      Array.from({ length: 4 }, () => connectNeverReading(h.port, '/s/order_event', '0-0')),
    );
    let largestTotal = 0;
    await until(
      () => h.hub.droppedClients === 4 && h.hub.status().replays.running === 0,
      20_000,
      () => {
        largestTotal = Math.max(largestTotal, h.queued().total);
      },
    );
    assert.ok(
      h.hub.status().replays.held_back > 0,
      "the reader's replay waited while the clients that never read held the budget",
    );
    assert.equal(h.hub.droppedClients, 4, 'the clients that never read are dropped, soon as the budget is spent');
    // The budget, plus what the last page let through wrote up to its client's cap and one report.
    assert.ok(largestTotal <= 160 * 1024 + 64 * 1024 + 17 * 1024, `${largestTotal} bytes queued`);
    const reports = await reader.waitFor(1000, (e) => e.event === 'order_event', 10_000);
    assert.deepEqual(
      reports.map((e) => JSON.parse(e.data).n),
      Array.from({ length: 1000 }, (_, i) => i + 1),
    );
    reader.close();
    for (const socket of stalled) socket.destroy();
  });

  it('refuses an id it never sent', () => {
    assert.throws(() => parseEventId('abc'), /Last-Event-ID 'abc' is not an id/);
    assert.throws(() => parseEventId('1-2-3'), /not an id/);
    assert.throws(() => parseEventId(`1-${'9'.repeat(60)}`), /not an id/);
    assert.deepEqual(parseEventId('12-1763800000000042'), { orderSeq: 12, seq: 1763800000000042 });
    assert.equal(parseEventId(undefined), null);
  });

  it("keeps in its buffer each frame's own bytes, not a shared 8 KB pool slice per frame", () => {
    const hub = new StreamHub({ orderEventsAfter: () => [], delivers: () => false, lastOrderSeq: 0 });
    // Short-lived buffers made between the frames, as a busy server makes them, share the pool with them otherwise.
    for (let n = 1; n <= 2000; n++) {
      hub.publish('tick_stk', tick(n));
      Buffer.from(`garbage ${n}`.repeat(20));
    }
    const { ring } = hub as unknown as { ring: { after(seq: number): { bytes: Buffer }[] } };
    const frames = ring.after(0);
    assert.equal(frames.length, 2000);
    const own = frames.reduce((sum, frame) => sum + frame.bytes.length, 0);
    const buffers = new Set(frames.map((frame) => frame.bytes.buffer));
    const memory = [...buffers].reduce((sum, buffer) => sum + buffer.byteLength, 0);
    assert.equal(memory, own, `the frames hold ${memory} bytes of memory for ${own} bytes of messages`);
  });
});
