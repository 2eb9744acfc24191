// `sjgate auth unsubscribe-trade` against a fake daemon.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Fake, sjgate, tradeSubscriptionDaemon } from '../../streaming.js';

describe('sjgate auth unsubscribe-trade', () => {
  let fake: Fake;
  before(async () => {
    fake = await tradeSubscriptionDaemon();
  });
  after(() => fake.close());

  test('--account and --account-type go in the body; --format json prints the answer as it is', async () => {
    const args = [
      '--format',
      'json',
      'auth',
      'unsubscribe-trade',
      '--account-type',
      'F',
      '--account',
      'F002000-5234661',
    ];
    const run = await sjgate(fake.port, args);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(fake.requests.at(-1)?.body, { account_type: 'F', broker_id: 'F002000', account_id: '5234661' });
    const answer = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.equal(answer.subscribe_trade, false);
    assert.equal(answer.ts, '20261123100001');
  });
});
