import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { portfolioDaemon } from './fixtures.js';

describe('sjgate portfolio balance against a fake daemon', () => {
  const daemon = portfolioDaemon();
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  const sent = () => seen.map((s) => [s.method, s.url, s.body]);

  test('balance asks about the stock account and prints one value per line', async () => {
    const balance = await sjgate('portfolio', 'balance');
    assert.equal(balance.code, EXIT.ok, balance.stderr);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/account_balance', { account_type: 'S' }]]);
    assert.match(balance.stdout, /acc_balance\s+9487262\.5\n/);
    assert.match(balance.stdout, /date\s+2026-11-23 10:00:00\.000000\n/);
  });

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [
      [['portfolio', 'balance', '--account-type', 'F'], /unknown option '--account-type'/],
    ]);
  });
});
