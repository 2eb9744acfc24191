// npm run bench keeps every result under bench/results/ and the newest of each benchmark in latest.json.

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { saveResult } from '../../bench/results.js';

const dir = mkdtempSync(join(tmpdir(), 'sjgate-bench-results-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('keeps every run in its own file and the newest of each benchmark in latest.json', () => {
  const first = saveResult(
    { benchmark: 'sse-live', p99: 30 },
    'sse-live.bench.ts',
    null,
    new Date('2026-11-26T20:00:00Z'),
    dir,
  );
  saveResult({ benchmark: 'sse-live', p99: 9 }, 'sse-live.bench.ts', null, new Date('2026-11-26T21:00:00Z'), dir);
  saveResult({ ratio: 1.4 }, 'orders.bench.ts', 2, new Date('2026-11-26T21:00:01Z'), dir);
  assert.equal(first, join(dir, '2026-11-26T20-00-00-000Z-sse-live.json'));
  assert.deepEqual(readdirSync(dir).sort(), [
    '2026-11-26T20-00-00-000Z-sse-live.json',
    '2026-11-26T21-00-00-000Z-sse-live.json',
    '2026-11-26T21-00-01-000Z-orders-2.json',
    'latest.json',
  ]);
  const latest = JSON.parse(readFileSync(join(dir, 'latest.json'), 'utf8'));
  assert.deepEqual(Object.keys(latest), ['orders-2', 'sse-live']);
  assert.deepEqual(latest['sse-live'].result, { benchmark: 'sse-live', p99: 9 });
  assert.equal(latest['sse-live'].at, '2026-11-26T21:00:00.000Z');
  assert.equal(typeof latest['sse-live'].machine.cores, 'number');
  const older = JSON.parse(readFileSync(first, 'utf8'));
  assert.equal(older.result.p99, 30, 'the earlier run is kept for comparison');
});
