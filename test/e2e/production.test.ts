// Production mode end to end: the gateway drives the real bridge sidecar and the real SDK models, with SinoPac's side
// scripted (test/helpers/production.ts). The REST answers and SSE payloads are the simulator's shapes; start-up
// failures are clear and fast; a killed sidecar, a dropped session and a missed fill are recovered, none reported
// twice and none lost.

import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { EventSourceMessage } from 'eventsource-parser';
import { ConfigError } from '../../src/config.js';
import {
  eventually,
  getJson,
  type ProductionGateway,
  postJson,
  productionSkip,
  startProduction,
} from '../helpers/production.js';
import { connectSse, type SseClient } from '../helpers/sse.js';

const skip = productionSkip();
const running: ProductionGateway[] = [];
const clients: SseClient[] = [];
after(async () => {
  for (const client of clients) client.close();
  await Promise.all(running.map((p) => p.close().catch(() => undefined)));
});

async function start(scenario: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  const production = await startProduction(scenario, env);
  running.push(production);
  return production;
}

async function stream(production: ProductionGateway, path = '/stream/data'): Promise<SseClient> {
  const client = await connectSse(`${production.base}${path}`);
  clients.push(client);
  return client;
}

const stockOrder = (price: number, quantity = 1) => ({
  contract: { code: '2330' },
  stock_order: {
    action: 'Buy',
    price,
    quantity,
    price_type: 'LMT',
    order_type: 'ROD',
    order_lot: 'Common',
    order_cond: 'Cash',
  },
});

interface Upstream {
  status: string;
  restarts: number;
  session_drops: number;
  sidecar_pid: number;
  scripted: boolean;
  environment: string;
}
const upstreamOf = async (production: ProductionGateway) =>
  (await getJson<{ upstream: Upstream }>(`${production.base}/health`)).upstream;

const dealsOf = (events: EventSourceMessage[], tradeId: string) =>
  events.filter((e) => e.event === 'order_event' && JSON.parse(e.data).data.StockDeal?.trade_id === tradeId);

describe('production mode over the bridge', { skip, timeout: 120_000 }, () => {
  test('answers the API with the simulator shapes, and streams order events and quotes', async () => {
    const production = await start({ quotes: { interval_ms: 50 } });
    const { base } = production;
    const health = await getJson<Record<string, unknown> & { upstream: Upstream }>(`${base}/health`);
    assert.equal(health.status, 'healthy');
    assert.equal(health.simulation, true, "SJ_PRODUCTION unset: SinoPac's simulation environment, no real money");
    const info = await getJson(`${base}/info`);
    assert.deepEqual([info.backend, info.simulation, info.sim_clock, info.sim_time], ['shioaji', true, null, null]);
    assert.equal(health.contract_count, 25, 'the scripted contracts: 3 stocks, an index, 3 futures, 18 TXO options');
    assert.match(String(health.next_maintenance), /T00:22:00\.000Z$/, 'the daily refresh is at 08:22 Taiwan time');
    assert.equal(typeof health.token_expires_in_seconds, 'number');
    assert.deepEqual(
      [health.upstream.status, health.upstream.environment, health.upstream.scripted],
      ['connected', 'simulation', true],
    );
    assert.deepEqual(await getJson(`${base}/data/contracts/2330`), {
      security_type: 'STK',
      region: 'TW',
      exchange: 'TSE',
      code: '2330',
      target_code: null,
    });
    const txfr1 = await getJson(`${base}/data/contracts/TXFR1`);
    assert.equal(txfr1.target_code, 'TXFL6');
    const missing = await fetch(`${base}/data/contracts/9999`);
    assert.equal(missing.status, 404);
    assert.match(((await missing.json()) as { message: string }).message, /contract 9999 not found/);
    const accounts = await getJson<{ account_type: string; username: string }[]>(`${base}/auth/accounts`);
    assert.deepEqual(
      accounts.map((a) => a.account_type),
      ['S', 'F'],
    );

    const events = await stream(production);
    const placed = await postJson(`${base}/order/place_order`, stockOrder(1000));
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    const trade = placed.body as { order: { id: string; ordno: string }; status: { status: string } };
    assert.equal(trade.status.status, 'Filled');
    const [orderEvent, dealEvent] = await events.waitFor(2, (e) => e.event === 'order_event');
    assert.equal(JSON.parse(orderEvent!.data).state, 'StockOrder');
    assert.equal(JSON.parse(orderEvent!.data).data.StockOrder.operation.op_type, 'New');
    assert.deepEqual(
      (({ trade_id, price, quantity }) => ({ trade_id, price, quantity }))(JSON.parse(dealEvent!.data).data.StockDeal),
      { trade_id: trade.order.id, price: 1000, quantity: 1 },
    );

    const resting = await postJson(`${base}/order/place_order`, stockOrder(990, 2));
    const restingId = (resting.body as { order: { id: string } }).order.id;
    const cancelled = await postJson(`${base}/order/cancel_order`, { trade_id: restingId });
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    await events.waitFor(
      1,
      (e) => e.event === 'order_event' && JSON.parse(e.data).data.StockOrder?.operation.op_type === 'Cancel',
    );
    const trades = await postJson(`${base}/order/trades`, {});
    const statuses = (trades.body as unknown as { order: { id: string }; status: { status: string } }[]).map((t) => [
      t.order.id,
      t.status.status,
    ]);
    assert.deepEqual(statuses, [
      [trade.order.id, 'Filled'],
      [restingId, 'Cancelled'],
    ]);
    const unknown = await postJson(`${base}/order/cancel_order`, { trade_id: 'nope' });
    assert.equal(unknown.status, 404);

    const subscribed = await postJson(`${base}/stream/subscribe`, { contract: { code: '2330' }, quote_type: 'Tick' });
    assert.equal(subscribed.status, 200, JSON.stringify(subscribed.body));
    const [tick] = await events.waitFor(1, (e) => e.event === 'tick_stk');
    const tickData = JSON.parse(tick!.data);
    assert.equal(tickData.code, '2330');
    assert.equal(typeof tickData.close, 'string', 'prices are decimal strings, as the simulator sends them');
    const index = await postJson(`${base}/stream/subscribe`, { contract: { code: 'IX0001' }, quote_type: 'Tick' });
    assert.equal(index.status, 400, 'the exchange rules on what streams are the simulator’s');
  });

  test('every quote family reaches the stream: stocks, odd lots, futures and an index', async () => {
    const production = await start({ quotes: { interval_ms: 30 } });
    const events = await stream(production);
    const subscriptions: [string, string, boolean, string][] = [
      ['2330', 'BidAsk', false, 'bidask_stk'],
      ['2330', 'Quote', false, 'quote_stk'],
      ['2890', 'Tick', true, 'tick_stk'],
      ['TXFR1', 'Tick', false, 'tick_fop'],
      ['TXFL6', 'BidAsk', false, 'bidask_fop'],
      ['TXFA7', 'Quote', false, 'quote_fop'],
      ['IX0001', 'Quote', false, 'quote_idx'],
    ];
    for (const [code, quoteType, intradayOdd, family] of subscriptions) {
      const answer = await postJson(`${production.base}/stream/subscribe`, {
        contract: { code },
        quote_type: quoteType,
        intraday_odd: intradayOdd,
      });
      assert.equal(answer.status, 200, `${code} ${quoteType}: ${JSON.stringify(answer.body)}`);
      const [event] = await events.waitFor(1, (e) => e.event === family, 5_000);
      const data = JSON.parse(event!.data);
      const expectedCode = code === 'TXFR1' ? 'TXFL6' : code;
      assert.equal(data.code ?? data.Code, expectedCode, `${family}: ${event!.data}`);
      if (family === 'tick_stk') assert.equal(data.intraday_odd, true);
    }
    const legs = [
      { security_type: 'FUT', code: 'TXFL6' },
      { security_type: 'FUT', code: 'TXFA7' },
    ];
    const combo = await postJson(`${production.base}/stream/subscribe`, { contract: { legs }, quote_type: 'Tick' });
    assert.equal(combo.status, 200, JSON.stringify(combo.body));
    const [comboTick] = await events.waitFor(
      1,
      (e) => e.event === 'tick_fop' && JSON.parse(e.data).code === 'TXFL6/A7',
    );
    assert.equal(JSON.parse(comboTick!.data).close, '50', 'a spread trades at its net price: far less near');
    const kbars = await postJson(`${production.base}/stream/subscribe/kbars`, { stocks: [{ code: '2330' }] });
    assert.deepEqual(kbars.body, { success: true, message: 'Subscribed to the kbars of 2330' });
    const [bar] = await events.waitFor(1, (e) => e.event === 'kbar');
    const barData = JSON.parse(bar!.data);
    assert.deepEqual(
      [barData.code, typeof barData.close, typeof barData.amount, /^\d{4}\/\d\d\/\d\d$/.test(barData.date)],
      ['2330', 'number', 'number', true],
      bar!.data,
    );
    await postJson(`${production.base}/stream/subscribe/calculated_index`, { index: { code: 'IX0001' } });
    const [calculated] = await events.waitFor(1, (e) => e.event === 'calculated_index');
    assert.deepEqual((({ code, close, simtrade }) => ({ code, close, simtrade }))(JSON.parse(calculated!.data)), {
      code: 'IX0001',
      close: 23000,
      simtrade: false,
    });
    // The index analytics: SinoPac's ranking and projection objects, its events through the whole stack.
    const taiex = { index: { code: 'IX0001' } };
    const contribution = await postJson(`${production.base}/stream/subscribe/index_contribution`, {
      ...taiex,
      ranking: 'abs10',
    });
    assert.deepEqual(contribution.body, {
      success: true,
      message: 'Subscribed to the index_contribution of IX0001 abs10',
    });
    const [ranked] = await events.waitFor(1, (e) => e.event === 'index_contribution');
    const rankedData = JSON.parse(ranked!.data);
    assert.deepEqual(
      [rankedData.ranking, rankedData.code, rankedData.entries[0]],
      ['abs10', 'IX0001', { code: '2330', price: 1005, reference: 1000, price_chg: 5, pct_chg: 0.5, points: 1.25 }],
    );
    await postJson(`${production.base}/stream/subscribe/industry_contribution`, taiex);
    const [industry] = await events.waitFor(1, (e) => e.event === 'industry_contribution');
    const industryData = JSON.parse(industry!.data) as { entries: { points: number }[]; index_price_chg: number };
    assert.equal(
      industryData.entries.reduce((sum, e) => sum + Math.round(Number(e.points) * 100), 0),
      Math.round(Number(industryData.index_price_chg) * 100),
    );
    const breadth = { kind: 'group_metric', metric: 'breadth' };
    await postJson(`${production.base}/stream/subscribe/index_components`, { ...taiex, projection: breadth });
    const [groups] = await events.waitFor(1, (e) => e.event === 'index_components');
    const groupsData = JSON.parse(groups!.data);
    assert.deepEqual(
      [groupsData.unit, groupsData.projection, groupsData.groups.map((g: { category: string }) => g.category)],
      ['breadth', { ...breadth, target: null, order: null, limit: null, group: null }, ['17', '24']],
    );
    const refused = await postJson(`${production.base}/stream/subscribe/index_components`, {
      ...taiex,
      projection: { ...breadth, kind: 'ranking', target: 'group', order: 'desc', limit: 10 },
    });
    assert.equal(refused.status, 400, 'a projection SinoPac does not serve is refused before it is asked');
    const snapshot = await postJson(`${production.base}/data/index_components`, { contract: { code: 'IX0001' } });
    assert.equal(snapshot.status, 200, JSON.stringify(snapshot.body));
    const whole = snapshot.body as { entries: { contract: { code: string } }[]; weight_method: string };
    assert.deepEqual(
      [whole.weight_method, whole.entries.map((e) => e.contract.code)],
      ['reference_market_cap', ['2330', '2884', '2890']],
    );
    const scanner = (id: string, exchange: string) => ({
      scanner: { kind: 'preset_rule', id },
      region: 'TW',
      security_type: 'STK',
      exchange,
    });
    const scanned = await postJson(`${production.base}/stream/subscribe/scanner`, scanner('limit_up_unlocked', 'OTC'));
    assert.deepEqual(scanned.body, { success: true, message: 'Subscribed to the scanner limit_up_unlocked on OTC' });
    await postJson(`${production.base}/stream/subscribe/scanner`, { ...scanner('', 'TSE'), scanner: 'simtrade' });
    const [signal] = await events.waitFor(1, (e) => e.event === 'scanner' && 'extra' in JSON.parse(e.data));
    const signalData = JSON.parse(signal!.data);
    assert.deepEqual(
      [signalData.scanner, signalData.exchange, signalData.extra.previous_best_price, typeof signalData.quote.close],
      ['limit_up_unlocked', 'OTC', null, 'string'],
      signal!.data,
    );
    assert.deepEqual(Object.keys(signalData.extra), ['previous_best_price', 'trigger_price', 'limit_price']);
    const [state] = await events.waitFor(1, (e) => e.event === 'scanner' && 'scanners' in JSON.parse(e.data));
    assert.deepEqual(JSON.parse(state!.data).scanners, ['simtrade']);
    assert.equal(JSON.parse(state!.data).quote.simtrade, true);
    const quoteOfCombo = await postJson(`${production.base}/stream/subscribe`, {
      contract: { legs },
      quote_type: 'Quote',
    });
    assert.equal(quoteOfCombo.status, 400, 'a combo streams Tick and BidAsk only, as in simulation');
  });

  test('an alias and its month subscribed together share one SinoPac stream: each tick once, either keeps it', async () => {
    const production = await start({ quotes: { interval_ms: 30 } });
    const events = await stream(production);
    const subscribe = (path: string, code: string) =>
      postJson(`${production.base}/stream/${path}`, { contract: { code }, quote_type: 'Tick' });
    for (const code of ['TXFR1', 'TXFL6']) assert.equal((await subscribe('subscribe', code)).status, 200);
    const ticks = () => events.events.filter((e) => e.event === 'tick_fop').map((e) => JSON.parse(e.data));
    await events.waitFor(10, (e) => e.event === 'tick_fop');
    const volumes = ticks().map((t) => t.total_volume);
    assert.equal(new Set(volumes).size, volumes.length, `each tick once: ${volumes.join(',')}`);
    assert.equal((await subscribe('unsubscribe', 'TXFR1')).status, 200);
    const seen = ticks().length;
    await events.waitFor(seen + 3, (e) => e.event === 'tick_fop');
    assert.equal((await subscribe('unsubscribe', 'TXFL6')).status, 200);
  });

  test('a refused login stops the start at once with SinoPac’s message and the fix', async () => {
    const started = Date.now();
    await assert.rejects(
      start({ login: { refuse: 'Sign data is timeout.' } }),
      (error: unknown) =>
        error instanceof ConfigError && /Sign data is timeout/.test(error.message) && /clock/i.test(error.message),
    );
    await assert.rejects(
      start({ login: { error: 'connection' } }),
      (error: unknown) => error instanceof ConfigError && /unreachable|connect/i.test(error.message),
    );
    assert.ok(Date.now() - started < 30_000);
  });

  test('an account not signed yet is named at start with what to do', async () => {
    const unsigned = {
      account_type: 'S',
      person_id: 'A123456789',
      broker_id: '9A95',
      account_id: '7654321',
      signed: false,
      username: 'new',
    };
    const production = await start({ accounts: [unsigned] });
    assert.ok(
      production.log.some((line) => /account 9A95-7654321 \(S\) is not signed: SinoPac refuses its orders/.test(line)),
      production.log.join('\n'),
    );
    const accounts = await getJson<{ signed: boolean }[]>(`${production.base}/auth/accounts`);
    assert.deepEqual(
      accounts.map((a) => a.signed),
      [false],
    );
  });

  test('a certificate that is missing, refused or expired stops the start with the fix', async () => {
    const ca = { SJ_CA_PATH: '/nonexistent/Sinopac.pfx', SJ_CA_PASSWD: 'A123456789' };
    await assert.rejects(start({}, ca), /SJ_CA_PATH points to '\/nonexistent\/Sinopac\.pfx', which does not exist/);
    const pfx = join(mkdtempSync(join(tmpdir(), 'sjgate-ca-')), 'Sinopac.pfx');
    writeFileSync(pfx, 'not really a certificate');
    const present = { ...ca, SJ_CA_PATH: pfx };
    await assert.rejects(start({ ca: { refuse: 'CA password incorrect' } }, present), (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /CA password incorrect/);
      return true;
    });
    await assert.rejects(
      start({ ca: { expires_at: '2025-01-31T23:59:59+08:00' } }, present),
      /the certificate .*Sinopac\.pfx expired on 2025-01-31/,
    );
    const valid = await start({ ca: { expires_at: '2027-06-30T23:59:59+08:00' } }, present);
    const health = await getJson<{ ca_expires_in_days: number; ca_expired: boolean }>(`${valid.base}/health`);
    assert.equal(health.ca_expired, false);
    assert.ok(health.ca_expires_in_days > 100, JSON.stringify(health));
    const expiry = await getJson(`${valid.base}/auth/ca_expiretime?person_id=A123456789`);
    assert.deepEqual(expiry, { person_id: 'A123456789', expire_time: '2027-06-30T23:59:59+08:00' });
  });

  test('a sidecar killed mid-burst is restarted: orders are read back, fills missed meanwhile reported once', async () => {
    const production = await start({ quotes: { interval_ms: 50 }, fill: { resting_after_ms: 400 } });
    const { base } = production;
    const events = await stream(production);
    await postJson(`${base}/stream/subscribe`, { contract: { code: '2890' }, quote_type: 'Tick' });
    await events.waitFor(1, (e) => e.event === 'tick_stk');
    const before = await upstreamOf(production);
    const burst = Array.from({ length: 8 }, () => postJson(`${base}/order/place_order`, stockOrder(990)));
    await new Promise((resolve) => setTimeout(resolve, 30));
    process.kill(before.sidecar_pid, 'SIGKILL');
    const answers = await Promise.all(burst);
    for (const answer of answers) {
      assert.ok([200, 503].includes(answer.status), JSON.stringify(answer.body));
    }
    const up = await eventually(
      () => upstreamOf(production),
      (u) => u.status === 'connected' && u.restarts === 1,
      15_000,
    );
    assert.notEqual(up.sidecar_pid, before.sidecar_pid);
    const placedIds = answers
      .filter((a) => a.status === 200)
      .map((a) => (a.body as { order: { id: string } }).order.id);
    const trades = await eventually(
      async () =>
        (await postJson(`${base}/order/trades`, {})).body as unknown as {
          order: { id: string };
          status: { status: string };
        }[],
      (list) => list.length > 0 && list.every((t) => t.status.status === 'Filled'),
      15_000,
    );
    for (const id of placedIds)
      assert.ok(
        trades.some((t) => t.order.id === id),
        `order ${id} answered 200 is kept`,
      );
    for (const t of trades) {
      await events.waitFor(1, (e) => dealsOf([e], t.order.id).length > 0, 10_000);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const t of trades)
      assert.equal(dealsOf(events.events, t.order.id).length, 1, `one deal event for ${t.order.id}`);
    const ticksBefore = events.events.filter((e) => e.event === 'tick_stk').length;
    await events.waitFor(ticksBefore + 3, (e) => e.event === 'tick_stk', 10_000);
  });

  test('a fill while the daemon was stopped is reported once after its restart, after the events before it', async () => {
    // SinoPac fills the order 1.5 s after it was placed: the daemon is stopped by then.
    const scenario = { fill: { resting_after_ms: 1_500 } };
    const first = await startProduction(scenario);
    const before = await stream(first, '/stream/data/order_event');
    const resting = await postJson(`${first.base}/order/place_order`, stockOrder(990));
    const id = (resting.body as { order: { id: string } }).order.id;
    const [acknowledged] = await before.waitFor(1, (e) => e.event === 'order_event');
    assert.equal(JSON.parse(acknowledged!.data).state, 'StockOrder');
    before.close();
    await first.close({ keepHome: true });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const second = await startProduction(scenario, {}, first.home);
    running.push(second);
    const resumed = await connectSse(`${second.base}/stream/data/order_event`, { 'last-event-id': acknowledged!.id! });
    clients.push(resumed);
    const [deal] = await resumed.waitFor(1, (e) => dealsOf([e], id).length > 0, 10_000);
    assert.equal(JSON.parse(deal!.data).data.StockDeal.quantity, 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(dealsOf(resumed.events, id).length, 1, 'one deal event, not one per report of it');
    assert.ok(
      resumed.events.every((e) => e.id !== acknowledged!.id),
      'nothing already delivered before the restart comes again',
    );
    const trades = (await postJson(`${second.base}/order/trades`, {})).body as unknown as {
      status: { status: string; deal_quantity: number };
    }[];
    assert.deepEqual(
      trades.map((t) => [t.status.status, t.status.deal_quantity]),
      [['Filled', 1]],
    );
  });

  test('a session SinoPac drops is replaced and its subscriptions come back', async () => {
    const production = await start({ quotes: { interval_ms: 50 }, session_down_after_ms: 600 });
    const { base } = production;
    const events = await stream(production);
    // Asked while SinoPac's session is down, a subscribe answers 503 and holds nothing: asked again until a session
    // takes it (on a loaded machine the first session may already be gone).
    const held = (path: string, body: object) =>
      eventually(
        () => postJson(`${base}${path}`, body),
        (answer) => answer.status === 200,
        15_000,
      );
    await held('/stream/subscribe', { contract: { code: '2330' }, quote_type: 'Tick' });
    const burst = { scanner: { kind: 'preset_rule', id: 'volume_burst' }, region: 'TW', security_type: 'STK' };
    await held('/stream/subscribe/scanner', { ...burst, exchange: 'TSE' });
    await events.waitFor(1, (e) => e.event === 'tick_stk');
    const up = await eventually(
      () => upstreamOf(production),
      (u) => u.session_drops === 1 && u.status === 'connected' && u.restarts === 1,
      15_000,
    );
    assert.equal(up.session_drops, 1);
    const seen = events.events.filter((e) => e.event === 'tick_stk').length;
    await events.waitFor(seen + 3, (e) => e.event === 'tick_stk', 10_000);
    const scanned = events.events.filter((e) => e.event === 'scanner').length;
    await events.waitFor(scanned + 3, (e) => e.event === 'scanner', 10_000);
    assert.ok(production.log.some((line) => /SinoPac dropped the session/.test(line)));
    const checks = await events.waitFor(5, (e) => e.event === 'contract_event', 5_000);
    assert.deepEqual(
      checks.map((e) => {
        const check = JSON.parse(e.data);
        return [check.action, check.security_type, check.base_changed];
      }),
      [
        ['CHECK', 'STK', false],
        ['CHECK', 'IND', false],
        ['CHECK', 'FUT', false],
        ['CHECK', 'OPT', false],
        ['CHECK', 'WRT', false],
      ],
      'the new session read the contracts again: nothing was listed or delisted',
    );
  });
});
