// Snapshots keep what they take from a day's listing (info, reference, limits, the previous day's volume) per code
// and day, stocks' infos are kept by day, and sessions and the day of an instant are kept (issue 22): a simulator
// that has answered all along must answer each instant as a new one does, through the listing refresh, the
// fixed-price match and the day change.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SimBroker } from '../../src/broker/sim/sim-broker.js';
import type { Snapshot } from '../../src/domain/market-data.js';
import type { ClockMode } from '../../src/domain/sessions.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';

// Quiet stocks (fast tapes), one of them on TPEx; a continuous future where the futures day moves (a new simulator
// takes about half a second for its first stock and one more for its first future, so few instants are compared).
const STOCKS = [{ code: '6505' }, { code: '2884' }, { code: '8069' }];
const WITH_FUTURE = [...STOCKS, { code: 'TXFR1' }];

function brokerAt(epochMs: number, clockMode: ClockMode) {
  const clock = new ManualClock(epochMs);
  return { clock, broker: new SimBroker({ clock, seed: 7, clockMode, apiKey: null }) };
}

type Step = [day: string, time: string, compared: boolean, refs?: { code: string }[]];

/**
 * Walks the steps on one simulator, comparing the answers at the steps marked with those of a new simulator; gives
 * the first stock's datetime at each step.
 */
function assertSameAsFresh(steps: Step[], clockMode: ClockMode): string[] {
  const kept = brokerAt(taipeiInstant(steps[0]![0], steps[0]![1]), clockMode);
  const stamps: string[] = [];
  for (const [day, time, compared, refs = STOCKS] of steps) {
    const epochMs = taipeiInstant(day, time);
    kept.clock.set(epochMs);
    const answer: Snapshot[] = kept.broker.marketData.snapshots(refs);
    stamps.push(answer[0]!.datetime);
    if (!compared) continue;
    assert.deepEqual(answer, brokerAt(epochMs, clockMode).broker.marketData.snapshots(refs), `${day} ${time}`);
  }
  return stamps;
}

describe('snapshot caches', { timeout: 60_000 }, () => {
  test('exchange clock: the same answers as a new simulator from before the listing refresh to the next day', () => {
    const stamps = assertSameAsFresh(
      [
        ['2026-11-19', '14:31', false], // Thursday after the fixed-price match
        ['2026-11-20', '07:59', true], // Friday before the stock listing refresh: still Thursday's day
        ['2026-11-20', '08:00', false],
        ['2026-11-20', '10:00', true],
        ['2026-11-20', '14:29', false, WITH_FUTURE],
        ['2026-11-20', '14:30', false],
        ['2026-11-20', '14:50', true, WITH_FUTURE], // stamped with the fixed-price match; futures on Monday's day
        ['2026-11-20', '10:00', true], // and back: the clock going back answers as well
      ],
      'exchange',
    );
    assert.equal(stamps[0], '2026-11-19T14:30:00.000000', "Thursday's fixed-price match");
    assert.ok(stamps[1]!.startsWith('2026-11-19T'), `before 08:00 still Thursday's day: ${stamps[1]}`);
    assert.ok(stamps[3]!.startsWith('2026-11-20T'), stamps[3]);
    assert.equal(stamps[6], '2026-11-20T14:30:00.000000', "Friday's fixed-price match");
  });

  test('always-open clock: the same answers as a new simulator through midnight and a weekend', () => {
    const stamps = assertSameAsFresh(
      [
        ['2026-11-20', '23:59', false],
        ['2026-11-21', '00:00', true], // Saturday trades as part of Friday
        ['2026-11-23', '00:01', true], // Monday
      ],
      'always-open',
    );
    assert.ok(stamps.at(-1)!.startsWith('2026-11-23T'), stamps.join());
  });
});
