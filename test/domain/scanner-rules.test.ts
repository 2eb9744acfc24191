// The market scanner's rules on crafted books and trades: each fires on the change it names and not otherwise;
// the subscribe body's scanner forms and their refusals.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  cooledDown,
  limitSignals,
  priceMove,
  scannerIdOf,
  ticksBetween,
  volumeBurstThreshold,
} from '../../src/domain/scanner-rules.js';
import { STOCK_TICKS } from '../../src/domain/ticks.js';

// A NT$50 stock: ticks of 0.05 from 10 to 50, 0.1 from 50 to 100. Reference 50, limits 55 and 45.
const LIMITS = { limitUp: 55, limitDown: 45, ticks: STOCK_TICKS };
const rules = (before: { bid: number; ask: number }, after: { bid: number; ask: number }) =>
  limitSignals(before, after, LIMITS).map((signal) => signal.rule);
const us = (ms: number) => ms * 1000;

describe('the limit rules', () => {
  test('bid_near_limit_up fires when the best bid rises into the two ticks below limit-up, once', () => {
    assert.deepEqual(rules({ bid: 54.5, ask: 54.6 }, { bid: 54.8, ask: 54.9 }), ['bid_near_limit_up']);
    const [signal] = limitSignals({ bid: 54.5, ask: 54.6 }, { bid: 54.8, ask: 54.9 }, LIMITS);
    assert.deepEqual(signal!.extra, { previous_best_price: 54.5, trigger_price: 54.8, limit_price: 55 });
    assert.deepEqual(rules({ bid: 54.8, ask: 54.9 }, { bid: 54.9, ask: 55 }), [], 'already near');
    assert.deepEqual(rules({ bid: 54.5, ask: 54.6 }, { bid: 54.7, ask: 54.8 }), [], 'three ticks away');
    assert.deepEqual(rules({ bid: 55, ask: 0 }, { bid: 54.9, ask: 55 }), ['limit_up_unlocked'], 'falling back');
  });

  test('bid_touch_limit_up fires when the best bid reaches limit-up; limit_up_unlocked when the ask reopens', () => {
    assert.deepEqual(rules({ bid: 54.9, ask: 55 }, { bid: 55, ask: 0 }), ['bid_touch_limit_up']);
    assert.deepEqual(
      rules({ bid: 54.5, ask: 54.6 }, { bid: 55, ask: 0 }),
      ['bid_touch_limit_up'],
      'a jump: touch only',
    );
    assert.deepEqual(rules({ bid: 55, ask: 0 }, { bid: 55, ask: 0 }), [], 'still locked');
    const [unlocked] = limitSignals({ bid: 55, ask: 0 }, { bid: 54.9, ask: 55 }, LIMITS);
    assert.deepEqual(unlocked, {
      rule: 'limit_up_unlocked',
      extra: { previous_best_price: null, trigger_price: 55, limit_price: 55 },
    });
    assert.deepEqual(rules({ bid: 54.9, ask: 55 }, { bid: 54.85, ask: 54.9 }), [], 'not locked before');
  });

  test('the limit-down rules are the mirror on the ask', () => {
    assert.deepEqual(rules({ bid: 45.4, ask: 45.5 }, { bid: 45.05, ask: 45.1 }), ['ask_near_limit_down']);
    assert.deepEqual(rules({ bid: 45.05, ask: 45.1 }, { bid: 0, ask: 45 }), ['ask_touch_limit_down']);
    const [unlocked] = limitSignals({ bid: 0, ask: 45 }, { bid: 45, ask: 45.05 }, LIMITS);
    assert.deepEqual(unlocked, {
      rule: 'limit_down_unlocked',
      extra: { previous_best_price: null, trigger_price: 45, limit_price: 45 },
    });
    assert.deepEqual(rules({ bid: 49.9, ask: 50 }, { bid: 49.95, ask: 50.1 }), [], 'an ordinary book fires nothing');
  });

  test('ticks are counted on the grid across a band boundary', () => {
    assert.equal(ticksBetween(STOCK_TICKS, 49.9, 50.2), 4, '49.95, 50, 50.1, 50.2');
    assert.equal(ticksBetween(STOCK_TICKS, 50, 50), 0);
  });
});

describe('the price-move rules', () => {
  const points = [
    { timeUs: us(0), price: 50 },
    { timeUs: us(400), price: 50.1 },
    { timeUs: us(600), price: 49.9 },
  ];

  test('a rise of at least 1% and 3 ticks over the lowest price of the last second', () => {
    const move = priceMove(points, { timeUs: us(900), price: 50.5 }, 1, STOCK_TICKS);
    assert.deepEqual(move, {
      reference: { timeUs: us(600), price: 49.9 },
      change_price: 0.6,
      change_percent: 1.2,
      tick_change: 7,
      elapsed_ms: 300,
    });
  });

  test('too small, too few ticks, too late or the wrong way fires nothing', () => {
    assert.equal(priceMove(points, { timeUs: us(900), price: 50.3 }, 1, STOCK_TICKS), null, '0.8%');
    assert.equal(priceMove(points, { timeUs: us(1_700), price: 50.5 }, 1, STOCK_TICKS), null, 'window passed');
    assert.equal(priceMove(points, { timeUs: us(900), price: 50.5 }, -1, STOCK_TICKS), null, 'a rise is no drop');
    // 1% but only two ticks: NT$1,000 stock at a tick of 5, from 1000 to 1010.
    const big = [{ timeUs: us(0), price: 1000 }];
    assert.equal(priceMove(big, { timeUs: us(500), price: 1010 }, 1, STOCK_TICKS), null);
    assert.ok(priceMove(big, { timeUs: us(500), price: 1015 }, 1, STOCK_TICKS));
  });

  test('a drop is measured from the highest price of the window', () => {
    const move = priceMove(points, { timeUs: us(900), price: 49.5 }, -1, STOCK_TICKS);
    assert.equal(move?.reference.price, 50.1);
    assert.equal(move?.tick_change, -11);
    assert.equal(move?.change_percent, -1.2);
  });

  test('cooldowns: 1 s for price moves, 5 s for volume_burst, none for limit rules', () => {
    assert.equal(cooledDown('trade_price_surge', us(0), us(999)), false);
    assert.equal(cooledDown('trade_price_surge', us(0), us(1_000)), true);
    assert.equal(cooledDown('volume_burst', us(0), us(4_999)), false);
    assert.equal(cooledDown('bid_touch_limit_up', us(0), us(1)), true);
    assert.equal(cooledDown('volume_burst', undefined, us(0)), true);
  });
});

describe('volume_burst threshold', () => {
  test('the 99.9th percentile of the previous day, floored to a million, at least NT$10 million', () => {
    const values = Array.from({ length: 10_000 }, (_, i) => (i + 1) * 20_000);
    assert.equal(volumeBurstThreshold(values), 199_000_000);
    assert.equal(volumeBurstThreshold([1, 2, 3]), 10_000_000);
    assert.equal(volumeBurstThreshold([]), 10_000_000);
  });
});

describe('the scanner a subscribe body names', () => {
  test('states, the official {kind, id}, the SDK preset object and a bare rule id', () => {
    assert.equal(scannerIdOf('simtrade'), 'simtrade');
    assert.equal(scannerIdOf('suspend'), 'suspend');
    assert.equal(scannerIdOf({ kind: 'preset_rule', id: 'volume_burst' }), 'volume_burst');
    assert.equal(scannerIdOf('limit_up_unlocked'), 'limit_up_unlocked');
    const sdk = {
      id: 'trade_price_surge',
      formula_version: 1,
      window_ms: 1000,
      change_percent: '1',
      minimum_tick_change: 3,
      cooldown_ms: 1000,
    };
    assert.equal(scannerIdOf(sdk), 'trade_price_surge');
  });

  test('an unknown rule or kind, or a preset changed, is refused listing what is allowed', () => {
    assert.throws(() => scannerIdOf({ kind: 'preset_rule', id: 'moon' }), /unknown scanner rule "moon".*volume_burst/);
    assert.throws(() => scannerIdOf('halted'), /unknown scanner "halted".*"simtrade", "suspend"/);
    assert.throws(() => scannerIdOf({ kind: 'custom', id: 'volume_burst' }), /unknown scanner kind "custom"/);
    assert.throws(
      () => scannerIdOf({ kind: 'preset_rule', id: 'trade_price_surge', window_ms: 5000 }),
      /fixed preset: window_ms is 1000, not 5000/,
    );
    assert.throws(() => scannerIdOf({ id: 'volume_burst', window_ms: 1000 }), /takes no parameter "window_ms"/);
  });
});
