import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { taipeiDate } from '../../../../src/cli/parsers.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { portfolioDaemon } from './fixtures.js';

describe('sjgate portfolio profit-loss against a fake daemon', () => {
  const daemon = portfolioDaemon();
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  test('profit-loss sends today in Taiwan for dates not given, or the dates given', async () => {
    const before = taipeiDate();
    const run = await sjgate('portfolio', 'profit-loss');
    const afterwards = taipeiDate();
    assert.equal(run.code, EXIT.ok, run.stderr);
    const body = seen[0]?.body as Record<string, string>;
    assert.ok([before, afterwards].includes(body.begin_date ?? ''), JSON.stringify(body));
    assert.deepEqual(body, { begin_date: body.begin_date, end_date: body.begin_date });
    assert.match(
      run.stdout,
      /0\s*│\s*2026-11-23\s*│\s*2317\s*│\s*3\s*│\s*212\.5\s*│\s*4711\.75\s*│\s*0\.74\s*│\s*Cash\s*│\s*WA372/,
    );

    const dated = await sjgate('portfolio', 'profit-loss', '--begin-date', '2026-11-02', '--end-date', '2026-11-20');
    assert.equal(dated.code, EXIT.ok, dated.stderr);
    assert.deepEqual(seen[0]?.body, { begin_date: '2026-11-02', end_date: '2026-11-20' });
  });

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [
      [['portfolio', 'profit-loss', '--begin-date', '2026/11/02'], /--begin-date.*YYYY-MM-DD/],
      [['portfolio', 'profit-loss', '--begin-date', '2026-11-20', '--end-date', '2026-11-02'], /is after --end-date/],
    ]);
  });
});
