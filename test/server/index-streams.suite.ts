// The index analytics over HTTP: subscribe and unsubscribe index_contribution, industry_contribution and
// index_components (each (index, ranking) and (index, projection) its own subscription, kept across a restart),
// their events on the dedicated paths and the aggregate, POST /data/index_components, and the refusals: another
// index, a stock, a bad ranking or body (422), a projection SinoPac does not serve (400 listing those it does).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { appWithSubscriptions, testApp } from '../helpers/app.js';
import { connectSse } from '../helpers/sse.js';

type App = Awaited<ReturnType<typeof testApp>>['app'];

const homes: string[] = [];
after(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

const post = async (app: App, url: string, payload: object) => {
  const response = await app.inject({ method: 'POST', url, payload });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};

const held = async (app: App) =>
  (
    (await app.inject({ method: 'GET', url: '/api/v1/stream/subscriptions' })).json() as {
      subscriptions: { code: string; quote_type: string; ranking?: string; projection?: Record<string, unknown> }[];
    }
  ).subscriptions;

const TAIEX = { code: 'IX0001' };
const TOP_CONTRIBUTION = { kind: 'ranking', target: 'component', metric: 'contribution', order: 'desc', limit: 10 };
const GROUP_BREADTH = { kind: 'group_metric', metric: 'breadth' };

describe('index analytics subscriptions', () => {
  test('each ranking of an index is its own subscription, unsubscribed exactly', async () => {
    const { app } = await testApp();
    const url = '/api/v1/stream/subscribe/index_contribution';
    assert.deepEqual(await post(app, url, { index: TAIEX, ranking: 'top10' }), {
      status: 200,
      body: { success: true, message: 'Subscribed to the index_contribution of IX0001 top10' },
    });
    await post(app, url, { index: TAIEX, ranking: 'abs10' });
    await post(app, url, { index: TAIEX, ranking: 'top10' });
    await post(app, url, { index: { code: 'IX0043' }, ranking: 'top10' });
    const rankings = (await held(app)).map((s) => `${s.code} ${s.quote_type} ${s.ranking}`);
    assert.deepEqual(rankings, [
      'IX0001 IndexContribution top10',
      'IX0001 IndexContribution abs10',
      'IX0043 IndexContribution top10',
    ]);
    const done = await post(app, '/api/v1/stream/unsubscribe/index_contribution', { index: TAIEX, ranking: 'abs10' });
    assert.deepEqual(done.body, { success: true, message: 'Unsubscribed from the index_contribution of IX0001 abs10' });
    const again = await post(app, '/api/v1/stream/unsubscribe/index_contribution', { index: TAIEX, ranking: 'abs10' });
    assert.deepEqual(again.body, { success: false, message: 'No index_contribution subscription of IX0001 abs10' });
    assert.equal((await held(app)).length, 2, 'top10 of both indices stay');
    await app.close();
  });

  test('projections: each is a subscription; one SinoPac does not serve is a 400 listing those it does', async () => {
    const { app } = await testApp();
    const url = '/api/v1/stream/subscribe/index_components';
    const ok = await post(app, url, { index: TAIEX, projection: TOP_CONTRIBUTION });
    assert.deepEqual(ok.body, {
      success: true,
      message: 'Subscribed to the index_components of IX0001 rank/component/contribution/desc/10',
    });
    await post(app, url, { index: TAIEX, projection: GROUP_BREADTH });
    const projections = (await held(app)).map((s) => s.projection);
    assert.deepEqual(projections, [
      { ...TOP_CONTRIBUTION, group: null },
      { kind: 'group_metric', target: null, metric: 'breadth', order: null, limit: null, group: null },
    ]);
    for (const projection of [
      { ...TOP_CONTRIBUTION, order: 'asc' },
      { ...TOP_CONTRIBUTION, limit: 25 },
      { ...TOP_CONTRIBUTION, metric: 'amount_share' },
      { kind: 'ranking', target: 'group', metric: 'contribution', order: 'desc', limit: 10 },
      { ...GROUP_BREADTH, order: 'desc' },
      { kind: 'ranking', metric: 'contribution', order: 'desc', limit: 10 },
    ]) {
      const refused = await post(app, url, { index: TAIEX, projection });
      assert.equal(refused.status, 400, JSON.stringify(projection));
      assert.equal(refused.body.code, 400);
      assert.match(String(refused.body.message), /unsupported index_components projection/);
      assert.match(String(refused.body.message), /positive_desc\/25/, 'lists the pairs served');
    }
    const unknownMetric = await post(app, url, { index: TAIEX, projection: { ...TOP_CONTRIBUTION, metric: 'x' } });
    assert.equal(unknownMetric.status, 422);
    const inGroup = { kind: 'ranking', target: 'component', metric: 'contribution', order: 'abs_desc', limit: 10 };
    const noSuchGroup = await post(app, url, { index: TAIEX, projection: { ...inGroup, group: 'zz' } });
    assert.equal(noSuchGroup.status, 400, 'a group the index does not have would stream nothing forever');
    assert.match(String(noSuchGroup.body.message), /IX0001 has no industry group "zz"; its groups are .*\b24\b/);
    assert.equal((await post(app, url, { index: TAIEX, projection: { ...inGroup, group: '24' } })).status, 200);
    await post(app, '/api/v1/stream/unsubscribe/index_components', {
      index: TAIEX,
      projection: { ...inGroup, group: '24' },
    });
    const off = await post(app, '/api/v1/stream/unsubscribe/index_components', {
      index: TAIEX,
      projection: GROUP_BREADTH,
    });
    assert.equal(off.body.success, true);
    assert.equal((await held(app)).length, 1);
    await app.close();
  });

  test('another index, a stock or an unknown code is refused with what to ask for; bad bodies get the 422 envelope', async () => {
    const { app } = await testApp();
    for (const [path, extra] of [
      ['index_contribution', { ranking: 'top10' }],
      ['industry_contribution', {}],
      ['index_components', { projection: TOP_CONTRIBUTION }],
    ] as const) {
      const url = `/api/v1/stream/subscribe/${path}`;
      const stock = await post(app, url, { index: { code: '2330' }, ...extra });
      assert.equal(stock.status, 400, path);
      assert.match(String(stock.body.message), /IX0001 and IX0043 only, and 2330 is a stock: ask for IX0001/);
      const sector = await post(app, url, { index: { code: 'IX0010' }, ...extra });
      assert.equal(sector.status, 400);
      assert.match(String(sector.body.message), /IX0010 is another index/);
      const unknown = await post(app, url, { index: { code: 'IX9999' }, ...extra });
      assert.equal(unknown.status, 404);
      assert.equal((await post(app, url, { ...extra })).status, 422);
    }
    const badRanking = await post(app, '/api/v1/stream/subscribe/index_contribution', {
      index: TAIEX,
      ranking: 'top5',
    });
    assert.equal(badRanking.status, 422);
    assert.match(String(badRanking.body.message), /ranking/);
    assert.ok(Array.isArray(badRanking.body.details));
    assert.deepEqual(await held(app), []);
    await app.close();
  });
});

describe('POST /data/index_components', () => {
  test('answers every component and group of IX0001; the points add up to the change', async () => {
    const { app } = await testApp();
    const response = await post(app, '/api/v1/data/index_components', { contract: TAIEX });
    assert.equal(response.status, 200);
    const body = response.body as {
      contract: { code: string };
      market_phase: string;
      weight_method: string;
      entries: { points: number; reference_weight_ppm: number; category: string }[];
      groups: { category: string; points: number; item_count: number }[];
    };
    assert.equal(body.contract.code, 'IX0001');
    assert.equal(body.weight_method, 'reference_market_cap');
    assert.equal(body.market_phase, 'continuous_trading');
    assert.ok(body.entries.length > 100);
    const cents = (values: number[]) => values.reduce((sum, v) => sum + Math.round(v * 100), 0);
    assert.equal(cents(body.groups.map((g) => g.points)), cents(body.entries.map((e) => e.points)));
    assert.equal(
      body.entries.reduce((sum, e) => sum + e.reference_weight_ppm, 0),
      1_000_000,
    );
    assert.equal(
      body.groups.reduce((sum, g) => sum + g.item_count, 0),
      body.entries.length,
    );
    const otc = await post(app, '/api/v1/data/index_components', { contract: { code: 'IX0043' } });
    assert.equal(otc.status, 200);
    const elsewhere = await post(app, '/api/v1/data/index_components', {
      contract: { code: 'IX0001', exchange: 'OTC' },
    });
    assert.equal(elsewhere.status, 404);
    assert.match(String(elsewhere.body.message), /IX0001 is listed on TSE, not OTC/);
    const stock = await post(app, '/api/v1/data/index_components', { contract: { code: '2330' } });
    assert.equal(stock.status, 400);
    assert.match(String(stock.body.message), /index_components is computed for the indices IX0001 and IX0043 only/);
    assert.equal((await post(app, '/api/v1/data/index_components', {})).status, 422);
    await app.close();
  });
});

describe('index analytics events', () => {
  test('each family comes on its dedicated stream and on the aggregate', async () => {
    const gateway = await testApp();
    const { app } = gateway;
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const url = (path: string) => `http://127.0.0.1:${port}${path}`;
    const families = ['index_contribution', 'industry_contribution', 'index_components'];
    const dedicated = await Promise.all(families.map((family) => connectSse(url(`/api/v1/stream/data/${family}`))));
    const aggregate = await connectSse(url('/api/v1/stream/data'));
    await post(app, '/api/v1/stream/subscribe/index_contribution', { index: TAIEX, ranking: 'abs10' });
    await post(app, '/api/v1/stream/subscribe/industry_contribution', { index: TAIEX });
    await post(app, '/api/v1/stream/subscribe/index_components', { index: TAIEX, projection: GROUP_BREADTH });
    gateway.clock.advance(30_000);
    gateway.broker.feed.step();
    for (const [i, family] of families.entries()) {
      const [event] = await dedicated[i]!.waitFor(1, (e) => e.event === family);
      assert.equal(JSON.parse(event!.data).code ?? JSON.parse(event!.data).contract.code, 'IX0001');
      assert.ok(
        dedicated[i]!.events.every((e) => e.event === family || e.event === 'session' || e.event === 'heartbeat'),
        `only ${family} on its stream`,
      );
      await aggregate.waitFor(1, (e) => e.event === family);
    }
    const [industry] = await dedicated[1]!.waitFor(1, (e) => e.event === 'industry_contribution');
    const data = JSON.parse(industry!.data) as { entries: { points: number }[]; index_price_chg: number };
    assert.equal(
      data.entries.reduce((sum, e) => sum + Math.round(Number(e.points) * 100), 0),
      Math.round(Number(data.index_price_chg) * 100),
    );
    for (const client of [...dedicated, aggregate]) client.close();
    await app.close();
  });
});

describe('index analytics across a restart', () => {
  const gatewayOn = (home: string) => appWithSubscriptions(home);

  test('rankings and projections are subscribed again, each as it was', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sjgate-index-'));
    homes.push(home);
    const first = await gatewayOn(home);
    await post(first, '/api/v1/stream/subscribe/index_contribution', { index: TAIEX, ranking: 'negative25' });
    await post(first, '/api/v1/stream/subscribe/industry_contribution', { index: { code: 'IX0043' } });
    await post(first, '/api/v1/stream/subscribe/index_components', {
      index: TAIEX,
      projection: { kind: 'ranking', target: 'component', metric: 'amount', order: 'desc', limit: 10, group: '24' },
    });
    const before = await held(first);
    await first.close();
    const second = await gatewayOn(home);
    assert.deepEqual(second.streams.restored, { restored: 3, failed: [] });
    assert.deepEqual(await held(second), before);
    const off = await post(second, '/api/v1/stream/unsubscribe/index_components', {
      index: TAIEX,
      projection: { kind: 'ranking', target: 'component', metric: 'amount', order: 'desc', limit: 10, group: '24' },
    });
    assert.equal(off.body.success, true);
    await second.close();
  });
});
