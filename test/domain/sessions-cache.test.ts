// tradingSession and sessionDayAt keep their last answers (issue 22): the kept answers must be those computed afresh,
// at every minute around each day boundary, in both clock modes, and a kept session must not be changeable.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tradingDayOnOrBefore } from '../../src/domain/calendar.js';
import { contractDayAt, stockListingDayAt } from '../../src/domain/listing.js';
import { type ClockMode, type MarketKind, sessionDayAt, tradingSession } from '../../src/domain/sessions.js';
import { taipeiDate, taipeiInstant } from '../../src/domain/time.js';

const MODES: ClockMode[] = ['exchange', 'always-open'];
const MARKETS: MarketKind[] = ['stock', 'futures'];

function freshDayAt(market: MarketKind, epochMs: number, mode: ClockMode): string {
  if (market === 'futures') return contractDayAt(epochMs);
  return mode === 'always-open' ? tradingDayOnOrBefore(taipeiDate(epochMs)) : stockListingDayAt(epochMs);
}

describe('session caches', () => {
  test('sessionDayAt answers as computed afresh, second by second around the listing refreshes and midnight', () => {
    // A Friday into the weekend and Monday: midnight, 08:00 (stock listing) and 14:45 (futures listing) boundaries.
    const instants: number[] = [];
    for (const day of ['2026-11-20', '2026-11-21', '2026-11-23']) {
      for (const time of ['00:00', '07:59', '08:00', '14:44', '14:45', '23:59']) {
        const at = taipeiInstant(day, time);
        for (let s = -90; s <= 90; s += 15) instants.push(at + s * 1000);
      }
    }
    // Back and forth, and the markets and modes interleaved, so that each answer follows another one kept.
    for (const epochMs of [...instants, ...instants.reverse()]) {
      for (const market of MARKETS) {
        for (const mode of MODES) {
          assert.equal(sessionDayAt(market, epochMs, mode), freshDayAt(market, epochMs, mode), `${market} ${mode}`);
        }
      }
    }
  });

  test('tradingSession gives the same session again, equal to a fresh one after many other days', () => {
    const first = tradingSession('exchange', 'stock', '2026-11-20');
    assert.equal(tradingSession('exchange', 'stock', '2026-11-20'), first);
    assert.deepEqual(first.auctions, [taipeiInstant('2026-11-20', '13:30'), taipeiInstant('2026-11-20', '14:30')]);
    // More days than are kept: the first is built again, equal to what was given before.
    for (let d = 1; d <= 28; d++) {
      for (const mode of MODES)
        for (const market of MARKETS) tradingSession(mode, market, `2026-10-${String(d).padStart(2, '0')}`);
    }
    const again = tradingSession('exchange', 'stock', '2026-11-20');
    assert.notEqual(again, first, 'evicted and built again');
    assert.deepEqual(again, first);
    assert.notEqual(tradingSession('always-open', 'stock', '2026-11-20'), first);
  });

  test('a kept session cannot be changed by a caller', () => {
    const session = tradingSession('always-open', 'futures', '2026-11-20');
    assert.throws(() => {
      (session.auctions as number[]).push(1);
    }, TypeError);
    assert.throws(() => {
      session.continuous[0]!.end = 0;
    }, TypeError);
    assert.equal(tradingSession('always-open', 'futures', '2026-11-20').auctions.length, 0);
  });
});
