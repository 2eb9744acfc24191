import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { formatTradingLimits } from '../../../../src/cli/commands/portfolio/trading-limits.js';
import { TRADING_LIMITS } from '../../../helpers/portfolio-fixtures.js';
import { portfolioDaemon } from './fixtures.js';

describe('formatTradingLimits', () => {
  test('trading limits: one row each for trading, margin and short', () => {
    const text = formatTradingLimits(TRADING_LIMITS);
    assert.match(text, /type\s*│\s*limit\s*│\s*used\s*│\s*available/);
    assert.match(text, /trading\s*│\s*10000000\s*│\s*2027886\s*│\s*7972114/);
    assert.match(text, /margin\s*│\s*5000000\s*│\s*0\s*│\s*5000000/);
    assert.match(text, /short\s*│\s*4000000\s*│\s*12000\s*│\s*3988000/);
  });
});

describe('sjgate portfolio trading-limits against a fake daemon', () => {
  const daemon = portfolioDaemon();
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  const sent = () => seen.map((s) => [s.method, s.url, s.body]);

  test('--format json prints the limits as the API sent them', async () => {
    const limits = await sjgate('--format', 'json', 'portfolio', 'trading-limits');
    assert.deepEqual(JSON.parse(limits.stdout), TRADING_LIMITS);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/trading_limits', { account_type: 'S' }]]);
  });
});
