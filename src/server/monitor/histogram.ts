// Latency histograms in microseconds with log-linear buckets: eight buckets per power of two, so a quantile read from
// one is within 12.5 % of the true value, and a histogram never holds more than ~330 buckets whatever it counts.
// Histograms are sparse (only the buckets that were hit), so a minute of one endpoint costs a few entries.

/** Sub-buckets per power of two (2^3). */
const SUB_BITS = 3;
const SUB = 1 << SUB_BITS;

/** The bucket of a duration in µs (negative and fractional values count as their floor, at least 0). */
export function bucketOf(us: number): number {
  const v = Math.max(0, Math.floor(us));
  if (v < SUB) return v;
  // The power of two below v: exact with clz32 up to 2^32 µs (71 minutes), and log2 beyond.
  const exponent = v < 2 ** 32 ? 31 - Math.clz32(v) : Math.floor(Math.log2(v));
  const shift = exponent - SUB_BITS;
  const sub = Math.floor(v / 2 ** shift) - SUB;
  return SUB + shift * SUB + sub;
}

/** The lowest duration a bucket holds, and its width. */
export function boundsOf(bucket: number): { low: number; width: number } {
  if (bucket < SUB) return { low: bucket, width: 1 };
  const shift = Math.floor((bucket - SUB) / SUB);
  const sub = (bucket - SUB) % SUB;
  return { low: (SUB + sub) * 2 ** shift, width: 2 ** shift };
}

/** A sparse histogram: bucket → count. */
export type Histogram = Map<number, number>;

export function record(histogram: Histogram, us: number): void {
  const bucket = bucketOf(us);
  histogram.set(bucket, (histogram.get(bucket) ?? 0) + 1);
}

/** Adds `from` into `into`. */
export function merge(into: Histogram, from: Histogram): void {
  for (const [bucket, count] of from) into.set(bucket, (into.get(bucket) ?? 0) + count);
}

/**
 * The value at quantile q (0..1) in µs: the middle of the bucket that holds the q-th of the counts, never above
 * `max` when given (the largest duration seen). Null for an empty histogram.
 */
export function quantile(histogram: Histogram, q: number, max?: number): number | null {
  let total = 0;
  for (const count of histogram.values()) total += count;
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  const buckets = [...histogram.keys()].sort((a, b) => a - b);
  let seen = 0;
  for (const bucket of buckets) {
    seen += histogram.get(bucket) ?? 0;
    if (seen >= rank) {
      const { low, width } = boundsOf(bucket);
      const middle = width === 1 ? low : Math.round(low + width / 2);
      return max === undefined ? middle : Math.min(middle, max);
    }
  }
  return null;
}

export interface Quantiles {
  p50_us: number | null;
  p90_us: number | null;
  p95_us: number | null;
  p99_us: number | null;
}

export function quantilesOf(histogram: Histogram, max?: number): Quantiles {
  return {
    p50_us: quantile(histogram, 0.5, max),
    p90_us: quantile(histogram, 0.9, max),
    p95_us: quantile(histogram, 0.95, max),
    p99_us: quantile(histogram, 0.99, max),
  };
}
