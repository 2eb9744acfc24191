import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { countTrades, ForwardDraw } from '../../src/broker/sim/market/forward-tape.js';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { OpenStockDays } from '../../src/broker/sim/market/open-stock-days.js';
import { MOST_SWEEP_LEVELS } from '../../src/broker/sim/market/sweeps.js';
import { publishedCount, TAPE_ARRAYS, type Tape } from '../../src/broker/sim/market/tape.js';
import { tradeStats } from '../../src/broker/sim/market/tape-digest.js';
import { flatForwardDay } from '../helpers/forward-day.js';

// A stock's always-open draw is kept where it stopped: asking for a later instant draws only the trades in between,
// and whatever the order of the instants asked for, each answer is exactly the start of the whole day's tape.

const FRIDAY = '2026-11-20';
const market = new SimMarket(1, 'always-open');
const freshDays = (bounds?: { count: number; bytes: number }) =>
  new OpenStockDays(1, market.daily, market.factors, (code, day) => market.builder.stockVolume(code, day), bounds);

const bytesOf = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

/** Asserts a tape is the first trades of the whole day's tape up to an instant, array by array. */
function assertPrefixOf(prefix: Tape, full: Tape, untilMs: number) {
  const count = publishedCount(full, untilMs);
  assert.equal(prefix.times.length, count, `${prefix.code}: trades up to ${new Date(untilMs).toISOString()}`);
  for (const name of TAPE_ARRAYS) {
    const same = bytesOf(prefix[name]).equals(bytesOf(full[name].subarray(0, count)));
    assert.ok(same, `${prefix.code} ${name} up to ${new Date(untilMs).toISOString()}`);
  }
}

/** Copies of a tape's arrays, to check later that the tape was never changed. */
const copyOf = (tape: Tape) => TAPE_ARRAYS.map((name) => tape[name].slice());

/** The trades where a sweep starts: the next trade prints 800 µs later. */
function sweepStarts(full: Tape): number[] {
  const starts: number[] = [];
  for (let k = 0; k + 1 < full.times.length; k++) if (full.times[k + 1]! - full.times[k]! === 800) starts.push(k++);
  return starts;
}

describe('always-open draws extended', () => {
  for (const [code, runs] of [
    ['2330', 6],
    ['1101', 40],
  ] as const) {
    const info = market.listings.stockOn(code, FRIDAY);
    const full = market.tape(info, FRIDAY);
    const n = full.times.length;
    const starts = sweepStarts(full);
    const closeMs = full.times[n - 1]! / 1000;
    // An instant near a trade: at it, just before it, inside a sweep starting there, or around the close.
    const instant = fc.oneof(
      fc.record({ k: fc.nat(n - 1), offset: fc.constantFrom(0, -0.001, 6) }),
      fc.record({ k: fc.constantFrom(...starts), offset: fc.constantFrom(0, 0.0008, 0.0016, 0.002) }),
      fc.record({ k: fc.constant(n - 1), offset: fc.constantFrom(-1, -0.001, 0, 1_000) }),
    );
    const atInstant = ({ k, offset }: { k: number; offset: number }) => full.times[k]! / 1000 + offset;

    test(`${code}: any chain of instants gives the start of the whole day, and no tape given changes`, () => {
      assert.ok(starts.length > 10, `${code} has sweeps`);
      fc.assert(
        fc.property(fc.array(instant, { minLength: 1, maxLength: 8 }), fc.boolean(), (picks, inOrder) => {
          const instants = picks.map(atInstant);
          if (inOrder) instants.sort((a, b) => a - b);
          const days = freshDays();
          const given = instants.map((untilMs) => {
            const tape = days.tape(info, FRIDAY, untilMs);
            assertPrefixOf(tape, full, untilMs);
            return { tape, copy: copyOf(tape) };
          });
          for (const { tape, copy } of given) {
            for (const [i, name] of TAPE_ARRAYS.entries())
              assert.ok(bytesOf(tape[name]).equals(bytesOf(copy[i]!)), name);
          }
        }),
        { numRuns: runs, seed: 18 },
      );
      const days = freshDays();
      const first = days.tape(info, FRIDAY, closeMs - 1);
      assertPrefixOf(first, full, closeMs - 1);
      const again = days.tape(info, FRIDAY, closeMs);
      assert.equal(again.times.buffer, first.times.buffer, "the day's draw is kept and extended");
      for (const untilMs of [closeMs, closeMs + 1]) assertPrefixOf(days.tape(info, FRIDAY, untilMs), full, untilMs);
    });

    test(`${code}: figures drawn without keeping trades, at instants in order, are the day's so far`, () => {
      fc.assert(
        fc.property(fc.array(instant, { minLength: 1, maxLength: 6 }), (picks) => {
          const days = freshDays();
          for (const untilMs of picks.map(atInstant).sort((a, b) => a - b)) {
            const { lastAtUs, lastVolume, bid, ask, bidVolume, askVolume, ...stats } = days.figures(
              info,
              FRIDAY,
              untilMs,
            );
            assert.deepEqual(stats, tradeStats(full, publishedCount(full, untilMs)), new Date(untilMs).toISOString());
          }
        }),
        { numRuns: runs, seed: 22 },
      );
    });
  }

  test("figures drawn without keeping the trades are the whole day's figures so far, in little memory", () => {
    const info = market.listings.stockOn('2330', FRIDAY);
    const full = market.tape(info, FRIDAY);
    const n = full.times.length;
    const days = freshDays();
    // In order: a minute in, inside sweeps, a day later, just before and after the close; then back to the start.
    const starts = sweepStarts(full);
    const instants = [
      full.times[0]! / 1000 + 60_000,
      full.times[starts[5]!]! / 1000,
      full.times[starts[5]!]! / 1000 + 1,
    ];
    instants.push(full.times[n >> 1]! / 1000, full.times[n - 2]! / 1000, full.times[n - 1]! / 1000, instants[0]!);
    for (const untilMs of instants) {
      const figures = days.figures(info, FRIDAY, untilMs);
      const count = publishedCount(full, untilMs);
      const { lastAtUs, lastVolume, bid, ask, bidVolume, askVolume, ...stats } = figures;
      assert.deepEqual(stats, tradeStats(full, count), new Date(untilMs).toISOString());
      const last = count - 1;
      assert.deepEqual(
        [lastAtUs, lastVolume, bid, ask, bidVolume, askVolume],
        [
          full.times[last],
          full.volumes[last],
          full.bidPrices[last],
          full.askPrices[last],
          full.bidVolumes[last],
          full.askVolumes[last],
        ],
      );
    }
    // A day of some 20,000 trades (1.1 MB of arrays) is counted in a few thousand trades' arrays.
    const busy = syntheticDay(30_000);
    const draw = new ForwardDraw(busy, countTrades(busy), false);
    assert.equal(draw.figuresUntil(Number.POSITIVE_INFINITY).count, countTrades(busy) + 1);
    assert.ok(draw.bytes < 150_000, `${draw.bytes} bytes for a whole day's figures`);
    assert.throws(() => draw.until(0), /keeps no trades/);
  });

  test('extending every few seconds draws each trade once', () => {
    const day = syntheticDay();
    let drawsOfFairValue = 0;
    const shareAt = (ms: number) => {
      drawsOfFairValue++;
      return day.shareAt(ms);
    };
    const counted = { ...day, shareAt };
    const trades = countTrades(day);
    const draw = new ForwardDraw(counted, trades);
    const whole = new ForwardDraw(day, trades).until(Number.POSITIVE_INFINITY);
    let last: Tape | null = null;
    const arrays = new Set<ArrayBufferLike>();
    for (let ms = 0; ms <= day.closeAtMs + 5_000; ms += 5_000) {
      last = draw.until(ms);
      arrays.add(last.times.buffer);
      assertPrefixOf(last, whole, ms);
      if (last.times.length <= trades)
        assert.ok(drawsOfFairValue <= last.times.length + MOST_SWEEP_LEVELS + 1, `${ms}`);
    }
    assert.equal(last!.times.length, trades + 1);
    assert.equal(drawsOfFairValue, trades);
    // The arrays grow by doubling: a few copies over the day, not one for each extension.
    assert.ok(arrays.size <= Math.ceil(Math.log2(trades + 1)), `${arrays.size} arrays for ${trades} trades`);
  });

  test('the draws kept are bounded by count and by bytes, the most recently used kept', () => {
    const codes = ['2330', '2317', '1101', '2409', '0050', '2454'];
    const infos = codes.map((code) => market.listings.stockOn(code, FRIDAY));
    const untilMs = market.session('stock', FRIDAY).continuous[0]!.start + 3_600_000;
    const byCount = freshDays({ count: 3, bytes: Number.POSITIVE_INFINITY });
    for (const info of infos) byCount.tape(info, FRIDAY, untilMs);
    assert.equal(byCount.kept.count, 3);
    const byBytes = freshDays({ count: 100, bytes: 200_000 });
    for (const info of infos) {
      byBytes.tape(info, FRIDAY, untilMs);
      assert.ok(byBytes.kept.count === 1 || byBytes.kept.bytes <= 200_000, `${byBytes.kept.bytes} bytes kept`);
    }
    assert.ok(byBytes.kept.count < codes.length, `${byBytes.kept.count} draws kept`);
    // Growing a kept draw counts: the whole day of one busy name is past the bound, so it is the only one left.
    byBytes.tape(infos[0]!, FRIDAY, Number.POSITIVE_INFINITY);
    assert.equal(byBytes.kept.count, 1);
  });
});

/** A four-hour day around 100 on the stock tick grid, quotes a tick wider now and then: 600 trades, more for more lots. */
const syntheticDay = (volume = 900) =>
  flatForwardDay({ keys: ['extend'], volume, quoteShape: () => ({ spreadChanceAt: () => 0.1, bestDepthScale: 1 }) });
