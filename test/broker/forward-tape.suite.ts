import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { forwardTimesByRate, rateBins } from '../../src/broker/sim/market/activity.js';
import { countTrades, forwardTape } from '../../src/broker/sim/market/forward-tape.js';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { Rng } from '../../src/broker/sim/market/rng.js';
import { publishedCount, type Tape } from '../../src/broker/sim/market/tape.js';
import { tapeBytes } from '../../src/broker/sim/market/tape-cache.js';
import { taipeiInstant } from '../../src/domain/time.js';
import { flatForwardDay } from '../helpers/forward-day.js';

// On the always-open clock a stock's tape is drawn forward in time: the trades up to an instant are built without
// the rest of the day, and are exactly the first trades of the whole day's tape.

const FRIDAY = '2026-11-20';
const ARRAYS = ['times', 'prices', 'volumes', 'bidPrices', 'bidVolumes', 'askPrices', 'askVolumes', 'tickTypes'];

const whole = new SimMarket(1, 'always-open');

function assertPrefixOf(prefix: Tape, full: Tape, untilMs: number) {
  const count = publishedCount(full, untilMs);
  assert.equal(prefix.times.length, count, `trades up to ${new Date(untilMs).toISOString()}`);
  for (const name of ARRAYS) {
    const expected = (full[name as keyof Tape] as Float64Array).slice(0, count);
    assert.deepEqual(prefix[name as keyof Tape], expected, `${prefix.code} ${name} up to ${untilMs}`);
  }
  assert.equal(prefix.amountUnit, full.amountUnit);
}

/** Instants around trades of a tape and its first sweeps: at a trade, just before, and 6 ms after (a whole sweep). */
function instantsAround(full: Tape, samples: number): number[] {
  const n = full.times.length;
  const picks: number[] = [];
  for (let i = 0; i < samples; i++) picks.push(Math.floor(((i + 0.5) / samples) * n));
  let sweeps = 0;
  for (let k = 0; k + 1 < n && sweeps < 3; k++) {
    if (full.times[k + 1]! - full.times[k]! === 800) {
      picks.push(k);
      sweeps++;
      k += 8;
    }
  }
  assert.ok(sweeps > 0, `${full.code} has sweeps`);
  return picks.flatMap((k) => [full.times[k]! / 1000, full.times[k]! / 1000 + 6, full.times[k]! / 1000 - 0.001]);
}

describe('always-open tapes drawn forward', () => {
  test('the trades up to any instant are the first trades of the whole day, sweeps included', () => {
    for (const code of ['2330', '1101']) {
      const info = whole.listings.stockOn(code, FRIDAY);
      const full = whole.tape(info, FRIDAY);
      const fresh = new SimMarket(1, 'always-open');
      for (const untilMs of instantsAround(full, 3))
        assertPrefixOf(fresh.builder.buildUntil(info, FRIDAY, untilMs), full, untilMs);
    }
  });

  test('before the session there are no trades; after its close the whole day, ending at the close', () => {
    const info = whole.listings.stockOn('2317', FRIDAY);
    const full = whole.tape(info, FRIDAY);
    const session = whole.session('stock', FRIDAY);
    const fresh = new SimMarket(1, 'always-open');
    assert.equal(fresh.builder.buildUntil(info, FRIDAY, session.continuous[0]!.start - 1).times.length, 0);
    const after = fresh.builder.buildUntil(info, FRIDAY, session.end + 60_000);
    assertPrefixOf(after, full, session.end + 60_000);
    assert.equal(after.times.length, full.times.length);
    assert.equal(after.prices.at(-1), whole.daily.closeOf('2317', FRIDAY));
  });

  test("early on Friday a busy stock's trades so far take a small part of its Friday-to-Monday tape", () => {
    const info = whole.listings.stockOn('2330', FRIDAY);
    const full = whole.tape(info, FRIDAY);
    const prefix = new SimMarket(1, 'always-open').builder.buildUntil(info, FRIDAY, taipeiInstant(FRIDAY, '04:00'));
    assert.ok(prefix.times.length > 1000, `${prefix.times.length} trades by 04:00`);
    assert.ok(tapeBytes(prefix) < tapeBytes(full) / 10, `${tapeBytes(prefix)} of ${tapeBytes(full)} bytes`);
  });

  test('the exchange clock cuts the whole tape', () => {
    const exchange = new SimMarket(1, 'exchange');
    const info = exchange.listings.stockOn('2330', FRIDAY);
    const untilMs = taipeiInstant(FRIDAY, '10:00');
    const prefix = new SimMarket(1, 'exchange').builder.buildUntil(info, FRIDAY, untilMs);
    assertPrefixOf(prefix, exchange.tape(info, FRIDAY), untilMs);
  });
});

describe('the forward draws', () => {
  const HOUR = 3_600_000;

  test('trade times drawn one at a time are sorted and spread as the rate says', () => {
    // Twice as busy in the second hour: two thirds of the trades fall there, evenly within each hour.
    const bins = rateBins([{ start: 0, end: 2 * HOUR }], (t) => (t < HOUR ? 1 : 2));
    const count = 30_000;
    const next = forwardTimesByRate(bins, count, new Rng('times'));
    const times = Array.from({ length: count }, next);
    assert.ok(Number.isNaN(next()), 'no trade after the last');
    for (let k = 1; k < count; k++) assert.ok(times[k]! >= times[k - 1]!);
    const share = (fromMs: number, toMs: number) =>
      times.filter((us) => us >= fromMs * 1000 && us < toMs * 1000).length / count;
    assert.ok(Math.abs(share(HOUR, 2 * HOUR) - 2 / 3) < 0.01, `${share(HOUR, 2 * HOUR)} in the busier hour`);
    assert.ok(Math.abs(share(0, HOUR / 2) - 1 / 6) < 0.01, `${share(0, HOUR / 2)} in the first half hour`);
  });

  test("the own noise is a bridge drawn forward: the variance of s(1-s) of the day's, none at the end", () => {
    // A flat trend at 100 and a wide tick grid far from the limits, so the fair value is the own noise alone.
    const volatility = 0.02;
    const middle: number[] = [];
    const late: number[] = [];
    for (let run = 0; run < 300; run++) {
      const day = flatForwardDay({ keys: ['bridge', run], volatility });
      const tape = forwardTape(day, countTrades(day), Number.POSITIVE_INFINITY);
      const mid = (tape.bidPrices[tape.times.length >> 1]! + tape.askPrices[tape.times.length >> 1]!) / 2;
      const n = tape.times.length;
      middle.push(Math.log(mid / 100));
      late.push(Math.log((tape.bidPrices[n - 2]! + tape.askPrices[n - 2]!) / 2 / 100));
    }
    const variance = (values: number[]) => values.reduce((a, v) => a + v * v, 0) / values.length;
    const expected = volatility ** 2 * 0.25;
    assert.ok(Math.abs(variance(middle) / expected - 1) < 0.25, `${variance(middle)} against ${expected} at midday`);
    assert.ok(variance(late) < expected / 10, `${variance(late)} just before the close`);
  });
});
