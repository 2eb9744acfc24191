// What the whole-market figures read of a stock's day (index breadth, index components and contributions, the
// scanner rankings, the daily quotes): when each trade was published, at what price, and the volume and turnover so
// far. A digest is about half its tape's memory and holds no book, so every listed stock's digest of the day can be
// kept while the tapes themselves stay in the bounded tape cache, built only for what is queried or subscribed and
// evicted when cold.

import { publishedCount, type Tape } from './tape.js';

export interface TapeDigest {
  /** Epoch microseconds of each trade, in order (the tape's). */
  times: Float64Array;
  prices: Float64Array;
  /** Turnover (NT$) after each trade: amounts[k] is the sum over trades 0..k. */
  amounts: Float64Array;
  /** Volume after each trade: totalVolumes[k] is the sum over trades 0..k. */
  totalVolumes: Float64Array;
}

export function digestOf(tape: Tape): TapeDigest {
  const amounts = new Float64Array(tape.times.length);
  const totalVolumes = new Float64Array(tape.times.length);
  let amount = 0;
  let volume = 0;
  for (let k = 0; k < tape.times.length; k++) {
    amount += tape.prices[k]! * tape.volumes[k]! * tape.amountUnit;
    volume += tape.volumes[k]!;
    amounts[k] = amount;
    totalVolumes[k] = volume;
  }
  return { times: tape.times.slice(), prices: tape.prices.slice(), amounts, totalVolumes };
}

/** The day so far of a digest's first count trades: as the snapshot and daily quotes count them from the tape. */
export function digestStats(digest: TapeDigest, count: number) {
  let high = Number.NEGATIVE_INFINITY;
  let low = Number.POSITIVE_INFINITY;
  for (let k = 0; k < count; k++) {
    const price = digest.prices[k]!;
    if (price > high) high = price;
    if (price < low) low = price;
  }
  const traded = count > 0;
  return {
    count,
    open: traded ? digest.prices[0]! : 0,
    high: traded ? high : 0,
    low: traded ? low : 0,
    close: traded ? digest.prices[count - 1]! : 0,
    volume: traded ? digest.totalVolumes[count - 1]! : 0,
    amount: traded ? digest.amounts[count - 1]! : 0,
  };
}

/** How many of the digest's trades are published at an instant (epoch ms), as publishedCount counts a tape's. */
export const digestCount = (digest: TapeDigest, epochMs: number): number => publishedCount(digest, epochMs);

/** The digests of the last two days asked for (today's, and yesterday's around the day change), by code. */
export class DigestCache {
  private readonly days = new Map<string, Map<string, TapeDigest>>();

  get(code: string, day: string, tapeOf: () => Tape): TapeDigest {
    let digests = this.days.get(day);
    if (!digests) {
      digests = new Map();
      this.days.set(day, digests);
      if (this.days.size > 2) this.days.delete(this.days.keys().next().value!);
    }
    let digest = digests.get(code);
    if (!digest) {
      digest = digestOf(tapeOf());
      digests.set(code, digest);
    }
    return digest;
  }
}
