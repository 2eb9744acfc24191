// The request bodies of the official 1.7.9 SDK and CLI, field for field as they send them, and the answers they read:
// time_in_force beside order_type, "ca", the unused order kind as null, an embedded Account with an empty person,
// null selectors meaning the default account, SBL short sales, null tick times, and the 1.7.9 health fields. Around
// each, a null or a value that means nothing there is still refused with the error envelope.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testApp } from '../helpers/app.js';

type App = Awaited<ReturnType<typeof testApp>>['app'];
// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON
type Json = Record<string, any>;

let app: App;
let stock: Json;
let futures: Json;

before(async () => {
  ({ app } = await testApp());
  [stock, futures] = (await app.inject('/api/v1/auth/accounts')).json();
});
after(() => app.close());

async function post(url: string, payload: unknown): Promise<{ status: number; body: Json }> {
  const response = await app.inject({ method: 'POST', url, payload: payload as object });
  return { status: response.statusCode, body: response.json() };
}

function assertRefused(answer: { status: number; body: Json }, status: number, message: RegExp): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.code, status);
  assert.match(answer.body.message, message);
}

const NULL_SELECTOR = { person_id: null, broker_id: null, account_id: null };
const CONTRACT_2330 = { security_type: 'STK', region: 'TW', exchange: 'TSE', code: '2330', target_code: null };

async function limitDown(): Promise<number> {
  return (await app.inject('/api/v1/data/contracts/2330/info')).json().limit_down;
}

describe('orders as 1.7.9 sends them', () => {
  test('time_in_force with order_type, ca, futures_order null, an Account with person_id ""', async () => {
    const price = await limitDown();
    const { status, body } = await post('/api/v1/order/place_order', {
      contract: CONTRACT_2330,
      stock_order: {
        action: 'Buy',
        price,
        quantity: 1,
        price_type: 'LMT',
        time_in_force: 'ROD',
        order_type: 'ROD',
        ca: '',
        account: { ...stock, person_id: '', username: '' },
      },
      futures_order: null,
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.status.status, 'Submitted');
    assert.equal(body.order.time_in_force, 'ROD');
    assert.equal(body.order.order_type, 'ROD');
    assert.equal(body.order.account.account_id, stock.account_id);
  });

  test('time_in_force alone is enough, and a futures order answers both names', async () => {
    const { status, body } = await post('/api/v1/order/place_order', {
      contract: { code: 'TXFR1' },
      stock_order: null,
      futures_order: { action: 'Buy', price: 0, quantity: 1, price_type: 'MKT', time_in_force: 'IOC', ca: '' },
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.order.time_in_force, 'IOC');
    assert.equal(body.order.order_type, 'IOC');
  });

  test('time_in_force and order_type that differ, or neither, are 400s saying which', async () => {
    const order = { action: 'Buy', price: await limitDown(), quantity: 1, price_type: 'LMT' };
    assertRefused(
      await post('/api/v1/order/place_order', {
        contract: CONTRACT_2330,
        stock_order: { ...order, time_in_force: 'IOC', order_type: 'ROD' },
      }),
      400,
      /stock_order.time_in_force \(IOC\) and its legacy name stock_order.order_type \(ROD\) differ/,
    );
    assertRefused(
      await post('/api/v1/order/place_order', { contract: CONTRACT_2330, stock_order: order }),
      400,
      /stock_order needs time_in_force/,
    );
  });

  test('both order kinds null is "neither"; a null inside the order is a 422 naming it', async () => {
    assertRefused(
      await post('/api/v1/order/place_order', { contract: CONTRACT_2330, stock_order: null, futures_order: null }),
      400,
      /the body has neither/,
    );
    const answer = await post('/api/v1/order/place_order', {
      contract: CONTRACT_2330,
      stock_order: { action: 'Buy', price: null, quantity: 1, price_type: 'LMT', time_in_force: 'ROD' },
    });
    assertRefused(answer, 422, /price/);
    assert.deepEqual(
      answer.body.details.map((d: Json) => d.loc),
      [['body', 'stock_order', 'price']],
    );
  });

  test('SBLShort and SBLShortPriceExempt validate, and the simulator refuses them with the reason', async () => {
    for (const cond of ['SBLShort', 'SBLShortPriceExempt']) {
      const { status, body } = await post('/api/v1/order/place_order', {
        contract: CONTRACT_2330,
        stock_order: {
          action: 'Sell',
          price: await limitDown(),
          quantity: 1,
          price_type: 'LMT',
          time_in_force: 'ROD',
          order_type: 'ROD',
          order_cond: cond,
          ca: '',
        },
        futures_order: null,
      });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.status.status, 'Failed');
      assert.equal(body.order.order_cond, cond);
      assert.match(body.status.msg, new RegExp(`${cond} .*not supported in simulation.*ShortSelling`));
    }
  });
});

describe('null selectors mean the default account', () => {
  test('subscribe and unsubscribe_trade, with an integer ts', async () => {
    for (const route of ['subscribe_trade', 'unsubscribe_trade']) {
      const { status, body } = await post(`/api/v1/auth/${route}`, { account_type: 'F', ...NULL_SELECTOR });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.account.account_id, futures.account_id);
      assert.ok(Number.isInteger(body.ts) && String(body.ts).length === 14, String(body.ts));
    }
  });

  test('order/trades: null ids are the default account; account_type null beside a named account', async () => {
    assert.equal((await post('/api/v1/order/trades', { account_type: 'S', ...NULL_SELECTOR })).status, 200);
    const named = await post('/api/v1/order/trades', {
      account_type: null,
      person_id: null,
      broker_id: futures.broker_id,
      account_id: futures.account_id,
    });
    assert.equal(named.status, 200, JSON.stringify(named.body));
    assert.ok(named.body.every((t: Json) => t.order.account.account_type === 'F'));
  });

  test('every portfolio route and the reserve routes', async () => {
    const today = '2026-11-23';
    const routes: [string, Json][] = [
      ['/api/v1/portfolio/account_balance', { account_type: 'S' }],
      ['/api/v1/portfolio/margin', { account_type: 'F' }],
      ['/api/v1/portfolio/position_unit', { account_type: 'S', unit: 'Common' }],
      ['/api/v1/portfolio/profit_loss', { account_type: 'S', begin_date: today, end_date: today, unit: 'Common' }],
      ['/api/v1/portfolio/profitloss_sum', { account_type: 'S', begin_date: today, end_date: today }],
      ['/api/v1/portfolio/settlements', { account_type: 'S' }],
      ['/api/v1/portfolio/trading_limits', { account_type: 'S' }],
      ['/api/v1/order/stock_reserve_summary', { account_type: 'S' }],
      ['/api/v1/order/stock_reserve_detail', { account_type: 'S' }],
      ['/api/v1/order/earmarking_detail', { account_type: 'S' }],
    ];
    for (const [route, extra] of routes) {
      const { status, body } = await post(route, { ...extra, ...NULL_SELECTOR });
      assert.equal(status, 200, `${route}: ${JSON.stringify(body)}`);
    }
  });

  test('a null where a value is needed is still a 422 naming it', async () => {
    const answer = await post('/api/v1/portfolio/profit_loss', { account_type: 'S', ...NULL_SELECTOR, unit: null });
    assertRefused(answer, 422, /unit/);
    assert.ok(
      answer.body.details.every((d: Json) => d.loc.includes('unit')),
      JSON.stringify(answer.body.details),
    );
    assertRefused(await post('/api/v1/order/trades', { account_type: 'X' }), 422, /account_type/);
  });
});

describe('market data and health', () => {
  test('ticks take time_start and time_end as null; a null date is a 422', async () => {
    const base = { contract: CONTRACT_2330, date: '2026-11-20', query_type: 'LastCount', last_cnt: 3 };
    const { status, body } = await post('/api/v1/data/ticks', { ...base, time_start: null, time_end: null });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.close.length, 3);
    assertRefused(await post('/api/v1/data/ticks', { ...base, date: null }), 422, /date/);
    assertRefused(
      await post('/api/v1/data/ticks', { ...base, query_type: 'RangeTime', time_start: null, time_end: null }),
      400,
      /time_start/,
    );
  });

  test('health carries the 1.7.9 fields', async () => {
    const health = (await app.inject('/api/v1/health')).json();
    assert.equal(health.session_recovering, false);
    assert.equal(health.session_recovery_attempts, 0);
    assert.match(health.instance_id, /^[0-9a-f-]{36}$/);
    assert.equal(health.instance_id, (await app.inject('/api/v1/health')).json().instance_id);
    for (const key of [
      'enabled',
      'mode',
      'capability_version',
      'capability_header',
      'digest_scheme',
      'max_ttl_seconds',
    ]) {
      assert.ok(key in health.agent_harness, key);
    }
  });
});
