import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ManualClock } from '../../src/domain/time.js';
import { buildApp } from '../../src/server/app.js';
import { MONDAY_MORNING, testApp } from '../helpers/app.js';
import { assertErrorKind } from '../helpers/errors.js';
import { simGateway } from '../helpers/gateway.js';

const ORDER = '/api/v1/order';
const open: FastifyInstance[] = [];
after(async () => {
  for (const app of open) await app.close();
});

interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers of many shapes
  body: any;
}

async function send(app: FastifyInstance, url: string, payload?: unknown): Promise<Reply> {
  const response = await app.inject({
    method: 'POST',
    url,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  return { status: response.statusCode, body: response.json() };
}

/** Buys 2330 at the ask and answers the shares bought. */
async function buy(app: FastifyInstance, lots = 2): Promise<number> {
  const snapshot = (await send(app, '/api/v1/data/snapshots', { contracts: [{ code: '2330' }] })).body[0];
  const placed = await send(app, `${ORDER}/place_order`, {
    contract: { code: '2330' },
    stock_order: { action: 'Buy', price: snapshot.sell_price, quantity: lots, price_type: 'LMT', order_type: 'ROD' },
  });
  assert.equal(placed.status, 200, JSON.stringify(placed.body));
  const bought = placed.body.status.deal_quantity as number;
  assert.ok(bought >= 1, JSON.stringify(placed.body.status));
  return bought * 1000;
}

async function app(): Promise<FastifyInstance> {
  const built = await testApp();
  open.push(built.app);
  return built.app;
}

const sell = (app: FastifyInstance, lots: number) =>
  send(app, `${ORDER}/place_order`, {
    contract: { code: '2330' },
    stock_order: { action: 'Sell', price: 0, quantity: lots, price_type: 'MKT', order_type: 'IOC' },
  });

describe('share reserves', () => {
  test('a reserve moves shares from available to reserved; the detail lists it; a sell over the rest is refused', async () => {
    const gw = await app();
    const held = await buy(gw);
    const before = await send(gw, `${ORDER}/stock_reserve_summary`, {});
    assert.equal(before.status, 200, JSON.stringify(before.body));
    assert.equal(before.body.account.account_type, 'S');
    const row = before.body.stocks.find((s: { contract: { code: string } }) => s.contract.code === '2330');
    assert.deepEqual(row, {
      contract: { security_type: 'STK', region: 'TW', exchange: 'TSE', code: '2330', target_code: null },
      available_share: held,
      reserved_share: 0,
    });

    const reserved = await send(gw, `${ORDER}/reserve_stock`, {
      account_type: 'S',
      contract: { code: '2330' },
      share: 1000,
    });
    assert.equal(reserved.status, 200, JSON.stringify(reserved.body));
    assert.deepEqual(Object.keys(reserved.body).sort(), ['account', 'contract', 'info', 'share', 'status']);
    assert.equal(reserved.body.status, true, reserved.body.info);
    assert.equal(reserved.body.share, 1000);
    assert.equal(reserved.body.contract.code, '2330');

    const summary = await send(gw, `${ORDER}/stock_reserve_summary`, { account: { account_type: 'S' } });
    const after2330 = summary.body.stocks.find((s: { contract: { code: string } }) => s.contract.code === '2330');
    assert.equal(after2330.available_share, held - 1000);
    assert.equal(after2330.reserved_share, 1000);

    const detail = await send(gw, `${ORDER}/stock_reserve_detail`);
    assert.equal(detail.status, 200, JSON.stringify(detail.body));
    assert.equal(detail.body.stocks.length, 1);
    const [first] = detail.body.stocks;
    assert.deepEqual(Object.keys(first).sort(), ['contract', 'info', 'order_datetime', 'share', 'status']);
    assert.equal(first.order_datetime, '2026-11-23T10:00:00');
    assert.equal(first.status, true);

    const refused = await sell(gw, held / 1000);
    assert.equal(refused.status, 200, JSON.stringify(refused.body));
    assert.equal(refused.body.status.status, 'Failed');
    assert.match(refused.body.status.msg, /1000 shares are reserved today \(reserve_stock\)/);
    const allowed = await sell(gw, held / 1000 - 1);
    assert.notEqual(allowed.body.status.status, 'Failed', JSON.stringify(allowed.body.status));
  });

  test('more than the available holding answers status false with the reason, and is listed as refused', async () => {
    const gw = await app();
    const held = await buy(gw, 1);
    const over = await send(gw, `${ORDER}/reserve_stock`, { contract: { code: '2330' }, share: held + 1000 });
    assert.equal(over.status, 200);
    assert.equal(over.body.status, false);
    assert.match(
      over.body.info,
      new RegExp(`cannot reserve ${held + 1000} shares of 2330: ${held} shares are available`),
    );
    const none = await send(gw, `${ORDER}/reserve_stock`, { contract: { code: '2317' }, share: 1000 });
    assert.equal(none.body.status, false);
    assert.match(none.body.info, /0 shares are available \(0 held/);
    const detail = await send(gw, `${ORDER}/stock_reserve_detail`, {});
    assert.deepEqual(
      detail.body.stocks.map((s: { status: boolean }) => s.status),
      [false, false],
    );
    const summary = await send(gw, `${ORDER}/stock_reserve_summary`, {});
    assert.equal(summary.body.stocks[0].reserved_share, 0);
  });
});

describe('cash earmarks', () => {
  test('an earmark holds share x price: buying power and the bank balance drop by it; more than the cash is refused', async () => {
    const gw = await app();
    const limits = (await send(gw, '/api/v1/portfolio/trading_limits', {})).body;
    const balance = (await send(gw, '/api/v1/portfolio/account_balance', {})).body;
    const earmarked = await send(gw, `${ORDER}/reserve_earmarking`, {
      account_type: 'S',
      contract: { code: '2330' },
      share: 2000,
      price: 500.5,
    });
    assert.equal(earmarked.status, 200, JSON.stringify(earmarked.body));
    assert.deepEqual(Object.keys(earmarked.body).sort(), ['account', 'contract', 'info', 'price', 'share', 'status']);
    assert.equal(earmarked.body.status, true, earmarked.body.info);
    assert.equal(earmarked.body.price, 500.5);
    const amount = 1_001_000;
    const afterLimits = (await send(gw, '/api/v1/portfolio/trading_limits', {})).body;
    assert.equal(afterLimits.trading_available, limits.trading_available - amount);
    const afterBalance = (await send(gw, '/api/v1/portfolio/account_balance', {})).body;
    assert.equal(afterBalance.acc_balance, balance.acc_balance - amount);

    const detail = await send(gw, `${ORDER}/earmarking_detail`, {});
    assert.equal(detail.status, 200, JSON.stringify(detail.body));
    assert.deepEqual(detail.body.stocks[0], {
      contract: { security_type: 'STK', region: 'TW', exchange: 'TSE', code: '2330', target_code: null },
      share: 2000,
      order_datetime: '2026-11-23T10:00:00',
      status: true,
      info: detail.body.stocks[0].info,
      price: 500.5,
      amount,
    });

    const tooMuch = await send(gw, `${ORDER}/reserve_earmarking`, {
      contract: { code: '2330' },
      share: 499_000,
      price: 5000,
    });
    assert.equal(tooMuch.status, 200);
    assert.equal(tooMuch.body.status, false);
    assert.match(
      tooMuch.body.info,
      /cannot earmark NT\$2495000000 \(499000 shares at 5000\): NT\$8999000 is available/,
    );
  });

  test('earmarked cash is not there for a buy', async () => {
    const gw = await app();
    await send(gw, `${ORDER}/reserve_earmarking`, { contract: { code: '2330' }, share: 18_000, price: 500 });
    const placed = await send(gw, `${ORDER}/place_order`, {
      contract: { code: '2330' },
      stock_order: { action: 'Buy', price: 0, quantity: 3, price_type: 'MKT', order_type: 'IOC' },
    });
    assert.equal(placed.body.status.status, 'Failed', JSON.stringify(placed.body.status));
  });
});

describe('bad requests', () => {
  const cases: [string, string, unknown, number, RegExp][] = [
    ['unknown code', 'reserve_stock', { contract: { code: '9999X' }, share: 1000 }, 404, /9999X/],
    [
      'a future',
      'reserve_stock',
      { contract: { code: 'TXFR1' }, share: 1 },
      400,
      /reserve_stock is for stocks.*TXFR1 is FUT/,
    ],
    ['zero shares', 'reserve_stock', { contract: { code: '2330' }, share: 0 }, 422, /share/],
    ['negative shares', 'reserve_stock', { contract: { code: '2330' }, share: -5 }, 422, /share/],
    ['fractional shares', 'reserve_stock', { contract: { code: '2330' }, share: 1.5 }, 422, /share/],
    ['over the limit', 'reserve_stock', { contract: { code: '2330' }, share: 500_000 }, 422, /share.*499000/],
    ['no contract', 'reserve_stock', { share: 1000 }, 422, /contract/],
    ['zero price', 'reserve_earmarking', { contract: { code: '2330' }, share: 1000, price: 0 }, 422, /price/],
    ['no price', 'reserve_earmarking', { contract: { code: '2330' }, share: 1000 }, 422, /price/],
    [
      'a futures account',
      'reserve_stock',
      { account_type: 'F', contract: { code: '2330' }, share: 1 },
      422,
      /account_type/,
    ],
    ['a futures account (summary)', 'stock_reserve_summary', { account: { account_type: 'F' } }, 422, /account_type/],
    ['an unknown account', 'earmarking_detail', { broker_id: '9A95', account_id: '0000000' }, 404, /0000000/],
  ];
  for (const [name, route, body, status, message] of cases) {
    test(`${name}: ${status}`, async () => {
      const gw = await app();
      const reply = await send(gw, `${ORDER}/${route}`, body);
      assert.equal(reply.status, status, JSON.stringify(reply.body));
      assertErrorKind(reply.body, status);
      assert.match(reply.body.message, message);
    });
  }
});

describe('after a restart', () => {
  test('the reserves and earmarks are still held', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-reserve-'));
    const journalPath = join(dir, 'journal.db');
    const start = async () => {
      const clock = new ManualClock(MONDAY_MORNING);
      const { gateway } = simGateway({ clock, seed: 1, clockMode: 'always-open', apiKey: null, journalPath });
      const identity = { version: 'test', scheme: 'http' as const, protocols: ['HTTP/1.1'], startedAt: Date.now() };
      const built = await buildApp({ gateway, bindHost: '127.0.0.1', rateLimits: false, identity });
      await built.ready();
      return built;
    };
    try {
      const first = await start();
      const held = await buy(first);
      assert.equal(
        (await send(first, `${ORDER}/reserve_stock`, { contract: { code: '2330' }, share: 1000 })).body.status,
        true,
      );
      const earmark = { contract: { code: '2317' }, share: 1000, price: 100 };
      assert.equal((await send(first, `${ORDER}/reserve_earmarking`, earmark)).body.status, true);
      await first.close();

      const second = await start();
      open.push(second);
      const summary = await send(second, `${ORDER}/stock_reserve_summary`, {});
      const row = summary.body.stocks.find((s: { contract: { code: string } }) => s.contract.code === '2330');
      assert.deepEqual([row.available_share, row.reserved_share], [held - 1000, 1000]);
      assert.equal((await send(second, `${ORDER}/stock_reserve_detail`, {})).body.stocks.length, 1);
      const earmarks = (await send(second, `${ORDER}/earmarking_detail`, {})).body.stocks;
      assert.deepEqual(
        earmarks.map((s: { amount: number; status: boolean }) => [s.amount, s.status]),
        [[100_000, true]],
      );
      const refused = await sell(second, held / 1000);
      assert.equal(refused.body.status.status, 'Failed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
