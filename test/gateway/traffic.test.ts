import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { DAILY_LIMIT_BYTES, DailyTraffic, trafficDayOf } from '../../src/gateway/traffic.js';

const MB = 1024 * 1024;
// Thursday 2026-06-18 trades; Friday 06-19 is the Dragon Boat Festival, then a weekend; Monday 06-22 trades.
const THURSDAY_NOON = taipeiInstant('2026-06-18', '12:00');

describe('daily traffic', () => {
  test('counts bytes of the day and reports what is left, never below zero', () => {
    const traffic = new DailyTraffic(new ManualClock(THURSDAY_NOON), 1000);
    assert.equal(traffic.used(), 0);
    traffic.record(300);
    traffic.record(200);
    assert.equal(traffic.used(), 500);
    assert.equal(traffic.remaining(), 500);
    traffic.record(900);
    assert.equal(traffic.used(), 1400);
    assert.equal(traffic.remaining(), 0);
  });

  test('is exhausted exactly when the count reaches the limit', () => {
    const traffic = new DailyTraffic(new ManualClock(THURSDAY_NOON), 1000);
    traffic.record(999);
    assert.equal(traffic.exhausted(), false);
    traffic.record(1);
    assert.equal(traffic.exhausted(), true);
  });

  test('resets at 08:00 of the next trading day, not before', () => {
    const clock = new ManualClock(taipeiInstant('2026-06-17', '13:00'));
    const traffic = new DailyTraffic(clock, 1000);
    traffic.record(1000);
    clock.set(taipeiInstant('2026-06-18', '07:59:59'));
    assert.equal(traffic.used(), 1000);
    assert.equal(traffic.exhausted(), true);
    clock.set(taipeiInstant('2026-06-18', '08:00'));
    assert.equal(traffic.used(), 0);
    assert.equal(traffic.exhausted(), false);
  });

  test('does not reset at 08:00 of a holiday or a weekend day', () => {
    const clock = new ManualClock(THURSDAY_NOON);
    const traffic = new DailyTraffic(clock, 1000);
    traffic.record(1000);
    for (const date of ['2026-06-19', '2026-06-20', '2026-06-21']) {
      clock.set(taipeiInstant(date, '09:00'));
      assert.equal(traffic.used(), 1000, date);
      assert.equal(traffic.exhausted(), true, date);
    }
    clock.set(taipeiInstant('2026-06-22', '07:59'));
    assert.equal(traffic.used(), 1000);
    clock.set(taipeiInstant('2026-06-22', '08:00'));
    assert.equal(traffic.used(), 0);
  });

  test('an instant belongs to the latest trading day whose 08:00 is at or before it', () => {
    assert.equal(trafficDayOf(taipeiInstant('2026-06-18', '08:00')), '2026-06-18');
    assert.equal(trafficDayOf(taipeiInstant('2026-06-18', '07:59')), '2026-06-17');
    assert.equal(trafficDayOf(taipeiInstant('2026-06-21', '23:00')), '2026-06-18');
    assert.equal(trafficDayOf(taipeiInstant('2026-06-22', '00:30')), '2026-06-18');
  });
});

describe('usage metered by the gateway', () => {
  test('reports the bytes of the day against the 500 MB limit', () => {
    const clock = new ManualClock(THURSDAY_NOON);
    const traffic = new DailyTraffic(clock, DAILY_LIMIT_BYTES);
    assert.deepEqual(traffic.usage(), {
      connections: 1,
      bytes: 0,
      limit_bytes: 500 * MB,
      remaining_bytes: 500 * MB,
    });
    traffic.record(12_345);
    assert.deepEqual(traffic.usage(), {
      connections: 1,
      bytes: 12_345,
      limit_bytes: 500 * MB,
      remaining_bytes: 500 * MB - 12_345,
    });
    assert.equal(traffic.exhausted(), false);
  });

  test('is exhausted at the limit and starts afresh the next trading morning', () => {
    const clock = new ManualClock(THURSDAY_NOON);
    const traffic = new DailyTraffic(clock, DAILY_LIMIT_BYTES);
    traffic.record(DAILY_LIMIT_BYTES - 1);
    assert.equal(traffic.exhausted(), false);
    traffic.record(10);
    assert.equal(traffic.exhausted(), true);
    assert.equal(traffic.usage().remaining_bytes, 0);
    assert.equal(traffic.usage().bytes, DAILY_LIMIT_BYTES + 9);
    clock.set(taipeiInstant('2026-06-22', '08:00'));
    assert.equal(traffic.exhausted(), false);
    assert.equal(traffic.usage().bytes, 0);
  });
});
