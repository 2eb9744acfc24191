// LastCount turns only the last ticks of the day into records (issue 22): its answer must still be the tail of the
// day's AllDay ticks, the 14:30 fixed-price tick included once it printed, for every count around the day's length.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SimBroker } from '../../src/broker/sim/sim-broker.js';
import type { Ticks } from '../../src/domain/market-data.js';
import type { ClockMode } from '../../src/domain/sessions.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';

function tail(ticks: Ticks, n: number): Ticks {
  const from = Math.max(0, ticks.datetime.length - n);
  return Object.fromEntries(
    Object.entries(ticks).map(([k, v]) => [k, (v as unknown[]).slice(from)]),
  ) as unknown as Ticks;
}

const simulators = new Map<ClockMode, { clock: ManualClock; broker: SimBroker }>();

/** One simulator per clock mode, set to the instant: a new one takes about a second for its first stock. */
function marketDataAt(day: string, time: string, clockMode: ClockMode) {
  let sim = simulators.get(clockMode);
  if (!sim) {
    const clock = new ManualClock(0);
    sim = { clock, broker: new SimBroker({ clock, seed: 3, clockMode, apiKey: null }) };
    simulators.set(clockMode, sim);
  }
  sim.clock.set(taipeiInstant(day, time));
  return sim.broker.marketData;
}

function assertTails(day: string, time: string, clockMode: ClockMode, code: string, date?: string): Ticks {
  const data = marketDataAt(day, time, clockMode);
  const allDay = data.ticks({ contract: { code }, query_type: 'AllDay', ...(date ? { date } : {}) });
  const length = allDay.datetime.length;
  for (const n of [0, 1, 2, 3, 50, length - 1, length, length + 5]) {
    if (n < 0) continue;
    const last = data.ticks({ contract: { code }, query_type: 'LastCount', last_cnt: n, ...(date ? { date } : {}) });
    assert.deepEqual(last, tail(allDay, n), `${day} ${time} ${code} last ${n} of ${length}`);
  }
  return allDay;
}

describe('ticks LastCount', () => {
  test('after the fixed-price match: the tail ends with its tick', () => {
    const allDay = assertTails('2026-11-20', '15:00', 'exchange', '6505');
    assert.equal(allDay.datetime.at(-1), '2026-11-20T14:30:00.000000', 'the fixed-price tick is last');
  });

  test('during the day, a past day, and on the always-open clock', () => {
    assert.ok(assertTails('2026-11-20', '10:00', 'exchange', '6505').datetime.length > 3);
    assertTails('2026-11-20', '10:00', 'exchange', '6505', '2026-11-19');
    assertTails('2026-11-20', '03:00', 'always-open', '2884');
  });
});
