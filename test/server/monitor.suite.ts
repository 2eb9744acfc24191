// The monitoring API: metrics of requests and backend calls by source and origin, request summaries that never hold a
// URL's query, a header or a body, logical subscriptions, stream rows and the viewer sessions that start per-topic
// counting, the settings and their persistence, and a 422 with an actionable message for every bad query.

import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { ManualClock } from '../../src/domain/time.js';
import { VenueCalls } from '../../src/gateway/venue-calls.js';
import { buildApp } from '../../src/server/app.js';
import type { MonitorOptions } from '../../src/server/monitor/monitor.js';
import { MONDAY_MORNING } from '../helpers/app.js';
import { assertErrorKind } from '../helpers/errors.js';
import { simGateway } from '../helpers/gateway.js';
import { connectSse } from '../helpers/sse.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, and a wrong field fails the test
type Json = Record<string, any>;

const apps: FastifyInstance[] = [];
const dirs: string[] = [];
after(async () => {
  await Promise.all(apps.map((app) => app.close()));
  for (const dir of dirs) {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});

const identity = { version: 'test', scheme: 'http' as const, protocols: ['HTTP/1.1'], startedAt: Date.now() };
/** The monitor's own clock (wall time in production): starts at an instant of the test's choosing. */
const T0 = Date.parse('2026-11-23T02:00:00Z');

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sjgate-monitor-'));
  dirs.push(dir);
  return dir;
};

async function monitorApp(monitor: Partial<MonitorOptions> = {}, credentials?: { apiKey: string; secretKey: string }) {
  let now = T0;
  const clock = new ManualClock(MONDAY_MORNING);
  const venueCalls = new VenueCalls();
  const { gateway, broker } = simGateway({ clock, seed: 1, clockMode: 'always-open', apiKey: null, venueCalls });
  const app = await buildApp({
    gateway,
    bindHost: credentials ? '0.0.0.0' : '127.0.0.1',
    credentials,
    rateLimits: false,
    identity,
    monitor: { now: () => now, timers: false, venueCalls, ...monitor },
  });
  await app.ready();
  apps.push(app);
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const response = await app.inject({ url, headers });
    return { status: response.statusCode, body: response.json() as Json, text: response.body };
  };
  return {
    app,
    venueCalls,
    gateway,
    broker,
    clock,
    get,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}

const DASHBOARD = { 'x-shioaji-activity': 'dashboard' };

describe('GET /api/v1/monitor/metrics', () => {
  test('counts requests per route pattern, with errors and latency quantiles, and keeps origins apart', async () => {
    const { get, advance } = await monitorApp();
    await get('/api/v1/data/contracts/2330');
    await get('/api/v1/data/contracts/2317');
    await get('/api/v1/data/contracts/NOPE');
    await get('/api/v1/auth/accounts', DASHBOARD);
    advance(1000);
    const { status, body } = await get('/api/v1/monitor/metrics?window=5m', DASHBOARD);
    assert.equal(status, 200);
    assert.deepEqual(body.window.source, 'incoming');
    assert.deepEqual(body.window.origin, 'user');
    const contract = body.endpoints.find((row: Json) => row.endpoint === '/api/v1/data/contracts/:code');
    assert.equal(contract.requests, 3, 'one row for every code: the route pattern, not the URL');
    assert.equal(contract.errors, 1);
    assert.equal(contract.category, 'contracts');
    assert.ok(contract.p50_us > 0 && contract.p50_us <= contract.p95_us && contract.p95_us <= contract.p99_us);
    assert.ok(contract.p99_us <= contract.max_us);
    assert.ok(!body.endpoints.some((row: Json) => row.endpoint === '/api/v1/auth/accounts'), 'dashboard is apart');
    assert.equal(body.totals.requests, 3);
    assert.equal(body.totals.errors, 1);
    assert.ok(body.series.points.length <= 600);
    assert.equal(
      body.series.points.reduce((sum: number, point: Json) => sum + point.requests, 0),
      3,
    );
    assert.equal(body.coverage.capturing, true);
    assert.deepEqual(body.persistence, { enabled: false, last_saved_ms: null, persistence_error: null });

    const dashboard = await get('/api/v1/monitor/metrics?origin=dashboard');
    assert.deepEqual(dashboard.body.endpoints.map((row: Json) => row.endpoint).sort(), [
      '/api/v1/auth/accounts',
      '/api/v1/monitor/metrics',
    ]);
  });

  test('source=backend counts the calls to the venue, with the origin of the request that made them', async () => {
    const { get } = await monitorApp();
    await get('/api/v1/data/contracts/2330');
    await get('/api/v1/data/contracts/NOPE');
    const { body } = await get('/api/v1/monitor/metrics?source=backend');
    const call = body.endpoints.find((row: Json) => row.endpoint === 'contracts.get');
    assert.equal(call.method, 'CALL');
    assert.equal(call.source, 'backend');
    assert.equal(call.requests, 2);
    assert.equal(call.errors, 1, 'CONTRACT_NOT_FOUND is an error of the call');
    await get('/api/v1/data/contracts/2317', DASHBOARD);
    const dashboard = await get('/api/v1/monitor/metrics?source=backend&origin=dashboard');
    assert.deepEqual(
      dashboard.body.endpoints.map((row: Json) => [row.endpoint, row.requests]),
      [['contracts.get', 1]],
      'the call made for the dashboard has its origin',
    );
    const both = await get('/api/v1/monitor/metrics?source=gateway');
    assert.deepEqual(new Set(both.body.endpoints.map((row: Json) => row.source)), new Set(['incoming', 'backend']));
  });

  test('the window moves with the clock; from and to pick a past range; the series stays within 600 points', async () => {
    const { get, advance, now } = await monitorApp();
    await get('/api/v1/auth/accounts');
    advance(20 * 60_000);
    const auth = '&category=auth';
    assert.equal((await get(`/api/v1/monitor/metrics?window=15m${auth}`)).body.totals.requests, 0, 'out of 15 min');
    assert.equal((await get(`/api/v1/monitor/metrics?window=1h${auth}`)).body.totals.requests, 1);
    const from = new Date(now() - 25 * 60_000).toISOString();
    const to = new Date(now() - 10 * 60_000).toISOString().replace('Z', '+00:00');
    const range = await get(`/api/v1/monitor/metrics?from=${from}&to=${encodeURIComponent(to)}${auth}`);
    assert.equal(range.body.totals.requests, 1);
    const day = await get('/api/v1/monitor/metrics?window=24h');
    assert.ok(day.body.series.points.length <= 600 && day.body.series.points.length >= 400);
    assert.equal(day.body.coverage.complete, false, 'the gateway has not been up for a day');
  });

  test('filters by category and endpoint, sorts and pages', async () => {
    const { get, advance } = await monitorApp();
    await get('/api/v1/auth/accounts');
    await get('/api/v1/auth/accounts');
    advance(5_000);
    await get('/api/v1/data/contracts/2330');
    const byCategory = await get('/api/v1/monitor/metrics?category=auth', DASHBOARD);
    assert.deepEqual(
      byCategory.body.endpoints.map((row: Json) => row.endpoint),
      ['/api/v1/auth/accounts'],
    );
    const byEndpoint = await get(
      `/api/v1/monitor/metrics?endpoint=${encodeURIComponent('GET /api/v1/auth/accounts')}`,
      DASHBOARD,
    );
    assert.equal(byEndpoint.body.totals.requests, 2);
    const page = await get('/api/v1/monitor/metrics?limit=1&offset=0', DASHBOARD);
    assert.equal(page.body.endpoints.length, 1);
    assert.equal(page.body.endpoints[0].endpoint, '/api/v1/auth/accounts', 'busiest first, not the newest');
    assert.ok(page.body.matched >= 2);
    const newest = await get('/api/v1/monitor/metrics?sort=newest&limit=1', DASHBOARD);
    assert.equal(newest.body.endpoints[0].endpoint, '/api/v1/data/contracts/:code');
  });

  test('capture.metrics off counts nothing and says so', async () => {
    const { app, get } = await monitorApp();
    await app.inject({ method: 'PATCH', url: '/api/v1/monitor/settings', payload: { capture: { metrics: false } } });
    await get('/api/v1/auth/accounts');
    const { body } = await get('/api/v1/monitor/metrics?source=gateway&origin=all');
    assert.equal(body.totals.requests, 0, 'not even the PATCH, answered once it was off');
    assert.equal(body.coverage.capturing, false);
    assert.equal(body.coverage.complete, false);
  });
});

describe('bad queries answer the 422 envelope and say what to change', () => {
  const cases: [string, RegExp][] = [
    ['/api/v1/monitor/metrics?window=2d', /query\.window must be one of "5m", "15m", "1h", "6h", "24h"/],
    ['/api/v1/monitor/metrics?source=everything', /query\.source must be one of/],
    ['/api/v1/monitor/metrics?origin=robots', /query\.origin must be one of/],
    ['/api/v1/monitor/metrics?window=5m&from=2026-11-23T00:00:00Z&to=2026-11-23T01:00:00Z', /either window or from/],
    ['/api/v1/monitor/metrics?from=2026-11-23T00:00:00Z', /query\.to is required with from/],
    ['/api/v1/monitor/metrics?from=2026-11-23T00:00:00&to=2026-11-23T01:00:00Z', /time zone/],
    ['/api/v1/monitor/metrics?from=2026-11-23T01:00:00Z&to=2026-11-23T00:00:00Z', /must be after from/],
    ['/api/v1/monitor/metrics?from=2026-11-20T00:00:00Z&to=2026-11-23T00:00:00Z', /at most 24 h/],
    ['/api/v1/monitor/requests?limit=0', /query\.limit must be >= 1/],
    ['/api/v1/monitor/requests?limit=1001', /query\.limit must be <= 1000/],
    ['/api/v1/monitor/requests?offset=10001', /query\.offset must be <= 10000/],
    ['/api/v1/monitor/requests?sort=random', /query\.sort must be one of "newest", "slowest", "errors"/],
    ['/api/v1/monitor/requests?category=DROP%20TABLE', /query\.category must match/],
    [`/api/v1/monitor/requests?endpoint=${'x'.repeat(257)}`, /query\.endpoint must NOT have more than 256/],
    ['/api/v1/monitor/requests?password=hunter2', /query\.password unknown field/],
    ['/api/v1/monitor/subscriptions?limit=501', /query\.limit must be <= 500/],
    ['/api/v1/monitor/subscriptions?type=everything', /query\.type must be one of/],
    [`/api/v1/monitor/subscriptions?search=${'好'.repeat(100)}`, /query\.search must be at most 256 bytes/],
    [`/api/v1/monitor/streams?search=${'x'.repeat(257)}`, /query\.search must NOT have more than 256/],
    ['/api/v1/monitor/streams?history=maybe', /query\.history must be boolean/],
  ];
  // One app answers them all: a refusal changes nothing.
  let app: Awaited<ReturnType<typeof monitorApp>> | undefined;
  for (const [url, message] of cases) {
    test(url.length > 100 ? `${url.slice(0, 100)}…` : url, async () => {
      app ??= await monitorApp();
      const { status, body } = await app.get(url);
      assert.equal(status, 422, JSON.stringify(body));
      assertErrorKind(body, 422, 'VALIDATION_FAILED');
      assert.match(body.message, message);
      assert.ok(Array.isArray(body.details) && body.details.length > 0);
      assert.ok(!JSON.stringify(body).includes('hunter2'), 'the value of an unknown field is not echoed');
    });
  }
});

describe('GET /api/v1/monitor/requests', () => {
  test('nothing is kept until capture.requests is on; the report counts anyway', async () => {
    const { get } = await monitorApp();
    await get('/api/v1/auth/accounts');
    const { body } = await get('/api/v1/monitor/requests');
    assert.equal(body.report.capturing, false);
    assert.deepEqual(body.items, []);
    assert.equal(body.report.totals.requests, 1);
  });

  test('summaries hold the pattern, never the URL, query string, token, header or body', async () => {
    const secret = 'sup3r-s3cret-value';
    const token = 'tok-9f8e7d';
    const credentials = { apiKey: 'monitor-key', secretKey: token };
    const { app } = await monitorApp({}, credentials);
    const auth = { authorization: `Bearer monitor-key:${token}` };
    const send = (options: InjectOptions) => app.inject(options);
    await send({
      method: 'PATCH',
      url: '/api/v1/monitor/settings',
      headers: auth,
      payload: { capture: { requests: true } },
    });
    await send({ url: `/api/v1/data/contracts/2330?api_key=${secret}&token=${secret}`, headers: auth });
    await send({
      url: `/api/v1/data/contracts/2330?x=${secret}`,
      headers: { authorization: `Bearer monitor-key:${secret}` },
    });
    await send({
      method: 'POST',
      url: `/api/v1/watchlist?secret=${secret}`,
      headers: { ...auth, cookie: `session=${secret}` },
      payload: { name: secret, contracts: [{ code: '2330' }] },
    });
    await send({
      method: 'POST',
      url: '/api/v1/order/place_order',
      headers: auth,
      payload: {
        contract: { code: '2330' },
        order: { action: 'Buy', price: 1, quantity: 1, account: { account_id: secret } },
      },
    });
    await send({ url: `/api/v1/no/such/${secret}?${secret}=1`, headers: auth });
    const answer = await send({ url: '/api/v1/monitor/requests?limit=1000&origin=all&source=gateway', headers: auth });
    assert.equal(answer.statusCode, 200);
    const body = answer.json() as Json;
    assert.ok(body.items.length >= 6, body.body);
    for (const needle of [secret, token, '?', 'Bearer', 'cookie', 'hunter']) {
      assert.ok(!answer.body.includes(needle), `${needle} appears in ${answer.body}`);
    }
    const endpoints = new Set(body.items.map((item: Json) => item.endpoint));
    assert.ok(endpoints.has('/api/v1/data/contracts/:code'));
    assert.ok(endpoints.has('(unmatched)'));
    const refused = body.items.find((item: Json) => item.status === 401);
    assert.equal(refused.error_kind, 'UNAUTHORIZED');
    for (const item of body.items) {
      assert.deepEqual(Object.keys(item).sort(), [
        'category',
        'duration_us',
        'endpoint',
        'error_kind',
        'finished_ms',
        'id',
        'method',
        'origin',
        'outcome',
        'source',
        'started_ms',
        'status',
      ]);
    }
  });

  test('sorts newest, slowest and errors first, and pages', async () => {
    // The queries are the dashboard's (X-Shioaji-Activity), so the user's summaries are only the three requests.
    const { app, get } = await monitorApp();
    await app.inject({ method: 'PATCH', url: '/api/v1/monitor/settings', payload: { capture: { requests: true } } });
    await get('/api/v1/data/contracts/NOPE');
    await get('/api/v1/auth/accounts');
    const newest = await get('/api/v1/monitor/requests?limit=2', DASHBOARD);
    assert.deepEqual(
      newest.body.items.map((item: Json) => item.endpoint),
      ['/api/v1/auth/accounts', '/api/v1/data/contracts/:code'],
    );
    const errors = await get('/api/v1/monitor/requests?sort=errors&limit=1', DASHBOARD);
    assert.equal(errors.body.items[0].outcome, 'client_error');
    assert.equal(errors.body.items[0].error_kind, 'CONTRACT_NOT_FOUND');
    const slowest = (await get('/api/v1/monitor/requests?sort=slowest', DASHBOARD)).body.items as Json[];
    for (let i = 1; i < slowest.length; i++) assert.ok(slowest[i - 1]!.duration_us >= slowest[i]!.duration_us);
    const second = await get('/api/v1/monitor/requests?limit=1&offset=1', DASHBOARD);
    assert.equal(second.body.items[0].endpoint, '/api/v1/data/contracts/:code');
    assert.ok(second.body.matched >= 3);
  });
});

describe('GET /api/v1/monitor/subscriptions', () => {
  test('lists quote subscriptions and report accounts, counts them by type, filters and searches', async () => {
    const { app, get } = await monitorApp();
    for (const code of ['2330', '2317']) {
      await app.inject({ method: 'POST', url: '/api/v1/stream/subscribe', payload: { code, quote_type: 'Tick' } });
    }
    await app.inject({
      method: 'POST',
      url: '/api/v1/stream/subscribe',
      payload: { code: '2330', quote_type: 'BidAsk' },
    });
    await app.inject({ method: 'POST', url: '/api/v1/auth/subscribe_trade', payload: { account_type: 'S' } });
    const { body } = await get('/api/v1/monitor/subscriptions');
    assert.equal(body.total, 4);
    assert.equal(body.market_data, 3);
    assert.equal(body.trade_accounts, 1);
    assert.deepEqual(body.by_type, { Tick: 2, BidAsk: 1, trade_account: 1 });
    assert.equal(body.partial, false);
    assert.deepEqual(body.unavailable, []);
    const tick = body.items.find((item: Json) => item.code === '2330' && item.quote_type === 'Tick');
    assert.equal(tick.topic, 'TIC/v1/STK/*/TSE/2330');
    const ticks = await get('/api/v1/monitor/subscriptions?type=Tick');
    assert.equal(ticks.body.matched, 2);
    const search = await get('/api/v1/monitor/subscriptions?search=QUO/v1');
    assert.deepEqual(
      search.body.items.map((item: Json) => `${item.code}:${item.quote_type}`),
      ['2330:BidAsk'],
    );
    const accounts = await get('/api/v1/monitor/subscriptions?type=trade_account');
    assert.equal(accounts.body.items[0].type, 'trade_account');
    const paged = await get('/api/v1/monitor/subscriptions?limit=1&offset=1');
    assert.equal(paged.body.items.length, 1);
    assert.equal(paged.body.matched, 4);
  });

  test('a scanner is one of the subscriptions, as the 200 limit counts it', async () => {
    const { app, get } = await monitorApp();
    await app.inject({
      method: 'POST',
      url: '/api/v1/stream/subscribe',
      payload: { code: '2330', quote_type: 'Tick' },
    });
    const scanned = await app.inject({
      method: 'POST',
      url: '/api/v1/stream/subscribe/scanner',
      payload: {
        // a rule without volume_burst's pass over the whole previous day, which this count does not need
        scanner: { kind: 'preset_rule', id: 'trade_price_drop' },
        region: 'TW',
        security_type: 'STK',
        exchange: 'OTC',
      },
    });
    assert.equal(scanned.statusCode, 200, scanned.body);
    const held = (await app.inject({ url: '/api/v1/stream/subscriptions' })).json() as Json;
    const { body } = await get('/api/v1/monitor/subscriptions');
    assert.equal(body.total, held.count);
    assert.deepEqual([body.market_data, body.by_type], [2, { Tick: 1, Scanner: 1 }]);
    const [scanner] = (await get('/api/v1/monitor/subscriptions?type=Scanner')).body.items as Json[];
    assert.deepEqual(
      [scanner!.id, scanner!.code, scanner!.exchange],
      ['scanner:trade_price_drop:OTC', 'trade_price_drop', 'OTC'],
    );
  });
});

describe('stream rows and viewer sessions', () => {
  test('rows per connection always; per topic only while a viewer session is alive (capture auto)', async () => {
    const { app, get, advance, clock, broker, venueCalls } = await monitorApp();
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    await app.inject({
      method: 'POST',
      url: '/api/v1/stream/subscribe',
      payload: { code: '2330', quote_type: 'Tick' },
    });
    const client = await connectSse(`http://127.0.0.1:${port}/api/v1/stream/data/tick_stk`, DASHBOARD);
    try {
      const trade = async () => {
        clock.advance(5_000);
        broker.feed.step();
      };
      let rows = await get('/api/v1/monitor/streams');
      assert.equal(venueCalls.inFlight.size, 0, 'an open stream is not a request in flight');
      assert.equal(rows.body.collecting, false);
      const connection = rows.body.items.find((row: Json) => row.kind === 'connection');
      assert.equal(connection.stream, 'tick_stk');
      assert.equal(connection.origin, 'dashboard');
      assert.ok(!rows.body.items.some((row: Json) => row.kind === 'topic'));

      const session = await app.inject({ method: 'POST', url: '/api/v1/monitor/streams/sessions' });
      assert.equal(session.statusCode, 200);
      const { id, expires_in_seconds, renew_after_seconds } = session.json() as Json;
      assert.deepEqual([expires_in_seconds, renew_after_seconds], [15, 5]);
      rows = await get('/api/v1/monitor/streams');
      assert.equal(rows.body.collecting, true);
      assert.equal(rows.body.viewers, 1);
      assert.equal(typeof rows.body.since, 'string');
      for (let i = 0; i < 5; i++) await trade();
      await client.waitFor(1, (event) => event.event === 'tick_stk', 10_000);
      rows = await get('/api/v1/monitor/streams?search=2330');
      const topic = rows.body.items.find((row: Json) => row.id === 'tick_stk/2330');
      assert.ok(topic.messages >= 1 && topic.deliveries >= 1, JSON.stringify(rows.body));
      assert.equal(rows.body.matched, rows.body.items.length);

      // Renewed within 15 s it stays; not renewed it expires and counting stops.
      advance(10_000);
      assert.equal(
        (await app.inject({ method: 'PUT', url: `/api/v1/monitor/streams/sessions/${id}` })).statusCode,
        200,
      );
      advance(10_000);
      assert.equal((await get('/api/v1/monitor/streams')).body.collecting, true);
      advance(6_000);
      assert.equal((await get('/api/v1/monitor/streams')).body.collecting, false);
      const expired = await app.inject({ method: 'PUT', url: `/api/v1/monitor/streams/sessions/${id}` });
      assert.equal(expired.statusCode, 404);
      assertErrorKind(expired.json(), 404, 'VIEWER_SESSION_NOT_FOUND');
      assert.match(expired.json().message, /open a new one with POST/);
    } finally {
      client.close();
    }
    await client.closed;
    // The server sees the close a moment after the client: wait for it (bounded).
    let closed: Json | undefined;
    for (let attempt = 0; attempt < 100 && !closed; attempt++) {
      const history = await get('/api/v1/monitor/streams?history=true');
      closed = history.body.items.find((row: Json) => row.kind === 'connection' && !row.open);
      if (!closed) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(closed, 'the closed connection is in the history');
    assert.equal(closed.stream, 'tick_stk');
    assert.ok(closed.messages >= 2);
    assert.equal((await get('/api/v1/monitor/streams')).body.items.length, 0, 'not without history=true');
    assert.equal(venueCalls.inFlight.size, 0, 'every request answered has stopped counting');
  });

  test('DELETE releases a session; at most 64 are held, the 65th is a 429 with Retry-After', async () => {
    const { app } = await monitorApp();
    const ids: string[] = [];
    for (let i = 0; i < 64; i++) {
      ids.push((await app.inject({ method: 'POST', url: '/api/v1/monitor/streams/sessions' })).json().id);
    }
    const refused = await app.inject({ method: 'POST', url: '/api/v1/monitor/streams/sessions' });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], '15');
    assertErrorKind(refused.json(), 429, 'VIEWER_LIMIT');
    const released = await app.inject({ method: 'DELETE', url: `/api/v1/monitor/streams/sessions/${ids[0]}` });
    assert.deepEqual(released.json(), { id: ids[0], released: true });
    assert.equal((await app.inject({ method: 'POST', url: '/api/v1/monitor/streams/sessions' })).statusCode, 200);
    const again = await app.inject({ method: 'DELETE', url: `/api/v1/monitor/streams/sessions/${ids[0]}` });
    assert.equal(again.statusCode, 404);
  });

  test('capture.streams true counts without a viewer, false never', async () => {
    const { app, get } = await monitorApp();
    const patch = (streams: boolean) =>
      app.inject({ method: 'PATCH', url: '/api/v1/monitor/settings', payload: { capture: { streams } } });
    await patch(true);
    assert.equal((await get('/api/v1/monitor/streams')).body.collecting, true);
    await patch(false);
    await app.inject({ method: 'POST', url: '/api/v1/monitor/streams/sessions' });
    assert.equal((await get('/api/v1/monitor/streams')).body.collecting, false);
  });
});

describe('GET and PATCH /api/v1/monitor/settings', () => {
  test('defaults, a deep-partial change, and bounds', async () => {
    const { app, get } = await monitorApp();
    assert.deepEqual((await get('/api/v1/monitor/settings')).body, {
      capture: { metrics: true, requests: false, streams: 'auto' },
      storage: { flush_seconds: 1800, retention_days: 7, max_mb: 1024 },
      last_saved_ms: null,
      persistence_error: null,
    });
    const patch = (payload: unknown) =>
      app.inject({ method: 'PATCH', url: '/api/v1/monitor/settings', payload: payload as Json });
    const changed = await patch({ storage: { retention_days: 30 } });
    assert.equal(changed.statusCode, 200);
    assert.deepEqual(changed.json().storage, { flush_seconds: 1800, retention_days: 30, max_mb: 1024 });
    assert.deepEqual(changed.json().capture, { metrics: true, requests: false, streams: 'auto' });
    for (const [payload, where] of [
      [{ storage: { flush_seconds: 86_401 } }, /body\.storage\.flush_seconds must be <= 86400/],
      [{ storage: { retention_days: 0 } }, /body\.storage\.retention_days must be >= 1/],
      [{ storage: { retention_days: 91 } }, /retention_days must be <= 90/],
      [{ storage: { max_mb: 10_241 } }, /max_mb must be <= 10240/],
      [{ storage: { max_mb: 1.5 } }, /max_mb must be integer/],
      [{ capture: { streams: 'sometimes' } }, /body\.capture\.streams/],
      [{ capture: { everything: true } }, /body\.capture\.everything unknown field/],
      [{ retention_days: 3 }, /body\.retention_days unknown field/],
    ] as const) {
      const refused = await patch(payload);
      assert.equal(refused.statusCode, 422, JSON.stringify(payload));
      assertErrorKind(refused.json(), 422, 'VALIDATION_FAILED');
      assert.match(refused.json().message, where);
    }
    assert.equal((await get('/api/v1/monitor/settings')).body.storage.retention_days, 30, 'a refusal changes nothing');
  });

  test('kept in the data home across a restart, with the metrics of the last day', async () => {
    const home = tempDir();
    const files = { settings: join(home, 'monitor.json'), metrics: join(home, 'monitor-metrics.json') };
    const first = await monitorApp({ files });
    await first.app.inject({
      method: 'PATCH',
      url: '/api/v1/monitor/settings',
      payload: { capture: { requests: true } },
    });
    const saved = (await first.get('/api/v1/monitor/settings')).body;
    assert.equal(saved.last_saved_ms, T0);
    assert.equal(saved.persistence_error, null);
    await first.get('/api/v1/auth/accounts');
    await first.app.close();
    assert.equal(JSON.parse(readFileSync(files.settings, 'utf8')).settings.capture.requests, true);

    const second = await monitorApp({ files });
    assert.equal((await second.get('/api/v1/monitor/settings')).body.capture.requests, true);
    const metrics = await second.get('/api/v1/monitor/metrics?window=1h&category=auth');
    assert.equal(metrics.body.totals.requests, 1, 'the minute of the first run was put back');
    assert.ok(metrics.body.coverage.since_ms <= T0);
  });

  test('a home that cannot be written is reported in persistence_error, and the change still applies', async () => {
    if (process.getuid?.() === 0) return; // root writes anyway
    const home = tempDir();
    mkdirSync(join(home, 'locked'));
    chmodSync(join(home, 'locked'), 0o500);
    const files = { settings: join(home, 'locked', 'monitor.json'), metrics: join(home, 'locked', 'm.json') };
    const { app, get } = await monitorApp({ files });
    const answer = await app.inject({
      method: 'PATCH',
      url: '/api/v1/monitor/settings',
      payload: { capture: { requests: true } },
    });
    assert.equal(answer.statusCode, 200);
    assert.match(answer.json().persistence_error, /could not write .*monitor\.json: EACCES/);
    assert.equal(answer.json().capture.requests, true);
    assert.match((await get('/api/v1/monitor/metrics')).body.persistence.persistence_error, /EACCES/);
    chmodSync(join(home, 'locked'), 0o700);
  });
});

describe('memory', () => {
  test('two days of traffic over every minute keep the metrics within their fixed bound', async () => {
    const { app, advance } = await monitorApp();
    const { MetricSeries } = await import('../../src/server/monitor/series.js');
    // Observations go straight to the series: 2 days × 1440 minutes × 3 endpoints, one a minute each.
    const monitorOf = (app as unknown as { monitorForTests?: unknown }).monitorForTests;
    void monitorOf;
    const series = new MetricSeries();
    const start = T0;
    for (let minute = 0; minute < 2 * 1440; minute++) {
      for (const endpoint of ['/a', '/b', '/c']) {
        series.add({
          at: start + minute * 60_000,
          source: 'incoming',
          origin: 'user',
          category: 'x',
          method: 'GET',
          endpoint,
          durationUs: 100 + minute,
          error: false,
        });
      }
    }
    // The five-second ring holds the last hour (720 slots), the minute ring the last day (1440): 3 cells each.
    assert.ok(series.cellCount() <= (720 + 1440) * 3, String(series.cellCount()));
    advance(0);
    const now = start + 2 * 1440 * 60_000;
    const day = series.query(now - 86_400_000, now, now, {
      sources: new Set(['incoming']),
      origins: new Set(['user']),
    });
    // The minute ring holds the 1,439 whole minutes before the current one (which is empty here).
    assert.equal(day.totals.requests, 1439 * 3);
    // Endpoints past the cap of a slot count under (other).
    const crowded = new MetricSeries();
    for (let i = 0; i < 1000; i++) {
      crowded.add({
        at: start,
        source: 'incoming',
        origin: 'user',
        category: 'x',
        method: 'GET',
        endpoint: `/e${i}`,
        durationUs: 1,
        error: false,
      });
    }
    assert.ok(crowded.cellCount() <= 2 * 129);
    void app;
  });
});
