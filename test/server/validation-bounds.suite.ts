// Every number of every request is finite and bounded, every array has a maxItems, a 422 stays small whatever the
// body, and a refused request changes nothing (issue 14). The raw `1e400` bodies over a socket are in
// test/e2e/non-finite-numbers.test.ts; these go through app.inject(), which sends the text as it is given too.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../src/domain/errors.js';
import type { Gateway } from '../../src/gateway/gateway.js';
import { testApp } from '../helpers/app.js';
import { assertErrorKind } from '../helpers/errors.js';

type Json = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Body = any;

let app: FastifyInstance;
let gateway: Gateway;
before(async () => {
  ({ app, gateway } = await testApp());
});
after(async () => {
  await app.close();
});

/** Sends `text` as the raw JSON body, so that numbers JSON.stringify cannot write (1e400) get through. */
async function postText(url: string, text: string): Promise<{ status: number; body: Body; bytes: number }> {
  const response = await app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    payload: text,
  });
  return { status: response.statusCode, body: response.json(), bytes: response.body.length };
}
const post = (url: string, payload: unknown) => postText(url, JSON.stringify(payload));
async function get(url: string): Promise<{ status: number; body: Body }> {
  const response = await app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.json() };
}

/** A 422 envelope whose details hold exactly `details` (each {loc, msg, type}, msg matched loosely). */
function assert422(response: { status: number; body: Body }, details: [(string | number)[], string, RegExp?][]) {
  assert.equal(response.status, 422, JSON.stringify(response.body));
  assertErrorKind(response.body, 422, 'VALIDATION_FAILED');
  assert.match(response.body.message, /^invalid request \(/);
  assert.deepEqual(
    response.body.details.map((d: Json) => [d.loc, d.type]),
    details.map(([loc, type]) => [loc, type]),
    JSON.stringify(response.body.details),
  );
  details.forEach(([, , msg], i) => {
    if (msg) assert.match(response.body.details[i].msg, msg);
  });
}

const stockOrder = (fields: Json = {}) => ({
  action: 'Buy',
  price: 1000,
  quantity: 1,
  price_type: 'LMT',
  order_type: 'ROD',
  ...fields,
});
const futuresOrder = (fields: Json = {}) => ({
  action: 'Buy',
  price: 20000,
  quantity: 1,
  price_type: 'LMT',
  order_type: 'ROD',
  ...fields,
});
const PLACE = '/api/v1/order/place_order';

/** The journal and the listings are as they were: nothing of a refused request is kept. */
async function assertNothingKept() {
  assert.deepEqual(gateway.journal.orders.list(), []);
  assert.equal(gateway.journal.events.lastSeq(), 0);
  assert.deepEqual((await post('/api/v1/order/trades', {})).body, []);
  assert.deepEqual((await post('/api/v1/order/combotrades', {})).body, []);
}

describe('the request schemas', () => {
  test('every number has a finite minimum and maximum, every array a maxItems', { timeout: 30_000 }, async () => {
    const doc = (await get('/openapi.json')).body;
    const unbounded: string[] = [];
    const walk = (schema: Body, where: string) => {
      if (typeof schema !== 'object' || schema === null) return;
      const types = [schema.type].flat();
      if (types.includes('number') || types.includes('integer')) {
        if (!Number.isFinite(schema.minimum) || !Number.isFinite(schema.maximum)) unbounded.push(where);
      }
      if (types.includes('array') && !Number.isFinite(schema.maxItems)) unbounded.push(`${where}[]`);
      for (const [name, property] of Object.entries(schema.properties ?? {})) walk(property, `${where}.${name}`);
      if (schema.items) walk(schema.items, `${where}[]`);
      for (const key of ['anyOf', 'oneOf', 'allOf']) for (const branch of schema[key] ?? []) walk(branch, where);
    };
    let checked = 0;
    for (const [path, operations] of Object.entries(doc.paths as Record<string, Body>)) {
      for (const [method, operation] of Object.entries(operations as Record<string, Body>)) {
        for (const parameter of operation.parameters ?? []) {
          walk(parameter.schema, `${method} ${path} ${parameter.in}.${parameter.name}`);
          checked++;
        }
        for (const content of Object.values(operation.requestBody?.content ?? {}) as Body[]) {
          walk(content.schema, `${method} ${path} body`);
          checked++;
        }
      }
    }
    assert.ok(checked > 50, `only ${checked} request schemas found`);
    assert.deepEqual(unbounded, []);
  });
});

describe('numbers that are not finite', () => {
  test('place_order: price and quantity 1e400 and -1e400 are 422s naming the field', { timeout: 30_000 }, async () => {
    const stock = (fields: string) =>
      `{"contract":{"code":"2330"},"stock_order":{"action":"Buy","price_type":"LMT","order_type":"ROD",${fields}}}`;
    assert422(await postText(PLACE, stock('"price":1e400,"quantity":1')), [
      [['body', 'stock_order', 'price'], 'finite', /must be a finite number/],
    ]);
    assert422(await postText(PLACE, stock('"price":1000,"quantity":1e400')), [
      [['body', 'stock_order', 'quantity'], 'finite'],
    ]);
    assert422(await postText(PLACE, stock('"price":-1e400,"quantity":-1e400')), [
      [['body', 'stock_order', 'price'], 'finite'],
      [['body', 'stock_order', 'quantity'], 'finite'],
    ]);
    const futures = `{"contract":{"code":"TXFR1"},"futures_order":{"action":"Sell","price":-1E+400,"quantity":1,"price_type":"LMT","order_type":"ROD"},"timeout":1e999}`;
    assert422(await postText(PLACE, futures), [
      [['body', 'futures_order', 'price'], 'finite'],
      [['body', 'timeout'], 'finite'],
    ]);
    // A 310-digit number has no exponent and overflows all the same.
    assert422(await postText(PLACE, stock(`"price":${'9'.repeat(310)},"quantity":1`)), [
      [['body', 'stock_order', 'price'], 'finite'],
    ]);
    await assertNothingKept();
  });

  test('finite numbers written with exponents, and 1e400 inside a string, still pass', {
    timeout: 30_000,
  }, async () => {
    const text = `{"contract":{"code":"2330"},"stock_order":{"action":"Buy","price":1.0e3,"quantity":1e0,"price_type":"LMT","order_type":"ROD","custom_field":"e400"}}`;
    const placed = await postText(PLACE, text);
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    assert.equal(placed.body.order.price, 1000);
    const big = await postText('/api/v1/data/scanner', `{"scanner_type":"ChangePercentRank","count":1e2}`);
    assert.equal(big.status, 200);
    assert.equal(big.body.length, 100);
    const cancelled = await post('/api/v1/order/cancel_order', { trade_id: placed.body.order.id });
    assert.equal(cancelled.status, 200);
  });

  test('combos, updates, pages and queries refuse them too', { timeout: 30_000 }, async () => {
    const { app: fresh, gateway: freshGateway } = await testApp();
    try {
      const send = async (url: string, text: string) => {
        const response = await fresh.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json' },
          payload: text,
        });
        return { status: response.statusCode, body: response.json() };
      };
      const legs = '[{"code":"TXFL6","security_type":"FUT"},{"code":"TXFA7","security_type":"FUT"}]';
      for (const price of ['1e400', '-1e400']) {
        const combo = `{"combo_contract":{"legs":${legs}},"order":{"action":"Buy","price":${price},"quantity":1,"price_type":"LMT","order_type":"ROD"}}`;
        assert422(await send('/api/v1/order/place_comboorder', combo), [[['body', 'order', 'price'], 'finite']]);
      }
      assert422(await send('/api/v1/order/update_price', '{"trade_id":"x","price":1e400}'), [
        [['body', 'price'], 'finite'],
      ]);
      assert422(await send('/api/v1/order/update_qty', '{"trade_id":"x","quantity":1e400}'), [
        [['body', 'quantity'], 'finite'],
      ]);
      assert422(await send('/api/v1/data/contracts', '{"security_type":"STK","page":1e400}'), [
        [['body', 'page'], 'finite'],
      ]);
      // Query text is coerced to a number by Ajv, which turns "1e400" into Infinity without a check.
      const query = await fresh.inject({
        method: 'GET',
        url: '/api/v1/data/contracts/options?root=TXO&strike_min=1e400',
      });
      const body = query.json();
      assert.equal(query.statusCode, 422, query.body);
      assert.ok(
        body.details.some((d: Json) => d.type === 'finite' && JSON.stringify(d.loc) === '["query","strike_min"]'),
        query.body,
      );
      // A number deep inside a field the schema does not describe in detail is found too.
      const deep = `{"contracts":[{"legs":[{"code":"TXFL6","action":${'['.repeat(2000)}1e400${']'.repeat(2000)}}]}]}`;
      const refused = await send('/api/v1/data/snapshots', deep);
      assert.equal(refused.status, 422);
      assert.equal(refused.body.details[0].type, 'finite');
      assert.deepEqual(refused.body.details[0].loc.slice(0, 6), ['body', 'contracts', 0, 'legs', 0, 'action']);
      assert.deepEqual(freshGateway.journal.orders.list(), []);
      assert.equal(freshGateway.journal.events.lastSeq(), 0);
    } finally {
      await fresh.close();
    }
  });
});

describe('bounds of every number', () => {
  test('order prices and quantities past what any order can be are 422s', { timeout: 30_000 }, async () => {
    const { app: fresh, gateway: freshGateway } = await testApp();
    try {
      const send = async (url: string, payload: unknown) => {
        const response = await fresh.inject({ method: 'POST', url, payload: payload as Json });
        return { status: response.statusCode, body: response.json() };
      };
      assert422(await send(PLACE, { contract: { code: '2330' }, stock_order: stockOrder({ price: 1_000_001 }) }), [
        [['body', 'stock_order', 'price'], 'maximum', /<= 1000000/],
      ]);
      assert422(await send(PLACE, { contract: { code: '2330' }, stock_order: stockOrder({ quantity: 1_000_001 }) }), [
        [['body', 'stock_order', 'quantity'], 'maximum'],
      ]);
      assert422(
        await send(PLACE, { contract: { code: 'TXFR1' }, futures_order: futuresOrder({ quantity: 10 ** 20 }) }),
        [[['body', 'futures_order', 'quantity'], 'maximum']],
      );
      assert422(await send(PLACE, { contract: { code: '2330' }, stock_order: stockOrder(), timeout: 1e12 }), [
        [['body', 'timeout'], 'maximum'],
      ]);
      const legs = [
        { code: 'TXFL6', security_type: 'FUT' },
        { code: 'TXFA7', security_type: 'FUT' },
      ];
      assert422(
        await send('/api/v1/order/place_comboorder', {
          combo_contract: { legs },
          order: futuresOrder({ price: -1_000_001 }),
        }),
        [[['body', 'order', 'price'], 'minimum', />= -1000000/]],
      );
      assert422(await send('/api/v1/order/update_price', { trade_id: 'x', price: 2e6 }), [
        [['body', 'price'], 'maximum'],
      ]);
      assert422(await send('/api/v1/order/update_qty', { trade_id: 'x', quantity: 1e7 }), [
        [['body', 'quantity'], 'maximum'],
      ]);
      assert422(await send('/api/v1/data/contracts', { security_type: 'STK', page: 1e9 }), [
        [['body', 'page'], 'maximum'],
      ]);
      assert422(await send('/api/v1/portfolio/position_detail', { detail_id: 2 ** 40 }), [
        [['body', 'detail_id'], 'maximum'],
      ]);
      assert.deepEqual(freshGateway.journal.orders.list(), []);
      assert.equal(freshGateway.journal.events.lastSeq(), 0);

      // Within the bounds an exchange's rule still answers a Failed trade with its message, and price 0 is a
      // market order's price as the official clients send it.
      const overLots = await send(PLACE, { contract: { code: '2330' }, stock_order: stockOrder({ quantity: 500 }) });
      assert.equal(overLots.status, 200);
      assert.equal(overLots.body.status.status, 'Failed');
      assert.match(overLots.body.status.msg, /1 to 499 lots/);
      const marketOrder = await send(PLACE, {
        contract: { code: '2330' },
        stock_order: stockOrder({ price: 0, price_type: 'MKT', order_type: 'IOC' }),
      });
      assert.equal(marketOrder.status, 200);
      assert.notEqual(marketOrder.body.status.status, 'Failed', marketOrder.body.status.msg);
    } finally {
      await fresh.close();
    }
  });
});

describe('a 422 stays small', () => {
  test('a 250 KB snapshots body of 125,000 bad items is one violation naming the bound', {
    timeout: 30_000,
  }, async () => {
    const text = `{"contracts":[${Array.from({ length: 125_000 }, () => '1').join(',')}]}`;
    assert.ok(text.length > 250_000 && text.length < 256 * 1024);
    const started = performance.now();
    const response = await postText('/api/v1/data/snapshots', text);
    const elapsed = performance.now() - started;
    assert422(response, [[['body', 'contracts'], 'maxItems', /must NOT have more than 500 items \(it has 125000\)/]]);
    assert.match(response.body.message, /^invalid request \(1 problem\): body\.contracts must NOT have more than 500/);
    assert.ok(response.bytes < 1000, `${response.bytes} bytes`);
    // It was 18 MB and over a second; a generous bound that still fails on validating every item.
    assert.ok(elapsed < 400, `${elapsed} ms`);
  });

  test('500 bad items are 500 problems: details lists the first 20, the message counts all', {
    timeout: 30_000,
  }, async () => {
    const response = await postText('/api/v1/data/snapshots', `{"contracts":[${Array(500).fill('1').join(',')}]}`);
    assert.equal(response.status, 422);
    // Each item fails both forms of a contract reference the same way: it is reported once.
    assert.match(
      response.body.message,
      /^invalid request \(500 problems, the first 20 in details\): body\.contracts\[0\] must be object; .*; and 495 more$/,
    );
    assert.equal(response.body.details.length, 20);
    assert.deepEqual(response.body.details[19], {
      loc: ['body', 'contracts', 19],
      msg: 'must be object',
      type: 'type',
    });
    assert.ok(response.bytes < 3000, `${response.bytes} bytes`);
  });

  test('arrays past their bound inside items are reported alone too', { timeout: 30_000 }, async () => {
    const legs = Array.from({ length: 9 }, () => 7);
    const response = await post('/api/v1/data/snapshots', { contracts: [{ legs }, { code: '2330' }, { legs }] });
    assert422(response, [
      [['body', 'contracts', 0, 'legs'], 'maxItems', /more than 8 items/],
      [['body', 'contracts', 2, 'legs'], 'maxItems'],
    ]);
    const codes = Array.from({ length: 501 }, () => ({ code: '2330' }));
    assert422(await post('/api/v1/data/credit_enquire', { contracts: codes }), [
      [['body', 'contracts'], 'maxItems', /more than 500 items/],
    ]);
  });
});

describe('the broker refuses numbers that are not finite before any change', () => {
  test('place, placeCombo, updatePrice and updateQty throw a 400 and keep nothing', { timeout: 30_000 }, async () => {
    const { app: fresh, broker: sim, gateway: simGateway } = await testApp();
    try {
      const refused = (work: () => unknown, field: RegExp) =>
        assert.throws(work, (error: unknown) => {
          assert.ok(error instanceof DomainError);
          assert.equal(error.kind, 'INVALID_REQUEST');
          assert.match(error.message, field);
          return true;
        });
      const counter = simGateway.journal.meta.get('order_counter');
      const order = { action: 'Buy', price: Infinity, quantity: 1, price_type: 'LMT', order_type: 'ROD' } as const;
      refused(() => sim.orders.place({ contract: { code: '2330' }, stockOrder: order }), /price .*Infinity/);
      refused(
        () =>
          sim.orders.place({
            contract: { code: 'TXFR1' },
            futuresOrder: { ...order, price: 20000, quantity: Number.NaN },
          }),
        /quantity must be a finite number, got NaN/,
      );
      refused(
        () => sim.orders.place({ contract: { code: '2330' }, stockOrder: { ...order, quantity: Number.NaN } }),
        /stock_order: price must be a finite number, got Infinity; quantity must be a finite number, got NaN$/,
      );
      refused(
        () =>
          sim.orders.placeCombo({
            legs: [
              { code: 'TXFL6', security_type: 'FUT' },
              { code: 'TXFA7', security_type: 'FUT' },
            ],
            order: { ...order, price: -Infinity },
          }),
        /order: price must be a finite number, got -Infinity/,
      );
      assert.deepEqual(simGateway.journal.orders.list(), []);
      assert.equal(simGateway.journal.meta.get('order_counter'), counter);

      const info = sim.contracts.current().find('2330') as { limit_down: number };
      const resting = sim.orders.place({
        contract: { code: '2330' },
        stockOrder: { ...order, price: info.limit_down },
      });
      assert.equal(resting.status.status, 'Submitted', resting.status.msg);
      await simGateway.durable();
      const events = simGateway.journal.events.lastSeq();
      refused(() => sim.orders.updatePrice(resting.order.id, Infinity), /update_price: price must be a finite/);
      refused(() => sim.orders.updateQty(resting.order.id, -Infinity), /update_qty: quantity must be a finite/);
      await simGateway.durable();
      assert.equal(simGateway.journal.events.lastSeq(), events, 'no order event was written');
      const [trade] = sim.orders.trades();
      assert.equal(trade!.order.price, info.limit_down);
      assert.equal(trade!.status.order_quantity, 1);
    } finally {
      await fresh.close();
    }
  });
});
