// `sjgate auth subscribe-trade` against a fake daemon and against the gateway.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { type Fake, sjgate, streamingGateway, tradeSubscriptionDaemon } from '../../streaming.js';

describe('sjgate auth subscribe-trade', () => {
  let fake: Fake;
  before(async () => {
    fake = await tradeSubscriptionDaemon();
  });
  after(() => fake.close());

  test('without an account: every account of the user, one answer each', async () => {
    const run = await sjgate(fake.port, ['auth', 'subscribe-trade']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      fake.requests.slice(-3).map((request) => [request.url, request.body]),
      [
        ['/api/v1/auth/accounts', null],
        ['/api/v1/auth/subscribe_trade', { account_type: 'S', broker_id: '9A95', account_id: '6880831' }],
        ['/api/v1/auth/subscribe_trade', { account_type: 'F', broker_id: 'F002000', account_id: '1' }],
      ],
    );
    assert.match(run.stdout, /^account +S 9A95-6880831 \(sjgate\)\n[\s\S]*\n\naccount +F F002000-1 \(sjgate\)\n/);
    const json = await sjgate(fake.port, ['--format', 'json', 'auth', 'unsubscribe-trade']);
    assert.deepEqual(
      JSON.parse(json.stdout).map((answer: { subscribe_trade: boolean }) => answer.subscribe_trade),
      [false, false],
    );
  });

  test('--account-type S subscribes the default stock account and prints account, subscribe_trade and ts', async () => {
    const run = await sjgate(fake.port, ['auth', 'subscribe-trade', '--account-type', 'S']);
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
  const streaming = streamingGateway();

  test('auth subscribe-trade registers every account; --account-type S the default stock account', async () => {
    const every = await sjgate(streaming.port, ['auth', 'subscribe-trade']);
    assert.equal(every.code, 0, every.stderr);
    assert.match(every.stdout, /^account\s+S \S+-\S+/m);
    assert.match(every.stdout, /^account\s+F \S+-\S+/m);
    const run = await sjgate(streaming.port, ['auth', 'subscribe-trade', '--account-type', 'S']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^account\s+S \S+-\S+/m);
    assert.match(run.stdout, /^subscribe_trade\s+true$/m);
    assert.match(run.stdout, /^ts\s+2026-11-23 \d\d:\d\d:\d\d$/m);
    const json = await sjgate(streaming.port, ['--format', 'json', 'auth', 'subscribe-trade', '--account-type', 'S']);
    assert.equal((JSON.parse(json.stdout) as { subscribe_trade: boolean }).subscribe_trade, true);
  });
});
