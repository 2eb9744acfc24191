// The monitor's latency histograms: every duration falls in a bucket whose bounds hold it, and a quantile read from
// the histogram is within 12.5 % of the exact one, never above the largest duration.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { boundsOf, bucketOf, type Histogram, quantile, record } from '../../src/server/monitor/histogram.js';

describe('log-linear histogram', () => {
  test('each duration lies within its bucket, and buckets grow by one eighth of their power of two', () => {
    for (const us of [0, 1, 7, 8, 9, 15, 16, 100, 1_000, 65_535, 1_000_000, 2 ** 32 + 5, 3_600_000_000]) {
      const { low, width } = boundsOf(bucketOf(us));
      assert.ok(low <= us && us < low + width, `${us} in [${low}, ${low + width})`);
      assert.ok(width === 1 || width <= low / 8 + 1e-9, `${us}: width ${width} of ${low}`);
    }
    assert.ok(bucketOf(3_600_000_000) < 400, 'an hour in µs is bucket < 400');
  });

  test('quantiles are within 12.5 % of the exact ones and never above the maximum', () => {
    let seed = 42;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    // Latencies of a long tail: mostly fractions of a millisecond, some of seconds.
    const values = Array.from({ length: 20_000 }, () => Math.round(50 * Math.exp(next() * 10)));
    const histogram: Histogram = new Map();
    for (const value of values) record(histogram, value);
    const sorted = [...values].sort((a, b) => a - b);
    const max = sorted.at(-1)!;
    for (const q of [0.5, 0.9, 0.95, 0.99, 1]) {
      const exact = sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
      const read = quantile(histogram, q, max)!;
      assert.ok(Math.abs(read - exact) / exact <= 0.125, `p${q * 100}: ${read} vs ${exact}`);
      assert.ok(read <= max);
    }
    assert.equal(quantile(new Map(), 0.5), null);
  });
});
