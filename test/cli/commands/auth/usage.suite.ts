import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatUsage } from '../../../../src/cli/commands/auth/usage.js';

describe('formatUsage', () => {
  test('usage reads like the official CLI', () => {
    const gb = 1024 ** 3;
    const text = formatUsage({ connections: 1, bytes: gb / 4, limit_bytes: 2 * gb, remaining_bytes: 1.75 * gb });
    const lines = text.split('\n');
    assert.match(lines[0] ?? '', /API Usage/);
    assert.equal(lines[1], 'Connections: 1');
    assert.equal(lines[2], `Data Used: 256.00 MB / 2.00 GB [${'#'.repeat(3)}${'.'.repeat(17)}] 12.50%`);
    assert.equal(lines[3], 'Remaining: 1.75 GB');
  });

  test('usage with no limit shows 0%', () => {
    assert.match(formatUsage({ connections: 0, bytes: 0, limit_bytes: 0, remaining_bytes: 0 }), / 0\.00%/);
  });
});
