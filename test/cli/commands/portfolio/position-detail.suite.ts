import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { portfolioDaemon } from './fixtures.js';

describe('sjgate portfolio position-detail against a fake daemon', () => {
  const daemon = portfolioDaemon();
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  const sent = () => seen.map((s) => [s.method, s.url, s.body]);

  test('an API error is exit 1 with its message, and the envelope with --format json', async () => {
    const run = await sjgate('portfolio', 'position-detail', '--detail-id', '7');
    assert.equal(run.code, EXIT.error);
    assert.deepEqual(sent(), [['POST', '/api/v1/portfolio/position_detail', { detail_id: 7 }]]);
    assert.match(run.stderr, /error: no position with detail_id 7/);
    const json = await sjgate('--format', 'json', 'portfolio', 'position-detail', '--detail-id', '7');
    assert.deepEqual(JSON.parse(json.stdout), {
      code: 404,
      error: 'POSITION_NOT_FOUND',
      message: 'no position with detail_id 7',
      details: null,
    });
  });

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [
      [['portfolio', 'position-detail'], /required option '--detail-id <ID>'/],
      [['portfolio', 'position-detail', '--detail-id', 'x'], /--detail-id.*expected an integer from 0/],
    ]);
  });
});
