import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { formatProfitLossSummary } from '../../../../src/cli/commands/portfolio/profit-loss-summary.js';
import { EXIT } from '../../../../src/cli/context.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { STOCK_SUMMARY } from '../../../helpers/portfolio-fixtures.js';
import { portfolioDaemon } from './fixtures.js';

describe('formatProfitLossSummary', () => {
  test('the summary prints its rows and then the total', () => {
    const text = formatProfitLossSummary(STOCK_SUMMARY);
    assert.match(
      text,
      /2317\s*│\s*3\s*│\s*210\s*│\s*212\.5\s*│\s*4711\.75\s*│\s*0\.74\s*│\s*630898\s*│\s*635680\s*│\s*Cash/,
    );
    const total = text.slice(text.indexOf('total'));
    assert.match(total, /entry_amount\s+630000/);
    assert.match(total, /pnl\s+4711\.75/);
  });
});

describe('sjgate portfolio profit-loss-summary against a fake daemon', () => {
  const daemon = portfolioDaemon();
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  test('--format json prints the answer as the API sent it', async () => {
    const run = await sjgate('--format', 'json', 'portfolio', 'profit-loss-summary', '--begin-date', '2026-11-02');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), STOCK_SUMMARY);
    const body = seen[0]?.body as Record<string, string>;
    assert.equal(body.begin_date, '2026-11-02');
    assert.match(body.end_date ?? '', /^\d{4}-\d{2}-\d{2}$/);
  });

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [
      [['portfolio', 'profit-loss-summary', '--end-date', '2000-01-01'], /is after --end-date 2000-01-01/],
    ]);
  });

  test('--json FIELDS keeps those fields of the answer', async () => {
    const run = await sjgate('portfolio', 'profit-loss-summary', '--begin-date', '2026-11-02', '--json', 'total');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { total: STOCK_SUMMARY.total });
    const wrong = await sjgate('portfolio', 'profit-loss-summary', '--json', 'sum');
    assert.equal(wrong.code, EXIT.usage);
    assert.match(wrong.stderr, /unknown JSON field: "sum"\navailable fields:\n {2}profitloss_sum\n {2}total\n/);
  });
});
