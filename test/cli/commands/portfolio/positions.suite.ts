import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { portfolioDaemon, STOCK_ACCOUNT } from './fixtures.js';

describe('sjgate portfolio positions against a fake daemon', () => {
  const daemon = portfolioDaemon();
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  const sent = () => seen.map((s) => [s.method, s.url, s.body]);

  test('positions: stock columns by default, futures columns with --account-type F, --unit share', async () => {
    const stock = await sjgate('portfolio', 'positions', '--unit', 'share', '--account', '9A95-6880831');
    assert.equal(stock.code, EXIT.ok, stock.stderr);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/position_unit', { ...STOCK_ACCOUNT, unit: 'Share' }]]);
    assert.match(
      stock.stdout,
      /0\s*│\s*2330\s*│\s*Buy\s*│\s*2\s*│\s*2\s*│\s*1012\.5\s*│\s*1025\s*│\s*24137\.25\s*│\s*Cash/,
    );
    const futures = await sjgate('portfolio', 'positions', '--account-type', 'f');
    assert.equal(futures.code, EXIT.ok, futures.stderr);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/position_unit', { account_type: 'F' }]]);
    assert.match(futures.stdout, /3\s*│\s*TXFL6\s*│\s*Sell\s*│\s*1\s*│\s*22810\s*│\s*22795\s*│\s*3000/);
    assert.doesNotMatch(futures.stdout, /yd_quantity/);
  });

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [
      [['portfolio', 'positions', '--unit', 'lots'], /--unit.*expected one of common, share/],
      [['portfolio', 'positions', '--account', '12345'], /BROKER-ACCOUNT/],
      [['portfolio', 'positions', '--account', '9A95-'], /BROKER-ACCOUNT/],
      [['portfolio', 'positions', '--account-type', 'H'], /expected one of S, F/],
    ]);
  });
});
