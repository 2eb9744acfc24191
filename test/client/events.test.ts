// The client against a real gateway on a socket (fetch, as a user's program or the dashboard has it): typed answers,
// the error envelope as an ApiError, and an event stream that survives a dropped connection by reconnecting with
// Last-Event-ID, so the order reports placed while it was down arrive once each, in order.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiError, SjgateClient, type StreamEvent } from '../../src/client/index.js';
import { testApp } from '../helpers/app.js';

type Gateway = Awaited<ReturnType<typeof testApp>>;

const ORDER = { action: 'Buy', quantity: 1, price_type: 'LMT', order_type: 'ROD' } as const;
const orderIdOf = (event: StreamEvent) => JSON.parse(event.data).data.StockOrder.order.id as string;

describe('the client against a gateway', () => {
  let gateway: Gateway;
  let client: SjgateClient;
  const seenHeaders: Headers[] = [];
  before(async () => {
    gateway = await testApp();
    await gateway.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = gateway.app.server.address() as { port: number };
    client = new SjgateClient({
      baseUrl: `http://127.0.0.1:${port}`,
      headers: { 'X-Shioaji-Activity': 'test' },
      fetch: (input, init) => {
        seenHeaders.push(new Headers(init?.headers));
        return fetch(input, init);
      },
    });
  });
  after(() => gateway?.app.close());

  const place = (price: number) =>
    client.orders.placeOrder({ contract: { code: '2330' }, stock_order: { ...ORDER, price } });

  test('answers are the wire types; an error answer is an ApiError with the envelope', async () => {
    const contract = await client.contracts.get('2330');
    assert.equal(contract.code, '2330');
    assert.equal(contract.security_type, 'STK');
    const info = await client.server.info();
    assert.equal(info.simulation, true);
    assert.equal(seenHeaders.at(-1)?.get('x-shioaji-activity'), 'test');
    await assert.rejects(client.contracts.get('NOPE'), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 404);
      assert.equal(error.kind, 'CONTRACT_NOT_FOUND');
      assert.match(error.message, /NOPE/);
      assert.equal(error.body.code, 404);
      return true;
    });
    await assert.rejects(
      // @ts-expect-error: the request type holds a price to a number; the server refuses what gets past it
      client.orders.placeOrder({ contract: { code: '2330' }, stock_order: { ...ORDER, price: 'cheap' } }),
      (error: unknown) => error instanceof ApiError && error.status === 422 && error.body.details !== null,
    );
  });

  test('the trade history a page at a time: each trade once, the cursor absent after the last page', async () => {
    const placed = new Set([(await place(502)).order.id, (await place(503)).order.id, (await place(504)).order.id]);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.orders.tradesPage({ limit: 2, ...(cursor === undefined ? {} : { cursor }) });
      assert.ok(page.trades.length <= 2);
      seen.push(...page.trades.map((trade) => trade.order.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined && pages < 50);
    assert.equal(new Set(seen).size, seen.length, 'no trade twice');
    for (const id of placed) assert.ok(seen.includes(id), `${id} is in a page`);
    assert.ok(pages >= 2, `${pages} pages of 2`);
    await assert.rejects(client.orders.tradesPage({ cursor: 'nonsense' }), (error: unknown) => {
      return error instanceof ApiError && error.status === 422;
    });
  });

  test('a dropped stream reconnects with Last-Event-ID and gets what it missed once each', async () => {
    const stop = new AbortController();
    const notices: string[] = [];
    const missed: string[] = [];
    let first: Promise<string> | undefined;
    const stream = client.events.family('order_event', {
      signal: stop.signal,
      onOpen: (resumed, lastEventId) => {
        notices.push(resumed ? `resumed after ${lastEventId}` : 'open');
        // The stream is opened by the first read: the first order goes in once it is there.
        first ??= place(501).then((trade) => trade.order.id);
      },
      onDrop: (reason, delayMs) => notices.push(`dropped (${reason.message}), again in ${delayMs} ms`),
      // The pause before the reconnect: orders placed now are missed by the stream and must be replayed.
      sleep: async () => {
        for (const price of [502, 503, 504]) missed.push((await place(price)).order.id);
      },
    });
    const received: StreamEvent[] = [];
    for await (const event of stream) {
      received.push(event);
      if (received.length === 1) {
        assert.equal(orderIdOf(event), await first);
        // Every connection of the server closes: the stream breaks as a network would break it.
        gateway.app.server.closeAllConnections();
      }
      if (received.length === 4) {
        const live = await place(505);
        missed.push(live.order.id);
      }
      if (received.length === 5) stop.abort();
    }
    assert.deepEqual(received.map(orderIdOf), [await first, ...missed]);
    assert.equal(new Set(received.map((event) => event.id)).size, 5, 'each event once');
    assert.equal(notices[0], 'open');
    assert.match(notices[1] ?? '', /^dropped \(.+\), again in 1000 ms$/);
    assert.equal(notices[2], `resumed after ${received[0]?.id}`);
    const streamRequests = seenHeaders.filter((headers) => headers.get('accept') === 'text/event-stream');
    assert.deepEqual(
      streamRequests.map((headers) => headers.get('last-event-id')),
      [null, received[0]?.id],
      'the reconnect sends the id of the last event seen',
    );
    assert.equal(stream.lastEventId, received[4]?.id);
  });

  test('a Last-Event-ID the gateway does not know starts again from now; an abort ends it quietly', async () => {
    const stop = new AbortController();
    const drops: unknown[] = [];
    const stream = client.events.family('order_event', {
      signal: stop.signal,
      lastEventId: 'yesterday',
      onDrop: (reason) => drops.push(reason),
      sleep: async () => undefined,
      onOpen: () => void place(510),
    });
    const events: StreamEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      stop.abort();
    }
    assert.equal(events.length, 1);
    assert.equal(drops.length, 1);
    assert.ok(drops[0] instanceof ApiError && drops[0].status === 400, String(drops[0]));
    assert.equal(stream.lastEventId, events[0]?.id);
  });

  test('an error answer the client must fix ends the stream with it', async () => {
    const refused: ApiError[] = [];
    const client401 = new SjgateClient({
      transport: async (request) => {
        assert.equal(request.headers.authorization, 'Bearer key:secret');
        return unauthorizedAnswer();
      },
      token: 'key:secret',
      onError: (error) => refused.push(error),
    });
    await assert.rejects(async () => {
      for await (const _ of client401.events.data({ sleep: async () => undefined })) assert.fail('no event');
    }, /send the keys/);
    assert.equal(refused[0]?.kind, 'UNAUTHORIZED');
    await assert.rejects(client401.server.info(), { name: 'ApiError', status: 401, message: 'send the keys' });
    assert.equal(refused.length, 2, 'every ApiError is shown to onError');
  });
});

function unauthorizedAnswer() {
  return {
    status: 401,
    contentType: 'application/json',
    text: async () => JSON.stringify({ code: 401, error: 'UNAUTHORIZED', message: 'send the keys', details: null }),
    chunks: async function* () {},
  };
}
