// The streaming API: subscriptions (both body forms, the rules, the limit, persistence), subscribe_trade, the SSE
// streams fed by the simulator, resume with Last-Event-ID, and the status counts.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { appWithSubscriptions, testApp } from '../helpers/app.js';
import { connectSse } from '../helpers/sse.js';

type App = Awaited<ReturnType<typeof testApp>>['app'];

const homes: string[] = [];
after(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

async function post(app: App, url: string, payload: unknown) {
  const response = await app.inject({ method: 'POST', url, payload: payload as Record<string, unknown> });
  return { status: response.statusCode, body: response.json() };
}

async function listening() {
  const gateway = await testApp();
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = gateway.app.server.address() as { port: number };
  const url = (path: string) => `http://127.0.0.1:${port}${path}`;
  /** Moves the simulated market a few seconds on and publishes what traded. */
  const trade = (seconds = 5) => {
    gateway.clock.advance(seconds * 1000);
    gateway.broker.feed.step();
  };
  return { ...gateway, url, trade };
}

const TSMC_TICK = { security_type: 'STK', exchange: 'TSE', code: '2330', quote_type: 'Tick' };

describe('subscriptions', () => {
  it('subscribes with the flat body and echoes the subscription; twice is one subscription', async () => {
    const { app } = await testApp();
    const first = await post(app, '/api/v1/stream/subscribe', TSMC_TICK);
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, {
      success: true,
      message: 'Subscription successful',
      subscription: { ...TSMC_TICK, target_code: null, intraday_odd: false },
    });
    const again = await post(app, '/api/v1/stream/subscribe', { code: '2330', quote_type: 'Tick' });
    assert.deepEqual(again.body, first.body);
    const list = (await app.inject('/api/v1/stream/subscriptions')).json();
    assert.equal(list.count, 1);
    assert.equal(list.limit, 200);
  });

  it('takes the contract nested, a Contract as is, and resolves R1 to its target', async () => {
    const { app } = await testApp();
    const contract = (await app.inject('/api/v1/data/contracts/TXFR1')).json();
    const response = await post(app, '/api/v1/stream/subscribe', { contract, quote_type: 'BidAsk' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.subscription.code, 'TXFR1');
    assert.match(response.body.subscription.target_code, /^TXF[A-L]\d$/);
  });

  it('refuses what has no stream, naming the rule', async () => {
    const { app } = await testApp();
    const index = await post(app, '/api/v1/stream/subscribe', {
      security_type: 'IND',
      code: 'IX0001',
      quote_type: 'Tick',
    });
    assert.equal(index.status, 400);
    assert.match(index.body.message, /index.*Quote/i);
    const indexQuote = await post(app, '/api/v1/stream/subscribe', {
      security_type: 'IND',
      code: 'IX0001',
      quote_type: 'Quote',
    });
    assert.equal(indexQuote.status, 200);
    const both = await post(app, '/api/v1/stream/subscribe', { ...TSMC_TICK, contract: { code: '2330' } });
    assert.equal(both.status, 400);
    assert.match(both.body.message, /either flat .* or under "contract"/);
    const neither = await post(app, '/api/v1/stream/subscribe', { quote_type: 'Tick' });
    assert.equal(neither.status, 400);
    const badType = await post(app, '/api/v1/stream/subscribe', { code: '2330', quote_type: 'Trade' });
    assert.equal(badType.status, 422);
    assert.deepEqual(badType.body.details[0].loc, ['body', 'quote_type']);
    const unknown = await post(app, '/api/v1/stream/subscribe', { code: 'NOPE99', quote_type: 'Tick' });
    assert.equal(unknown.status, 404);
    assert.equal((await app.inject('/api/v1/stream/subscriptions')).json().count, 1, 'only the index quote is held');
  });

  it('subscribes to a futures combo and refuses an option combo', async () => {
    const { app } = await testApp();
    const spreads = (await app.inject('/api/v1/data/contracts/combo/futures?root=TXF')).json();
    const legs = spreads[0].legs.map(({ security_type, exchange, code }: Record<string, string>) => ({
      security_type,
      exchange,
      code,
    }));
    const combo = await post(app, '/api/v1/stream/subscribe', { contract: { legs }, quote_type: 'BidAsk' });
    assert.equal(combo.status, 200, JSON.stringify(combo.body));
    assert.equal(combo.body.subscription.contract.combo_type, 'TimeSpread');
    assert.equal(combo.body.subscription.intraday_odd, false);
    const options = (await app.inject('/api/v1/data/contracts/options?root=TXO')).json() as Record<string, unknown>[];
    const call = options.find((o) => o.option_right === 'C')!;
    const put = options.find(
      (o) => o.option_right === 'P' && o.strike_price === call.strike_price && o.delivery_date === call.delivery_date,
    )!;
    const optionLegs = [call, put].map((o) => ({ security_type: 'OPT', exchange: 'TAIFEX', code: o.code }));
    const refused = await post(app, '/api/v1/stream/subscribe', { contract: { legs: optionLegs }, quote_type: 'Tick' });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.match(refused.body.message, /option combo/i);
  });

  it('holds at most 200; the 201st fails clearly and the 200 stay', async () => {
    const { app, broker } = await testApp();
    const codes = broker.contracts
      .list('STK')
      .slice(0, 67)
      .map((c) => c.code);
    let held = 0;
    for (const code of codes) {
      for (const quote_type of ['Tick', 'BidAsk', 'Quote']) {
        if (held === 200) break;
        const response = await post(app, '/api/v1/stream/subscribe', { code, quote_type });
        assert.equal(response.status, 200, JSON.stringify(response.body));
        held++;
      }
    }
    const over = await post(app, '/api/v1/stream/subscribe', { code: '2454', quote_type: 'Tick', intraday_odd: true });
    assert.equal(over.status, 429);
    assert.equal(over.body.error, 'SUBSCRIPTION_LIMIT');
    assert.match(over.body.message, /at most 200 subscriptions/);
    assert.equal((await app.inject('/api/v1/stream/subscriptions')).json().count, 200);
    const existing = await post(app, '/api/v1/stream/subscribe', { code: codes[0], quote_type: 'Tick' });
    assert.equal(existing.status, 200, 'subscribing again to a held one is still fine at the limit');
  });

  it('unsubscribes; unsubscribing what is not held is success false with the reason', async () => {
    const { app } = await testApp();
    await post(app, '/api/v1/stream/subscribe', TSMC_TICK);
    const gone = await post(app, '/api/v1/stream/unsubscribe', TSMC_TICK);
    assert.deepEqual(
      { success: gone.body.success, message: gone.body.message },
      { success: true, message: 'Unsubscription successful' },
    );
    const notHeld = await post(app, '/api/v1/stream/unsubscribe', TSMC_TICK);
    assert.equal(notHeld.status, 200);
    assert.equal(notHeld.body.success, false);
    assert.match(notHeld.body.message, /Not subscribed/);
    assert.equal((await app.inject('/api/v1/stream/subscriptions')).json().count, 0);
  });

  it('subscribe_trade answers the account, the flag and a 14-digit ts; unknown accounts are 404', async () => {
    const { app } = await testApp();
    const [stock] = (await app.inject('/api/v1/auth/accounts')).json();
    const on = await post(app, '/api/v1/auth/subscribe_trade', { account_type: 'S' });
    assert.equal(on.status, 200);
    assert.deepEqual(on.body.account, stock);
    assert.equal(on.body.subscribe_trade, true);
    // An integer, as the 1.7.9 CLI reads it: YYYYMMDDHHMMSS, Taiwan time.
    assert.equal(on.body.ts, 20261123100000);
    assert.deepEqual((await app.inject('/api/v1/stream/subscriptions')).json().trade_accounts, [
      `${stock.broker_id}-${stock.account_id}`,
    ]);
    const off = await post(app, '/api/v1/auth/unsubscribe_trade', {
      broker_id: stock.broker_id,
      account_id: stock.account_id,
    });
    assert.equal(off.body.subscribe_trade, false);
    assert.deepEqual((await app.inject('/api/v1/stream/subscriptions')).json().trade_accounts, []);
    const unknown = await post(app, '/api/v1/auth/subscribe_trade', { broker_id: '9A95', account_id: '0000000' });
    assert.equal(unknown.status, 404);
  });
});

describe('SSE streams', () => {
  it('delivers ticks of a subscription on its dedicated stream, after the session ack', async () => {
    const { app, url, trade } = await listening();
    const stream = await connectSse(url('/api/v1/stream/data/tick_stk'));
    await post(app, '/api/v1/stream/subscribe', TSMC_TICK);
    const [ack] = await stream.waitFor(1, (e) => e.event === 'session');
    assert.deepEqual(JSON.parse(ack!.data), {
      resp_code: 200,
      event_code: 16,
      info: 'TIC/v1/STK/*/TSE/2330',
      event: 'Subscribe or Unsubscribe ok',
    });
    trade(30);
    const ticks = await stream.waitFor(1, (e) => e.event === 'tick_stk');
    const tick = JSON.parse(ticks[0]!.data);
    assert.equal(tick.code, '2330');
    assert.equal(typeof tick.close, 'string');
    assert.ok(
      ticks.every((e) => /^\d+-\d+$/.test(e.id!)),
      'every message has an id',
    );
    stream.close();
    await app.close();
  });

  it('the aggregate stream carries every family on one connection', async () => {
    const { app, url, trade } = await listening();
    const stream = await connectSse(url('/api/v1/stream/data'));
    await post(app, '/api/v1/stream/subscribe', TSMC_TICK);
    await post(app, '/api/v1/stream/subscribe', { code: 'TXFR1', quote_type: 'BidAsk' });
    await post(app, '/api/v1/stream/subscribe', { security_type: 'IND', code: 'IX0001', quote_type: 'Quote' });
    trade(30);
    for (const family of ['tick_stk', 'bidask_fop', 'quote_idx']) {
      await stream.waitFor(1, (e) => e.event === family);
    }
    stream.close();
    await app.close();
  });

  it('delivers order reports without subscribe_trade in simulation, and every missed one exactly once after a reconnect', async () => {
    const { app, url } = await listening();
    const order = (price: number) =>
      post(app, '/api/v1/order/place_order', {
        contract: { code: '2330' },
        stock_order: { action: 'Buy', price, quantity: 1, price_type: 'LMT', order_type: 'ROD' },
      });
    const unsubscribed = await connectSse(url('/api/v1/stream/data/order_event'));
    const before = await order(500);
    const [firstReport] = await unsubscribed.waitFor(1);
    assert.equal(
      JSON.parse(firstReport!.data).data.StockOrder.order.id,
      before.body.order.id,
      'the official simulation needs no subscribe_trade',
    );
    unsubscribed.close();

    await post(app, '/api/v1/auth/subscribe_trade', { account_type: 'S' });
    const first = await connectSse(url('/api/v1/stream/data/order_event'));
    const placed = await order(501);
    const [report] = await first.waitFor(1);
    assert.equal(JSON.parse(report!.data).state, 'StockOrder');
    assert.equal(JSON.parse(report!.data).data.StockOrder.order.id, placed.body.order.id);
    first.close();
    await first.closed;
    const missed: string[] = [];
    for (let n = 0; n < 5; n++) missed.push((await order(502 + n)).body.order.id);
    const again = await connectSse(url('/api/v1/stream/data/order_event'), { 'last-event-id': report!.id! });
    const replayed = await again.waitFor(5);
    assert.deepEqual(
      replayed.map((e) => JSON.parse(e.data).data.StockOrder.order.id),
      missed,
    );
    const live = await order(510);
    await again.waitFor(6);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(
      again.events.map((e) => JSON.parse(e.data).data.StockOrder.order.id),
      [...missed, live.body.order.id],
    );
    again.close();
    await app.close();
  });

  it('answers a Last-Event-ID it never sent with a 400 envelope', async () => {
    const { app, url } = await listening();
    const stream = await connectSse(url('/api/v1/stream/data/tick_stk'), { 'last-event-id': 'yesterday' });
    assert.equal(stream.status, 400);
    const body = JSON.parse(await stream.errorBody());
    assert.equal(body.code, 400);
    assert.match(body.message, /Last-Event-ID 'yesterday'/);
    await app.close();
  });

  it('counts attached clients per stream, up and back down', { timeout: 20_000 }, async () => {
    const { app, url } = await listening();
    const status = async () => (await app.inject('/api/v1/stream/status')).json();
    assert.equal((await status()).active_connections, 0);
    const a = await connectSse(url('/api/v1/stream/data'));
    const b = await connectSse(url('/api/v1/stream/data/tick_fop'));
    const c = await connectSse(url('/api/v1/stream/data/order_event'));
    const up = await status();
    assert.equal(up.active_connections, 3);
    assert.deepEqual([up.streams.data, up.streams.tick_fop, up.streams.order_event, up.streams.tick_stk], [1, 1, 1, 0]);
    a.close();
    b.close();
    c.close();
    // Back down once the server sees the sockets close (within the test's time limit, however loaded the machine).
    while ((await status()).active_connections > 0) await new Promise((r) => setTimeout(r, 20));
    const down = await status();
    assert.deepEqual([down.streams.data, down.streams.tick_fop, down.streams.order_event], [0, 0, 0]);
    await app.close();
  });
});

describe('subscriptions across restarts', () => {
  const gatewayOn = appWithSubscriptions;

  it('restores quote and report subscriptions after a restart unless told not to', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sjgate-subs-'));
    homes.push(home);
    const first = await gatewayOn(home);
    await post(first, '/api/v1/stream/subscribe', TSMC_TICK);
    await post(first, '/api/v1/stream/subscribe', { code: 'TXFR1', quote_type: 'Quote' });
    await post(first, '/api/v1/auth/subscribe_trade', { account_type: 'F' });
    const before = (await first.inject('/api/v1/stream/subscriptions')).json();
    await first.close();

    const second = await gatewayOn(home);
    assert.deepEqual((await second.inject('/api/v1/stream/subscriptions')).json(), before);
    assert.deepEqual(second.streams.restored, { restored: 3, failed: [] });
    await second.close();

    const third = await gatewayOn(home, false);
    assert.equal((await third.inject('/api/v1/stream/subscriptions')).json().count, 0);
    await third.close();
  });

  it('starts with a damaged subscriptions file, reporting it, and writes a good one again', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sjgate-subs-'));
    homes.push(home);
    writeFileSync(join(home, 'subscriptions.json'), '{"version": 1, "quotes": [');
    const app = await gatewayOn(home);
    assert.equal(app.streams.restored?.failed.length, 1);
    assert.match(app.streams.restored!.failed[0]!.reason, /JSON/);
    await post(app, '/api/v1/stream/subscribe', TSMC_TICK);
    assert.equal(JSON.parse(readFileSync(join(home, 'subscriptions.json'), 'utf8')).quotes.length, 1);
    await app.close();
  });
});
