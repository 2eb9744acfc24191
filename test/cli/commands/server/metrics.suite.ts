import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { envelope, fakeDaemon } from '../../../helpers/cli.js';

const METRICS = {
  window: { from: '2026-11-23T01:45:00.000Z', to: '2026-11-23T02:00:00.000Z', source: 'incoming', origin: 'user' },
  totals: {
    requests: 12,
    errors: 3,
    error_rate: 0.25,
    per_second: 0.0133,
    p50_us: 410,
    p95_us: 1250,
    p99_us: 5300,
  },
  matched: 2,
  endpoints: [
    {
      method: 'GET',
      endpoint: '/api/v1/data/contracts/:code',
      requests: 9,
      errors: 3,
      p50_us: 400,
      p95_us: 1200,
      p99_us: 5000,
    },
    {
      method: 'POST',
      endpoint: '/api/v1/order/place_order',
      requests: 3,
      errors: 0,
      p50_us: 900,
      p95_us: null,
      p99_us: null,
    },
  ],
  coverage: { complete: false, from_ms: Date.parse('2026-11-23T01:50:00Z'), capturing: true },
  persistence: { persistence_error: null },
};

describe('sjgate server metrics against a fake daemon', () => {
  const daemon = fakeDaemon(({ url }) =>
    url.includes('window=6h') ? envelope('VALIDATION_FAILED', 'invalid request: query.window') : [200, METRICS],
  );
  const { seen, sjgate } = daemon;
  before(() => daemon.start());
  after(() => daemon.stop());

  test('asks for the last 15 minutes of user requests and shows totals and endpoints in ms', async () => {
    const run = await sjgate('server', 'metrics');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.equal(seen.at(-1)?.url, '/api/v1/monitor/metrics?window=15m&source=incoming&origin=user&limit=20');
    assert.match(run.stdout, /requests\s+12/);
    assert.match(run.stdout, /errors\s+3 \(25\.0%\)/);
    assert.match(run.stdout, /latency_ms\s+p50 0\.41 {2}p95 1\.25 {2}p99 5\.30/);
    assert.match(run.stdout, /coverage\s+from 2026-11-23T01:50:00\.000Z/);
    assert.match(run.stdout, /GET \/api\/v1\/data\/contracts\/:code[│\s]+9[│\s]+3[│\s]+0\.40[│\s]+1\.20[│\s]+5\.00/);
    assert.match(run.stdout, /POST \/api\/v1\/order\/place_order[│\s]+3[│\s]+0[│\s]+0\.90[│\s]+-[│\s]+-/);
  });

  test('passes the options on; --json prints the answer or the fields asked for', async () => {
    const run = await sjgate(
      'server',
      'metrics',
      '--window',
      '1h',
      '--source',
      'backend',
      '--origin',
      'all',
      '--sort',
      'slowest',
      '--category',
      'orders',
      '--limit',
      '5',
      '--json',
      'totals',
    );
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.equal(
      seen.at(-1)?.url,
      '/api/v1/monitor/metrics?window=1h&source=backend&origin=all&limit=5&sort=slowest&category=orders',
    );
    assert.deepEqual(JSON.parse(run.stdout), { totals: METRICS.totals });
  });

  test('refuses a window it does not know before asking; shows the API error otherwise', async () => {
    const wrong = await sjgate('server', 'metrics', '--window', '2d');
    assert.equal(wrong.code, EXIT.usage);
    assert.match(wrong.stderr, /expected one of 5m, 15m, 1h, 6h, 24h/);
    const refused = await sjgate('server', 'metrics', '--window', '6h');
    assert.equal(refused.code, EXIT.error);
    assert.match(refused.stderr, /error: invalid request: query\.window/);
  });
});

test('sjgate server metrics with no daemon running is exit 3 and starts none', async () => {
  const gone = fakeDaemon(() => [200, METRICS]);
  await gone.start();
  await gone.stop();
  const run = await gone.sjgate('server', 'metrics');
  assert.equal(run.code, EXIT.notRunning, run.stderr);
  assert.match(run.stderr, /no daemon is running/);
  assert.equal(run.stdout, '');
});
