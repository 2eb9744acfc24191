import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { portfolioDaemon } from './fixtures.js';

describe('sjgate portfolio settlements against a fake daemon', () => {
  const daemon = portfolioDaemon();
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  const sent = () => seen.map((s) => [s.method, s.url, s.body]);

  test('settlements: one row per day, T first', async () => {
    const run = await sjgate('portfolio', 'settlements');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/settlements', { account_type: 'S' }]]);
    assert.match(run.stdout, /T\s*│\s*date\s*│\s*amount/);
    assert.match(run.stdout, /1\s*│\s*2026-11-24\s*│\s*-2027885\.5/);
    assert.match(run.stdout, /2\s*│\s*2026-11-25\s*│\s*636782/);
  });
});
