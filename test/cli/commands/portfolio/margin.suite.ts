import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { FUTURES_ACCOUNT, portfolioDaemon } from './fixtures.js';

describe('sjgate portfolio margin against a fake daemon', () => {
  const daemon = portfolioDaemon();
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  const sent = () => seen.map((s) => [s.method, s.url, s.body]);

  test('margin asks about the futures account and prints one value per line', async () => {
    const margin = await sjgate('portfolio', 'margin', '--account', 'F002000-5234661');
    assert.equal(margin.code, EXIT.ok, margin.stderr);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/margin', { account_type: 'F', ...FUTURES_ACCOUNT }]]);
    assert.match(margin.stdout, /risk_indicator\s+622\.1\n/);
    assert.match(margin.stdout, /available_margin\s+1681550/);
  });

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [[['portfolio', 'margin', '--unit', 'share'], /unknown option '--unit'/]]);
  });
});
