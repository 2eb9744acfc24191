import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { RateGovernor } from '../../src/gateway/rate-governor.js';
import { errorsPlugin } from '../../src/server/plugins/errors.js';
import { limitsPlugin } from '../../src/server/plugins/limits.js';

const MONDAY_MORNING = taipeiInstant('2026-11-23', '10:00');

const MARKET_DATA_LIMIT =
  'market data: over 50 calls per 10 seconds (credit_enquires, short_stock_sources, snapshots, ticks, kbars)';
const PRODUCTION = 'production would pause this service the same way';

interface Setup {
  enabled?: boolean;
  exhausted?: boolean;
  /** The venue the governor counts for: SinoPac (default), or the simulator in a clock mode. */
  simClock?: 'always-open' | 'exchange';
}

async function limitedApp(setup: Setup = {}) {
  const clock = new ManualClock(MONDAY_MORNING);
  const state = { tradingHours: true, exhausted: setup.exhausted ?? false };
  const recorded: number[] = [];
  const app = Fastify();
  await app.register(errorsPlugin);
  await app.register(limitsPlugin, {
    enabled: setup.enabled ?? true,
    clock,
    governor: new RateGovernor({
      venue: setup.simClock === undefined ? 'shioaji' : 'simulator',
      simClock: setup.simClock ?? null,
      isStockTradingHours: () => state.tradingHours,
    }),
    traffic: { record: (bytes) => recorded.push(bytes), exhausted: () => state.exhausted },
  });
  // Routes live in an encapsulated plugin, as the real route files do.
  await app.register(async (api: FastifyInstance) => {
    api.get('/snapshots', { config: { rateGroups: ['market-data'], traffic: { empty: () => [] } } }, async () => [
      { code: '2330', close: 1085.0, name: '台積電' },
    ]);
    api.get(
      '/ticks',
      { config: { rateGroups: ['market-data', 'ticks'], traffic: { empty: () => ({ ts: [], close: [] }) } } },
      async () => ({ ts: [1_700_000_000_000_000_000], close: [1085] }),
    );
    api.get(
      '/kbars',
      { config: { rateGroups: ['market-data', 'kbars'], traffic: { empty: () => ({ ts: [], close: [] }) } } },
      async () => ({ ts: [1_700_000_000_000_000_000], close: [1085] }),
    );
    api.get('/positions', { config: { rateGroups: ['accounting'] } }, async () => [{ code: '2330', quantity: 1 }]);
    api.post('/orders', { config: { rateGroups: ['orders'] } }, async () => ({ status: 'Submitted' }));
    api.get('/contracts', async () => ({ code: '2330' }));
  });
  await app.ready();
  const call = (url: string) => app.inject({ method: url === '/orders' ? 'POST' : 'GET', url });
  const calls = async (url: string, n: number) => {
    const statuses = [];
    for (let i = 0; i < n; i++) statuses.push((await call(url)).statusCode);
    return statuses;
  };
  return { app, clock, state, recorded, call, calls };
}

const allOk = (statuses: number[]) => assert.deepEqual(new Set(statuses), new Set([200]));

function assertRefused(
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  retryAfter: string,
  message: string,
) {
  assert.equal(res.statusCode, 429);
  assert.equal(res.headers['retry-after'], retryAfter);
  assert.deepEqual(res.json(), { code: 429, error: 'RATE_LIMITED', message, details: null });
}

describe('market-data call rate', () => {
  test('the 51st call within 10 s is refused and pauses the group for a minute', async () => {
    const { call, calls, clock } = await limitedApp();
    allOk(await calls('/snapshots', 50));
    assertRefused(
      await call('/snapshots'),
      '60',
      `${MARKET_DATA_LIMIT}; paused for 60 s, ${PRODUCTION}; use quote subscriptions instead of polling`,
    );
    clock.advance(30_000);
    assertRefused(
      await call('/ticks'),
      '30',
      `${MARKET_DATA_LIMIT}; still paused for 30 s, ${PRODUCTION}; use quote subscriptions instead of polling`,
    );
    clock.advance(29_500);
    assert.equal((await call('/snapshots')).headers['retry-after'], '1');
    clock.advance(500);
    const res = await call('/snapshots');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), [{ code: '2330', close: 1085, name: '台積電' }]);
  });

  test('a call counts until it is 10 s old', async () => {
    const { call, calls, clock } = await limitedApp();
    allOk(await calls('/snapshots', 25));
    clock.advance(5_000);
    allOk(await calls('/snapshots', 25));
    clock.advance(4_999);
    assert.equal((await call('/snapshots')).statusCode, 429);
  });

  test('the window slides: calls 10 s old leave it, newer ones stay', async () => {
    const { call, calls, clock } = await limitedApp();
    allOk(await calls('/snapshots', 25));
    clock.advance(5_000);
    allOk(await calls('/snapshots', 25));
    clock.advance(5_000);
    allOk(await calls('/snapshots', 25));
    assert.equal((await call('/snapshots')).statusCode, 429);
  });

  test('refused calls do not count, and the pause runs from the breach, not from the last call', async () => {
    const { call, calls, clock } = await limitedApp();
    allOk(await calls('/snapshots', 50));
    assert.equal((await call('/snapshots')).statusCode, 429);
    for (let i = 0; i < 5; i++) {
      clock.advance(10_000);
      assert.equal((await call('/ticks')).statusCode, 429);
    }
    clock.advance(10_000);
    // The refused ticks calls did not use up the ticks quota of the trading day.
    allOk(await calls('/ticks', 10));
    const res = await call('/ticks');
    assertRefused(
      res,
      '60',
      `ticks: over 10 calls during trading hours today; paused for 60 s, ${PRODUCTION}; ` +
        'query ticks after the close and cache them; use quote subscriptions instead of polling',
    );
    // Only the ticks group is paused: the breaching ticks call did not count as market data either.
    allOk(await calls('/snapshots', 40));
    assert.equal((await call('/snapshots')).statusCode, 429);
  });
});

describe('the refusals of the simulator', () => {
  test('always open: the ticks quota has no close to wait for, and SJ_SIM_LIMITS=off is named', async () => {
    const { call, calls } = await limitedApp({ simClock: 'always-open' });
    allOk(await calls('/ticks', 10));
    assertRefused(
      await call('/ticks'),
      '60',
      `ticks: over 10 calls during trading hours today; paused for 60 s, ${PRODUCTION}; ` +
        'the always-open simulator has no close, so the quota holds all day: cache ticks; ' +
        'use quote subscriptions instead of polling; SJ_SIM_LIMITS=off turns these limits off in simulation',
    );
  });

  test('on the exchange clock: after the close, and SJ_SIM_LIMITS=off', async () => {
    const { call, calls } = await limitedApp({ simClock: 'exchange' });
    allOk(await calls('/ticks', 10));
    const refusal = (await call('/ticks')).json() as { message: string };
    assert.match(refusal.message, /query ticks after the close and cache them; .*; SJ_SIM_LIMITS=off turns/);
    allOk(await calls('/positions', 25));
    assert.match(((await call('/positions')).json() as { message: string }).message, /SJ_SIM_LIMITS=off/);
  });
});

describe('trading-hours quotas', () => {
  test('ticks: calls outside trading hours are free; the 11th in trading hours is refused', async () => {
    const { call, calls, clock, state } = await limitedApp();
    state.tradingHours = false;
    allOk(await calls('/ticks', 15));
    state.tradingHours = true;
    allOk(await calls('/ticks', 10));
    assert.equal((await call('/ticks')).statusCode, 429);
    clock.advance(60_000);
    assert.equal((await call('/ticks')).statusCode, 429, 'still over the quota of the day');
    clock.advance(60_000);
    state.tradingHours = false;
    assert.equal((await call('/ticks')).statusCode, 200, 'after hours the quota does not apply');
  });

  test('ticks: the quota starts afresh at 08:00 of the next trading day', async () => {
    const { call, calls, clock } = await limitedApp();
    allOk(await calls('/ticks', 10));
    clock.set(taipeiInstant('2026-11-24', '07:59'));
    assert.equal((await call('/ticks')).statusCode, 429);
    clock.set(taipeiInstant('2026-11-24', '08:00'));
    allOk(await calls('/ticks', 10));
    assert.equal((await call('/ticks')).statusCode, 429);
  });

  test('kbars: at most 270 calls in trading hours', async () => {
    const { call, clock } = await limitedApp();
    for (let i = 0; i < 270; i++) {
      clock.advance(250); // 40 calls per 10 s: under the market-data limit
      assert.equal((await call('/kbars')).statusCode, 200, `call ${i + 1}`);
    }
    clock.advance(250);
    assertRefused(
      await call('/kbars'),
      '60',
      `kbars: over 270 calls during trading hours today; paused for 60 s, ${PRODUCTION}; ` +
        'query kbars after the close and cache them; use quote subscriptions instead of polling',
    );
    assert.equal((await call('/snapshots')).statusCode, 200);
  });
});

describe('accounting and order call rates', () => {
  test('the 26th accounting call within 5 s is refused while market data still works', async () => {
    const { call, calls, clock } = await limitedApp();
    allOk(await calls('/positions', 25));
    assertRefused(
      await call('/positions'),
      '60',
      'accounting: over 25 calls per 5 seconds (list_profit_loss_detail, account_balance, list_settlements, ' +
        `list_profit_loss, list_positions, margin); paused for 60 s, ${PRODUCTION}; ` +
        'keep positions from order and deal reports instead of polling',
    );
    const snapshot = await call('/snapshots');
    assert.equal(snapshot.statusCode, 200);
    assert.deepEqual(snapshot.json(), [{ code: '2330', close: 1085, name: '台積電' }]);
    clock.advance(60_000);
    assert.deepEqual((await call('/positions')).json(), [{ code: '2330', quantity: 1 }]);
  });

  test('the 251st order call within 10 s is refused; routes without a group are never limited', async () => {
    const { call, calls } = await limitedApp();
    allOk(await calls('/orders', 250));
    const refused = await call('/orders');
    assert.equal(refused.statusCode, 429);
    assert.match((refused.json() as { message: string }).message, /^orders: over 250 calls per 10 seconds \(/);
    allOk(await calls('/contracts', 300));
  });

  test('with limits disabled nothing is refused, and traffic is still metered', async () => {
    const { calls, recorded } = await limitedApp({ enabled: false });
    allOk(await calls('/snapshots', 120));
    allOk(await calls('/ticks', 30));
    allOk(await calls('/positions', 60));
    assert.equal(recorded.length, 150);
  });
});

describe('daily traffic', () => {
  test('the bytes of each metered answer are recorded, exactly as sent', async () => {
    const { call, recorded } = await limitedApp();
    const res = await call('/snapshots');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-sjgate-traffic'], undefined);
    assert.deepEqual(recorded, [Buffer.byteLength(res.body)]);
    assert.equal(recorded[0], Number(res.headers['content-length']));
    await call('/positions');
    await call('/contracts');
    assert.equal(recorded.length, 1, 'only metered routes count');
  });

  test('refused calls are not metered', async () => {
    const { calls, recorded } = await limitedApp();
    await calls('/snapshots', 55);
    assert.equal(recorded.length, 50);
  });

  test('over the daily limit, metered queries answer empty values while everything else works', async () => {
    const { call, recorded } = await limitedApp({ exhausted: true });
    const snapshots = await call('/snapshots');
    assert.equal(snapshots.statusCode, 200);
    assert.equal(snapshots.headers['x-sjgate-traffic'], 'exhausted');
    assert.deepEqual(snapshots.json(), []);
    const ticks = await call('/ticks');
    assert.equal(ticks.headers['x-sjgate-traffic'], 'exhausted');
    assert.deepEqual(ticks.json(), { ts: [], close: [] });
    const positions = await call('/positions');
    assert.equal(positions.headers['x-sjgate-traffic'], undefined);
    assert.deepEqual(positions.json(), [{ code: '2330', quantity: 1 }]);
    assert.deepEqual(recorded, []);
  });
});
