// POST /stream/subscribe/kbars and /stream/unsubscribe/kbars: many stocks per call, each one of the session's
// subscriptions; a refused stock subscribes nothing; bad bodies get the envelope.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { testApp } from '../helpers/app.js';

let app: FastifyInstance;
before(async () => {
  ({ app } = await testApp());
});
after(() => app.close());

const post = async (url: string, payload: object) => {
  const response = await app.inject({ method: 'POST', url, payload });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};
const held = async () =>
  (
    (await app.inject({ method: 'GET', url: '/api/v1/stream/subscriptions' })).json() as {
      subscriptions: { code: string; quote_type: string }[];
    }
  ).subscriptions.filter((q) => q.quote_type === 'KBar');

describe('the kbar stream over HTTP', () => {
  test('subscribes many stocks in one call and lists them; unsubscribing names what was not held', async () => {
    const subscribed = await post('/api/v1/stream/subscribe/kbars', { stocks: [{ code: '2330' }, { code: '2884' }] });
    assert.deepEqual(subscribed, {
      status: 200,
      body: { success: true, message: 'Subscribed to the kbars of 2330, 2884' },
    });
    assert.deepEqual(
      (await held()).map((q) => q.code),
      ['2330', '2884'],
    );
    const partly = await post('/api/v1/stream/unsubscribe/kbars', { stocks: [{ code: '2330' }, { code: '2890' }] });
    assert.deepEqual(partly.body, { success: false, message: 'No kbar subscription of 2890' });
    assert.deepEqual(
      (await held()).map((q) => q.code),
      ['2884'],
    );
    const rest = await post('/api/v1/stream/unsubscribe/kbars', { stocks: [{ code: '2884' }] });
    assert.equal(rest.body.success, true);
  });

  test('a futures contract among the stocks is a 400 and nothing is subscribed', async () => {
    const refused = await post('/api/v1/stream/subscribe/kbars', { stocks: [{ code: '2330' }, { code: 'TXFR1' }] });
    assert.equal(refused.status, 400);
    assert.match(String(refused.body.message), /TXFR1 is a futures contract/);
    assert.deepEqual(await held(), []);
    const unknown = await post('/api/v1/stream/subscribe/kbars', { stocks: [{ code: '9999' }] });
    assert.equal(unknown.status, 404);
  });

  test('an empty or malformed body is a 422 naming the field', async () => {
    for (const payload of [{ stocks: [] }, {}, { stocks: [{ symbol: '2330' }] }, { stocks: 'TSE2330' }]) {
      const bad = await post('/api/v1/stream/subscribe/kbars', payload);
      assert.equal(bad.status, 422, JSON.stringify(payload));
      assert.match(String(bad.body.message), /stocks/);
    }
  });
});

describe('the calculated_index stream over HTTP', () => {
  test('subscribes and unsubscribes an index; a stock or an unknown code is refused', async () => {
    assert.deepEqual(await post('/api/v1/stream/subscribe/calculated_index', { index: { code: 'IX0001' } }), {
      status: 200,
      body: { success: true, message: 'Subscribed to the calculated index of IX0001' },
    });
    const subscriptions = (await app.inject({ method: 'GET', url: '/api/v1/stream/subscriptions' })).json() as {
      subscriptions: { code: string; quote_type: string }[];
    };
    assert.ok(subscriptions.subscriptions.some((s) => s.code === 'IX0001' && s.quote_type === 'CalculatedIndex'));
    const stock = await post('/api/v1/stream/subscribe/calculated_index', { index: { code: '2330' } });
    assert.equal(stock.status, 400);
    assert.match(String(stock.body.message), /IX0001 and IX0043 only/);
    assert.equal((await post('/api/v1/stream/subscribe/calculated_index', { index: { code: 'IX9999' } })).status, 404);
    assert.equal((await post('/api/v1/stream/subscribe/calculated_index', {})).status, 422);
    const done = await post('/api/v1/stream/unsubscribe/calculated_index', { index: { code: 'IX0001' } });
    assert.deepEqual(done.body, { success: true, message: 'Unsubscribed from the calculated index of IX0001' });
    const again = await post('/api/v1/stream/unsubscribe/calculated_index', { index: { code: 'IX0001' } });
    assert.deepEqual(again.body, { success: false, message: 'No calculated_index subscription of IX0001' });
  });
});
