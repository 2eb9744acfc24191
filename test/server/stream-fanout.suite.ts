// The hub's writes per turn: the events published in one turn of the event loop reach each client in one write, the
// same bytes for every client of a stream; a client that filters gets its own; a big turn is cut so that a client's
// cap still bounds what it holds.

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import type { SseConnection } from '../../src/server/sse/connection.js';
import type { DedicatedStream } from '../../src/server/sse/families.js';
import { MAX_BATCH_BYTES } from '../../src/server/sse/fanout.js';
import { StreamHub } from '../../src/server/sse/hub.js';
import { connectSse } from '../helpers/sse.js';

const apps: FastifyInstance[] = [];
after(async () => {
  for (const app of apps) await app.close();
});

const tick = (n: number) => ({ code: '2330', n });

/** A hub on a real server whose connections record every write (the bytes and how many messages they carry). */
async function harness() {
  const hub = new StreamHub({ orderEventsAfter: () => [], delivers: () => true, lastOrderSeq: 0 });
  const writes: { connection: SseConnection; bytes: Buffer | string; count: number }[] = [];
  hub.observer = {
    opened(connection) {
      const write = connection.write.bind(connection);
      connection.write = (bytes, count = 1) => {
        writes.push({ connection, bytes, count });
        return write(bytes, count);
      };
    },
    closed() {},
  };
  const app = Fastify({ forceCloseConnections: true });
  app.get<{ Params: { stream: DedicatedStream | 'data' } }>('/s/:stream', (request, reply) => {
    const query = request.query as { odd?: string; before?: string };
    // ?before=1 publishes an event in the same turn as the client attaches, before it does.
    if (query.before === '1') hub.publish('tick_stk', tick(0));
    const accept = query.odd === '1' ? (_: unknown, data: unknown) => (data as { n: number }).n % 2 === 1 : undefined;
    hub.attach(reply, request.params.stream, null, accept);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  apps.push(app);
  const { port } = app.server.address() as { port: number };
  return { hub, writes, url: (path: string) => `http://127.0.0.1:${port}/s/${path}` };
}

describe('stream fan-out', () => {
  it('writes what one turn published to each client at once, the same bytes for every client of a stream', async () => {
    const h = await harness();
    const first = await connectSse(h.url('data'));
    const second = await connectSse(h.url('data'));
    const ticks = await connectSse(h.url('tick_stk'));
    for (let n = 1; n <= 3; n++) h.hub.publish('tick_stk', tick(n));
    h.hub.publish('bidask_stk', { code: '2330' });
    const [one, two, own] = await Promise.all([first.waitFor(4), second.waitFor(4), ticks.waitFor(3)]);
    assert.deepEqual(
      one.map((e) => e.event),
      ['tick_stk', 'tick_stk', 'tick_stk', 'bidask_stk'],
    );
    assert.deepEqual(
      two.map((e) => e.id),
      one.map((e) => e.id),
    );
    assert.deepEqual(
      own.map((e) => JSON.parse(e.data).n),
      [1, 2, 3],
      'a dedicated stream gets its family only',
    );
    const live = h.writes.filter((w) => w.count > 1 || String(w.bytes).includes('2330'));
    assert.equal(live.length, 3, 'one write per client for the whole turn');
    const [a, b, c] = live;
    assert.equal(a!.count, 4);
    assert.equal(a!.bytes, b!.bytes, 'the clients of one stream share one buffer');
    assert.equal(c!.count, 3);
    for (const client of [first, second, ticks]) client.close();
  });

  it('gives a client that filters its events only those it takes, in order', async () => {
    const h = await harness();
    const odd = await connectSse(h.url('data?odd=1'));
    const all = await connectSse(h.url('data'));
    for (let n = 1; n <= 6; n++) h.hub.publish('tick_stk', tick(n));
    await all.waitFor(6);
    const got = await odd.waitFor(3);
    assert.deepEqual(
      got.map((e) => JSON.parse(e.data).n),
      [1, 3, 5],
    );
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(odd.events.length, 3);
    odd.close();
    all.close();
  });

  it('writes a turn that publishes more than the batch limit in parts, each at most the limit and one event', async () => {
    const h = await harness();
    const client = await connectSse(h.url('data'));
    const filler = 'x'.repeat(10_000);
    for (let n = 1; n <= 40; n++) h.hub.publish('tick_stk', { ...tick(n), filler });
    const got = await client.waitFor(40);
    assert.deepEqual(
      got.map((e) => JSON.parse(e.data).n),
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    const live = h.writes.filter((w) => w.count >= 1 && String(w.bytes).includes('filler'));
    assert.ok(live.length >= 6, `${live.length} writes for 400 KB`);
    for (const write of live) assert.ok(Buffer.byteLength(write.bytes) <= MAX_BATCH_BYTES + 10_100);
    client.close();
  });

  it('does not send a client that goes live what was published before it came, even in the same turn', async () => {
    const h = await harness();
    const early = await connectSse(h.url('data'));
    const late = await connectSse(h.url('data?before=1'));
    h.hub.publish('tick_stk', tick(2));
    await early.waitFor(2);
    await late.waitFor(1);
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(
      early.events.map((e) => JSON.parse(e.data).n),
      [0, 2],
    );
    assert.deepEqual(
      late.events.map((e) => JSON.parse(e.data).n),
      [2],
    );
    early.close();
    late.close();
  });
});
