// `sjgate data index-components`: the body it sends, the table of components (most points first) or of groups,
// and the whole answer with --format json; against a fake daemon.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { formatIndexComponents } from '../../../../src/cli/commands/data/index-components.js';
import { EXIT } from '../../../../src/cli/context.js';
import { type Fake, fakeServer, json, sjgate } from '../../streaming.js';

const entry = (code: string, category: string, points: number) => ({
  contract: { security_type: 'STK', region: 'TW', exchange: 'TSE', code, target_code: null },
  category,
  price: 100,
  reference: 100,
  price_chg: 0,
  pct_chg: 0,
  points,
  reference_weight_ppm: 500_000,
  total_amount: 1000,
  amount_share_bps: 5000,
  price_source: 'regular',
  trading_status: 'active',
  data_status: 'live',
  source_at: null,
});

const ANSWER = {
  contract: { security_type: 'IND', region: 'TW', exchange: 'TSE', code: 'IX0001', target_code: null },
  entries: [entry('2330', '24', 1.5), entry('2884', '17', -3.25)],
  groups: [{ category: '17', name: '金融保險業', item_count: 1, points: -3.25 }],
};

describe('sjgate data index-components', () => {
  const fakes: Fake[] = [];
  after(async () => {
    await Promise.all(fakes.map((fake) => fake.close()));
  });

  test('components with the most points (either way) first, or the groups', () => {
    const table = formatIndexComponents(ANSWER, false, false);
    assert.ok(table.indexOf('2884') < table.indexOf('2330'), table);
    assert.match(table, /weight_ppm/);
    assert.match(formatIndexComponents(ANSWER, true, false), /金融保險業/);
  });

  test('asks for --index and prints the answer as it is with --format json; an error is the daemon’s', async () => {
    const fake = await fakeServer((_req, res, request) => {
      const code = (request.body as { contract: { code: string } }).contract.code;
      if (code === '2330') {
        return json(res, 400, {
          code: 400,
          error: 'INVALID_REQUEST',
          message: 'IX0001 and IX0043 only',
          details: null,
        });
      }
      json(res, 200, ANSWER);
    });
    fakes.push(fake);
    const run = await sjgate(fake.port, ['--format', 'json', 'data', 'index-components', '--index', 'IX0043']);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), ANSWER);
    assert.deepEqual(
      fake.requests.map((request) => [request.method, request.url, request.body]),
      [['POST', '/api/v1/data/index_components', { contract: { code: 'IX0043' } }]],
    );
    const refused = await sjgate(fake.port, ['data', 'index-components', '--index', '2330']);
    assert.equal(refused.code, EXIT.error);
    assert.equal(refused.stderr, 'error: IX0001 and IX0043 only\n');
  });
});
