// `sjgate auth subscribe-trade` against a fake daemon and against the gateway.

import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { testApp } from '../../../helpers/app.js';
import { type Fake, fakeServer, json, STOCK_ACCOUNT, sjgate } from '../../streaming.js';

describe('sjgate auth subscribe-trade', () => {
  let fake: Fake;
  before(async () => {
    fake = await fakeServer((_req, res, request) => {
      const body = request.body as Record<string, string>;
      json(res, 200, {
        account: { ...STOCK_ACCOUNT, account_type: body.account_type, ...(body.broker_id ? body : {}) },
        subscribe_trade: request.url.endsWith('/subscribe_trade'),
        ts: '20261123100001',
      });
    });
  });
  after(() => fake.close());

  test('subscribes the default stock account and prints account, subscribe_trade and ts', async () => {
    const run = await sjgate(fake.port, ['auth', 'subscribe-trade']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(fake.requests.at(-1), {
      method: 'POST',
      url: '/api/v1/auth/subscribe_trade',
      lastEventId: undefined,
      body: { account_type: 'S' },
    });
    assert.equal(
      run.stdout,
      'account          S 9A95-6880831 (sjgate)\nsubscribe_trade  true\nts               2026-11-23 10:00:01\n',
    );
  });

  test('a bad --account is a usage error', async () => {
    const run = await sjgate(fake.port, ['auth', 'subscribe-trade', '--account', '9A95']);
    assert.equal(run.code, EXIT.usage);
    assert.match(run.stderr, /BROKER-ACCOUNT/);
  });
});

describe('auth subscribe-trade against the gateway', () => {
  let gateway: Awaited<ReturnType<typeof testApp>>;
  let port: number;
  let market: NodeJS.Timeout;

  before(async () => {
    gateway = await testApp();
    await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    port = (gateway.app.server.address() as AddressInfo).port;
    // The simulated market runs a minute every 20 ms, so ticks come at once.
    market = setInterval(() => {
      gateway.clock.advance(60_000);
      gateway.broker.feed.step();
    }, 20);
  });
  after(async () => {
    clearInterval(market);
    await gateway.app.close();
    await gateway.broker.close();
  });

  const _api = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
    const response = await gateway.app.inject({ method, url, ...(payload === undefined ? {} : { payload }) });
    return response.json() as Record<string, unknown>;
  };

  test('auth subscribe-trade registers the default stock account', async () => {
    const run = await sjgate(port, ['auth', 'subscribe-trade']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^account\s+S \S+-\S+/m);
    assert.match(run.stdout, /^subscribe_trade\s+true$/m);
    assert.match(run.stdout, /^ts\s+2026-11-23 \d\d:\d\d:\d\d$/m);
    const json = await sjgate(port, ['--format', 'json', 'auth', 'subscribe-trade']);
    assert.equal((JSON.parse(json.stdout) as { subscribe_trade: boolean }).subscribe_trade, true);
  });
});
