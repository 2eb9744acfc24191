// order/trades pages through the journal's history with limit, cursor and a date range, while the call without them
// keeps the official answer (today's trades); a restart serves the same pages and the same portfolio.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import Database from 'better-sqlite3';
import Type from 'typebox';
import type { StockInfo } from '../../src/domain/contracts.js';
import type { Trade } from '../../src/domain/orders.js';
import { addDays, ManualClock, taipeiInstant } from '../../src/domain/time.js';
import type { TradeJson } from '../../src/gateway/trade-wire.js';
import { buildApp } from '../../src/server/app.js';
import { lazySerializer } from '../../src/server/plugins/serialization.js';
import { TradeSchema } from '../../src/server/schemas/orders.js';
import { tradeJson } from '../../src/server/trade-json.js';
import { assertErrorKind } from '../helpers/errors.js';
import { simGateway } from '../helpers/gateway.js';

const DAYS = ['2026-11-23', '2026-11-24', '2026-11-25'];
const ORDERS_PER_DAY = 4;
const CODES = ['2884', '2330', '2317', '0050'];
/** When the last order is placed: the restart comes back at the same instant, so prices read alike. */
const LAST_PLACED = taipeiInstant(DAYS[2]!, '10:00') + (ORDERS_PER_DAY - 1) * 60_000;

const dir = mkdtempSync(join(tmpdir(), 'sjgate-trade-pages-'));
const journalPath = join(dir, 'sjgate.db');
after(() => rmSync(dir, { recursive: true, force: true }));

async function gatewayApp(at: number, json: TradeJson = tradeJson) {
  const clock = new ManualClock(at);
  const options = { clock, seed: 1, clockMode: 'always-open' as const, apiKey: null, journalPath, tradeJson: json };
  const { gateway, broker } = simGateway(options);
  const app = await buildApp({
    gateway,
    bindHost: '127.0.0.1',
    rateLimits: false,
    identity: { version: 'test', scheme: 'http', protocols: ['HTTP/1.1'], startedAt: 0 },
  });
  await app.ready();
  const post = async (url: string, payload: object) => {
    const response = await app.inject({ method: 'POST', url, payload });
    return {
      status: response.statusCode,
      // biome-ignore lint/suspicious/noExplicitAny: bodies are checked field by field
      body: response.json() as any,
      raw: response.body,
      next: response.headers['x-next-cursor'],
    };
  };
  return { app, clock, broker, gateway, post };
}

const ids = (trades: Trade[]) => trades.map((trade) => trade.order.id);

/** Every page of a paged call, following X-Next-Cursor to the end. */
async function allPages(post: Awaited<ReturnType<typeof gatewayApp>>['post'], body: object) {
  const pages: Trade[][] = [];
  let cursor: string | undefined;
  do {
    const {
      status,
      body: trades,
      next,
    } = await post('/api/v1/order/trades', { ...body, ...(cursor ? { cursor } : {}) });
    assert.equal(status, 200, JSON.stringify(trades));
    pages.push(trades);
    cursor = next as string | undefined;
  } while (cursor !== undefined && pages.length < 20);
  return pages;
}

describe('order/trades pages through the history', () => {
  let placed: { day: string; id: string }[] = [];
  let served: Awaited<ReturnType<typeof gatewayApp>> | undefined;
  let beforeRestart: { today: Trade[]; pages: Trade[][]; positions: unknown; balance: unknown } | undefined;

  test('three days of orders: the default call lists today only; pages list them all, oldest first', async () => {
    const { app, clock, post, broker } = await gatewayApp(taipeiInstant(DAYS[0]!, '10:00'));
    placed = [];
    for (const day of DAYS) {
      for (let i = 0; i < ORDERS_PER_DAY; i++) {
        clock.set(taipeiInstant(day, '10:00') + i * 60_000);
        const code = CODES[i]!;
        const info = broker.contracts.current().find(code) as StockInfo;
        const order = { action: 'Buy', price: info.limit_up, quantity: 1, price_type: 'LMT', order_type: 'IOC' };
        const { status, body } = await post('/api/v1/order/place_order', { contract: { code }, stock_order: order });
        assert.equal(status, 200);
        placed.push({ day, id: body.order.id });
      }
    }
    const today = await post('/api/v1/order/trades', {});
    assert.deepEqual(
      ids(today.body),
      placed.filter((p) => p.day === DAYS[2]).map((p) => p.id),
    );
    assert.equal(today.next, undefined, 'the official call has no cursor');

    const pages = await allPages(post, { limit: 5 });
    assert.deepEqual(
      pages.map((page) => page.length),
      [5, 5, 2],
    );
    assert.deepEqual(
      ids(pages.flat()),
      placed.map((p) => p.id),
      'no gap and no duplicate',
    );
    const firstOfToday = pages.flat().find((trade) => trade.order.id === today.body[0].order.id);
    assert.deepEqual(firstOfToday, today.body[0], 'a trade reads back from the journal as the venue lists it');

    const secondDay = await post('/api/v1/order/trades', { begin_date: DAYS[1], end_date: DAYS[1] });
    assert.deepEqual(
      ids(secondDay.body),
      placed.filter((p) => p.day === DAYS[1]).map((p) => p.id),
    );
    const fromSecond = await allPages(post, { begin_date: DAYS[1], limit: 3 });
    assert.deepEqual(
      ids(fromSecond.flat()),
      placed.filter((p) => p.day !== DAYS[0]).map((p) => p.id),
    );
    const ofAccount = await post('/api/v1/order/trades', { account_type: 'F', limit: 10 });
    assert.deepEqual(ofAccount.body, [], 'the futures account placed nothing');

    beforeRestart = {
      today: today.body,
      pages,
      positions: (await post('/api/v1/portfolio/position_unit', { account_type: 'S', unit: 'Share' })).body,
      balance: (await post('/api/v1/portfolio/account_balance', {})).body,
    };
    await app.close();
  });

  test('a restart serves the same trades, pages and portfolio', async () => {
    assert.ok(beforeRestart, 'runs after the first test');
    served = await gatewayApp(LAST_PLACED);
    const { post } = served;
    assert.deepEqual((await post('/api/v1/order/trades', {})).body, beforeRestart.today);
    assert.deepEqual(await allPages(post, { limit: 5 }), beforeRestart.pages);
    const positions = await post('/api/v1/portfolio/position_unit', { account_type: 'S', unit: 'Share' });
    assert.deepEqual(positions.body, beforeRestart.positions);
    assert.deepEqual((await post('/api/v1/portfolio/account_balance', {})).body, beforeRestart.balance);
  });

  test('a bad cursor, limit or date range is refused with a message saying what to send', async () => {
    served ??= await gatewayApp(LAST_PLACED);
    const { app, post } = served;
    const badCursor = await post('/api/v1/order/trades', { cursor: 'page-2' });
    assert.equal(badCursor.status, 422);
    assertErrorKind(badCursor.body, 422, 'VALIDATION_FAILED');
    assert.match(badCursor.body.message, /X-Next-Cursor/);
    for (const limit of [0, 1001, 2.5, 'ten']) {
      const { status, body } = await post('/api/v1/order/trades', { limit });
      assert.equal(status, 422, `limit ${JSON.stringify(limit)}`);
      assertErrorKind(body, 422, 'VALIDATION_FAILED');
      assert.match(body.message, /limit/);
    }
    const badDate = await post('/api/v1/order/trades', { begin_date: '2026-02-30' });
    assertErrorKind(badDate.body, 422, 'VALIDATION_FAILED');
    const reversed = await post('/api/v1/order/trades', { begin_date: DAYS[2], end_date: DAYS[0] });
    assertErrorKind(reversed.body, 400, 'INVALID_REQUEST');
    assert.match(reversed.body.message, /earlier date first/);
    const document = await app.inject({ method: 'GET', url: '/openapi.json' });
    const operation = document.json().paths['/api/v1/order/trades'].post;
    assert.ok(operation.responses['200'].headers['x-next-cursor'], 'the OpenAPI document names the cursor header');
    const { limit } = operation.requestBody.content['application/json'].schema.properties;
    assert.deepEqual([limit.minimum, limit.maximum], [1, 1000], 'and the bounds of a page');
    const emptyRange = await post('/api/v1/order/trades', { begin_date: addDays(DAYS[2]!, 1) });
    assert.deepEqual([emptyRange.status, emptyRange.body, emptyRange.next], [200, [], undefined]);
    assert.equal(emptyRange.raw, '[]');
  });

  test("a page is the finished trades' stored JSON joined: the bytes the route's serializer writes, schema-valid", async () => {
    served ??= await gatewayApp(LAST_PLACED);
    const { post } = served;
    const journal = new Database(journalPath, { readonly: true });
    const storedJson = () => journal.prepare('SELECT count(wire) AS n FROM orders').get() as { n: number };
    try {
      assert.equal(storedJson().n, placed.length, 'every finished order was written with its JSON');
      const pageBodies = async (postTo = post) => {
        const bodies: string[] = [];
        for (const body of [{ limit: 5 }, { begin_date: DAYS[1], limit: 1000 }, { account_type: 'S', limit: 1 }]) {
          bodies.push((await postTo('/api/v1/order/trades', body)).raw);
        }
        return bodies;
      };
      const fromStoredJson = await pageBodies();
      const writeArray = lazySerializer({ schema: Type.Array(TradeSchema) });
      const valid = new Ajv({ strict: false }).compile(Type.Array(TradeSchema));
      for (const raw of fromStoredJson) {
        assert.equal(raw, writeArray(JSON.parse(raw)), "the serializer's bytes");
        assert.ok(valid(JSON.parse(raw)), JSON.stringify(valid.errors));
      }
      assert.equal(JSON.parse(fromStoredJson[1]!).length, placed.length - ORDERS_PER_DAY);

      // A server of another format forgets the JSON at start: the same pages are then made from the records.
      await served.app.close();
      served = await gatewayApp(LAST_PLACED, { ...tradeJson, format: 'another sjgate' });
      assert.equal(storedJson().n, 0);
      assert.deepEqual(await pageBodies(served.post), fromStoredJson);
    } finally {
      journal.close();
    }
  });

  test("today's list reuses a finished trade's JSON, and writes a trade again once it changed", async () => {
    served ??= await gatewayApp(LAST_PLACED);
    const { app, post, broker } = served;
    const writeArray = lazySerializer({ schema: Type.Array(TradeSchema) });
    const today = async () => {
      const { status, raw } = await post('/api/v1/order/trades', {});
      assert.equal(status, 200);
      assert.equal(raw, writeArray(JSON.parse(raw)), "the route's serializer writes the same bytes");
      return JSON.parse(raw) as Trade[];
    };
    const before = await today();
    assert.deepEqual(await today(), before, 'listed again from the reused JSON');
    const info = broker.contracts.current().find('2330') as StockInfo;
    const resting = { action: 'Buy', price: info.limit_down, quantity: 1, price_type: 'LMT', order_type: 'ROD' };
    const placedOrder = await post('/api/v1/order/place_order', { contract: { code: '2330' }, stock_order: resting });
    const id = placedOrder.body.order.id as string;
    assert.equal((await today()).find((trade) => trade.order.id === id)?.status.status, 'Submitted');
    assert.equal((await post('/api/v1/order/cancel_order', { trade_id: id })).status, 200);
    const afterCancel = await today();
    assert.equal(afterCancel.find((trade) => trade.order.id === id)?.status.status, 'Cancelled');
    assert.deepEqual(afterCancel.slice(0, before.length), before, 'the finished ones as they were');
    await app.close();
  });
});
