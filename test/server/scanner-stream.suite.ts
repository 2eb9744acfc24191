// POST /stream/subscribe/scanner and /stream/unsubscribe/scanner: the scanner forms, one subscription per
// (scanner, exchange) among the 200, kept across a restart; its events on /stream/data/scanner and the aggregate;
// bad bodies get the envelope naming what is allowed.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/domain/time.js';
import { buildApp } from '../../src/server/app.js';
import { MONDAY_MORNING, testApp } from '../helpers/app.js';
import { simGateway } from '../helpers/gateway.js';
import { connectSse } from '../helpers/sse.js';

// biome-ignore lint/suspicious/noExplicitAny: the wire JSON, read field by field in asserts
type Wire = Record<string, any>;

type App = Awaited<ReturnType<typeof testApp>>['app'];

const homes: string[] = [];
after(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

const post = async (app: App, url: string, payload: unknown) => {
  const response = await app.inject({ method: 'POST', url, payload: payload as Record<string, unknown> });
  return { status: response.statusCode, body: response.json() as Wire };
};
const SUBSCRIBE = '/api/v1/stream/subscribe/scanner';
const UNSUBSCRIBE = '/api/v1/stream/unsubscribe/scanner';
const body = (scanner: unknown, exchange = 'TSE') => ({ scanner, region: 'TW', security_type: 'STK', exchange });

describe('scanner subscriptions over HTTP', () => {
  // One gateway for these tests: a fresh one scans the whole exchange again on its first subscription (about 1 s).
  // Each test starts with nothing subscribed. Not volume_burst here: its threshold needs the previous day's trades of
  // the whole exchange (2 s more); the events test below has it.
  let app: App;
  let broker: Awaited<ReturnType<typeof testApp>>['broker'];
  before(async () => {
    ({ app, broker } = await testApp());
  });
  afterEach(async () => {
    const listed = (await app.inject('/api/v1/stream/subscriptions')).json();
    for (const scanner of listed.scanners) assert.equal((await post(app, UNSUBSCRIBE, scanner)).status, 200);
    for (const quote of listed.subscriptions) {
      assert.equal((await post(app, '/api/v1/stream/unsubscribe', quote)).status, 200, JSON.stringify(quote));
    }
  });
  after(() => app.close());

  test('a preset rule and a state subscribe and unsubscribe; unsubscribing what is not held says so', async () => {
    assert.deepEqual(await post(app, SUBSCRIBE, body({ kind: 'preset_rule', id: 'trade_price_drop' })), {
      status: 200,
      body: { success: true, message: 'Subscribed to the scanner trade_price_drop on TSE' },
    });
    assert.equal((await post(app, SUBSCRIBE, body('suspend', 'OTC'))).body.success, true);
    assert.deepEqual(Object.keys(broker.scanner.scanned()).sort(), ['OTC', 'TSE']);
    const listed = (await app.inject('/api/v1/stream/subscriptions')).json();
    assert.deepEqual(listed.scanners, [
      { scanner: 'trade_price_drop', region: 'TW', security_type: 'STK', exchange: 'TSE' },
      { scanner: 'suspend', region: 'TW', security_type: 'STK', exchange: 'OTC' },
    ]);
    assert.equal(listed.count, 2, 'scanners count among the held subscriptions');
    assert.deepEqual(await post(app, UNSUBSCRIBE, body({ kind: 'preset_rule', id: 'trade_price_drop' }, 'OTC')), {
      status: 200,
      body: { success: false, message: 'No scanner subscription of trade_price_drop on OTC' },
    });
    assert.deepEqual((await post(app, UNSUBSCRIBE, body({ kind: 'preset_rule', id: 'trade_price_drop' }))).body, {
      success: true,
      message: 'Unsubscribed from the scanner trade_price_drop on TSE',
    });
    assert.deepEqual(Object.keys(broker.scanner.scanned()), ['OTC'], 'TSE is no longer scanned');
  });

  test('the SDK preset object and a bare rule id are taken; a changed preset is a 400', async () => {
    const sdk = {
      id: 'trade_price_surge',
      formula_version: 1,
      window_ms: 1000,
      change_percent: '1',
      cooldown_ms: 1000,
    };
    assert.equal((await post(app, SUBSCRIBE, body(sdk))).status, 200);
    assert.equal((await post(app, SUBSCRIBE, body('bid_touch_limit_up'))).status, 200);
    const changed = await post(app, SUBSCRIBE, body({ ...sdk, window_ms: 200 }));
    assert.equal(changed.status, 400);
    assert.match(changed.body.message, /window_ms is 1000, not 200/);
  });

  test('an unknown rule or state is a 400 listing the allowed ones; a wrong scope or shape a 422', async () => {
    const unknown = await post(app, SUBSCRIBE, body({ kind: 'preset_rule', id: 'limit_up' }));
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error, 'INVALID_REQUEST');
    assert.match(unknown.body.message, /unknown scanner rule "limit_up".*bid_near_limit_up \| .*volume_burst/);
    assert.equal((await post(app, SUBSCRIBE, body('halted'))).status, 400);
    const cases: [unknown, RegExp][] = [
      [body('simtrade', 'TAIFEX'), /exchange/],
      [{ ...body('simtrade'), region: 'US' }, /region/],
      [{ ...body('simtrade'), security_type: 'FUT' }, /security_type/],
      [{ region: 'TW', security_type: 'STK', exchange: 'TSE' }, /scanner/],
      [body({ kind: 'preset_rule' }), /scanner/],
      [{ ...body('simtrade'), extra: 1 }, /extra/],
      [body('x'.repeat(100_000)), /scanner/],
      [body({ kind: 'preset_rule', id: 'y'.repeat(100_000) }), /scanner/],
    ];
    for (const [payload, field] of cases) {
      const bad = await post(app, SUBSCRIBE, payload);
      assert.equal(bad.status, 422, JSON.stringify(payload));
      assert.equal(bad.body.code, 422);
      assert.match(JSON.stringify(bad.body), field, JSON.stringify(payload).slice(0, 200));
      assert.ok(JSON.stringify(bad.body).length < 2_000, 'a long value is not echoed back');
    }
  });

  test('each scanner counts as one of the 200 subscriptions', async () => {
    for (const rule of ['trade_price_drop', 'bid_touch_limit_up']) {
      await post(app, SUBSCRIBE, body({ kind: 'preset_rule', id: rule }));
    }
    const stocks = (await app.inject('/api/v1/data/contracts?security_type=STK')).json();
    const codes = (stocks.contracts as { code: string }[]).map((c) => c.code).slice(0, 199);
    const answers: number[] = [];
    for (const code of codes)
      answers.push((await post(app, '/api/v1/stream/subscribe', { code, quote_type: 'Tick' })).status);
    assert.equal(answers.filter((status) => status === 200).length, 198);
    assert.equal(answers.at(-1), 429);
    assert.equal((await app.inject('/api/v1/stream/subscriptions')).json().count, 200);
    const over = await post(app, SUBSCRIBE, body('simtrade', 'OTC'));
    assert.equal(over.status, 429);
    assert.match(over.body.message, /at most 200 subscriptions/);
    await post(app, UNSUBSCRIBE, body({ kind: 'preset_rule', id: 'trade_price_drop' }));
    assert.equal((await post(app, SUBSCRIBE, body('simtrade', 'OTC'))).status, 200, 'a place was freed');
  });
});

describe('scanner events on the streams', () => {
  test('a signal comes as `scanner` on /stream/data/scanner and on the aggregate, and stops after unsubscribe', async () => {
    const { app, clock, broker } = await testApp();
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const url = (path: string) => `http://127.0.0.1:${port}${path}`;
    const dedicated = await connectSse(url('/api/v1/stream/data/scanner'));
    const aggregate = await connectSse(url('/api/v1/stream/data'));
    await post(app, SUBSCRIBE, body({ kind: 'preset_rule', id: 'volume_burst' }));
    const isScanner = (event: { event?: string | undefined }) => event.event === 'scanner';
    for (let i = 0; i < 600 && !dedicated.events.some(isScanner); i++) {
      clock.advance(1_000);
      broker.feed.step();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const [first] = await dedicated.waitFor(1, isScanner);
    const [same] = await aggregate.waitFor(1, isScanner);
    assert.equal(same!.data, first!.data);
    const data = JSON.parse(first!.data);
    assert.equal(data.scanner, 'volume_burst');
    assert.deepEqual(Object.keys(data.extra), ['amount', 'volume', 'price', 'threshold']);
    assert.equal(typeof data.quote.close, 'string');
    await post(app, UNSUBSCRIBE, body({ kind: 'preset_rule', id: 'volume_burst' }));
    const seen = aggregate.events.filter(isScanner).length;
    for (let i = 0; i < 120; i++) {
      clock.advance(1_000);
      broker.feed.step();
    }
    // A barrier instead of a pause: the aggregate carries every event in order, so once a tick of a later
    // subscription arrives on it, any signal of those 120 s would have arrived before.
    await post(app, '/api/v1/stream/subscribe', { code: '2330', quote_type: 'Tick' });
    const isTick = (event: { event?: string | undefined }) => event.event === 'tick_stk';
    for (let i = 0; i < 600 && !aggregate.events.some(isTick); i++) {
      clock.advance(1_000);
      broker.feed.step();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await aggregate.waitFor(1, isTick);
    assert.equal(aggregate.events.filter(isScanner).length, seen);
    dedicated.close();
    aggregate.close();
    await app.close();
  });
});

describe('scanner subscriptions across restarts', () => {
  async function gatewayOn(home: string) {
    const clock = new ManualClock(MONDAY_MORNING);
    const { gateway, broker } = simGateway({ clock, seed: 1, clockMode: 'always-open', apiKey: null });
    const app = await buildApp({
      gateway,
      bindHost: '127.0.0.1',
      rateLimits: false,
      identity: { version: 'test', scheme: 'http', protocols: ['HTTP/1.1'], startedAt: Date.now() },
      streams: { subscriptionsFile: join(home, 'subscriptions.json'), restore: true },
    });
    await app.ready();
    return { app, broker };
  }

  test('are saved with the quote subscriptions and scanned again after a restart', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sjgate-scanner-'));
    homes.push(home);
    const first = await gatewayOn(home);
    await post(first.app, SUBSCRIBE, body({ kind: 'preset_rule', id: 'limit_up_unlocked' }, 'OTC'));
    await post(first.app, SUBSCRIBE, body('simtrade'));
    await post(first.app, '/api/v1/stream/subscribe', { code: '2330', quote_type: 'Tick' });
    const saved = JSON.parse(readFileSync(join(home, 'subscriptions.json'), 'utf8'));
    assert.deepEqual(saved.scanners, [
      { scanner: 'limit_up_unlocked', region: 'TW', security_type: 'STK', exchange: 'OTC' },
      { scanner: 'simtrade', region: 'TW', security_type: 'STK', exchange: 'TSE' },
    ]);
    await first.app.close();

    const second = await gatewayOn(home);
    assert.deepEqual(second.app.streams.restored, { restored: 3, failed: [] });
    assert.deepEqual(Object.keys(second.broker.scanner.scanned()).sort(), ['OTC', 'TSE']);
    const again = await post(second.app, UNSUBSCRIBE, body('simtrade'));
    assert.equal(again.body.success, true, 'held again after the restart');
    await second.app.close();

    // A hand-edited file: what is not a scanner is reported and dropped, the rest restored.
    const edited = JSON.parse(readFileSync(join(home, 'subscriptions.json'), 'utf8'));
    edited.scanners.push({ scanner: 'moon', region: 'TW', security_type: 'STK', exchange: 'TSE' });
    writeFileSync(join(home, 'subscriptions.json'), JSON.stringify(edited));
    const third = await gatewayOn(home);
    assert.equal(third.app.streams.restored?.restored, 2);
    assert.deepEqual(
      third.app.streams.restored?.failed.map((f) => f.subscription),
      ['scanner:moon:TSE'],
    );
    await third.app.close();
  });
});
