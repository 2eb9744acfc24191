import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { portfolioDaemon } from './fixtures.js';

describe('sjgate portfolio profit-loss-detail against a fake daemon', () => {
  const daemon = portfolioDaemon();
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  const sent = () => seen.map((s) => [s.method, s.url, s.body]);

  test('profit-loss-detail sends detail_id and the account type', async () => {
    const detail = await sjgate('portfolio', 'profit-loss-detail', '--detail-id', '0', '--account-type', 'F');
    assert.equal(detail.code, EXIT.ok, detail.stderr);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/profit_loss_detail', { account_type: 'F', detail_id: 0 }]]);
    assert.match(
      detail.stdout,
      /2026-11-23\s*│\s*MXFL6\s*│\s*Buy\s*│\s*2\s*│\s*2026-11-20\s*│\s*22780\s*│\s*22815\s*│\s*1400/,
    );
  });

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [
      [['portfolio', 'profit-loss-detail', '--detail-id', '-1'], /expected an integer from 0/],
    ]);
  });
});
