import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SimBroker } from '../../src/broker/sim/sim-broker.js';
import type { ContractEvent } from '../../src/domain/contracts.js';
import { nextContractRefresh } from '../../src/domain/listing.js';
import type { ClockMode } from '../../src/domain/sessions.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';

function brokerAt(date: string, time: string, clockMode: ClockMode = 'always-open') {
  const clock = new ManualClock(taipeiInstant(date, time));
  const broker = new SimBroker({ clock, seed: 1, clockMode, apiKey: null });
  const events: ContractEvent[] = [];
  const stop = broker.contracts.onContractEvent((event) => events.push(event));
  return { clock, broker, events, stop };
}

const changedTypes = (events: ContractEvent[]) => events.filter((e) => e.base_changed).map((e) => e.security_type);

test('the refresh schedule is 07:50, 08:00, 14:45 and 17:15 Taiwan time', () => {
  let at = taipeiInstant('2026-12-16', '00:00');
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    at = nextContractRefresh(at);
    times.push(at);
  }
  assert.deepEqual(times, [
    taipeiInstant('2026-12-16', '07:50'),
    taipeiInstant('2026-12-16', '08:00'),
    taipeiInstant('2026-12-16', '14:45'),
    taipeiInstant('2026-12-16', '17:15'),
    taipeiInstant('2026-12-17', '07:50'),
  ]);
});

test('at 14:45 of an expiry day the derivatives roll: FUT and OPT report changes, R1 moves to the next month', () => {
  const { clock, broker, events } = brokerAt('2026-12-16', '14:44');
  assert.equal(broker.contracts.get('TXFR1').target_code, 'TXFL6');
  clock.set(taipeiInstant('2026-12-16', '14:45'));
  broker.contracts.refresh();
  assert.deepEqual(
    events.map((e) => e.security_type),
    ['STK', 'IND', 'FUT', 'OPT', 'WRT'],
  );
  assert.deepEqual(changedTypes(events), ['FUT', 'OPT']);
  const fut = events.find((e) => e.security_type === 'FUT')!;
  assert.deepEqual(
    { ...fut, published_at: undefined },
    {
      event_id: '3',
      action: 'CHECK',
      region: 'TW',
      security_type: 'FUT',
      published_at: undefined,
      base_changed: true,
      info_changed: true,
      info_scope: 'ALL',
      info_shards: [],
    },
  );
  assert.equal(fut.published_at, new Date(taipeiInstant('2026-12-16', '14:45')).toISOString());
  assert.equal(broker.contracts.get('TXFR1').target_code, 'TXFA7');
});

test('on the always-open clock the stock listing rolls at midnight, with its trading day', () => {
  const { clock, broker, events } = brokerAt('2026-12-16', '23:55');
  broker.contracts.count();
  clock.set(taipeiInstant('2026-12-17', '00:00'));
  broker.contracts.refresh();
  assert.deepEqual(changedTypes(events), ['STK', 'IND', 'WRT']);
  clock.set(taipeiInstant('2026-12-17', '08:00'));
  broker.contracts.refresh();
  assert.deepEqual(changedTypes(events.slice(5)), [], 'nothing more at 08:00');
});

test('at 08:00 the stock listing rolls, at 14:45 the derivatives, at 17:15 nothing; ids keep increasing', () => {
  const { clock, broker, events, stop } = brokerAt('2026-12-17', '07:55', 'exchange');
  broker.contracts.count();
  clock.set(taipeiInstant('2026-12-17', '08:00'));
  broker.contracts.refresh();
  assert.deepEqual(changedTypes(events), ['STK', 'IND', 'WRT']);
  clock.set(taipeiInstant('2026-12-17', '14:45'));
  broker.contracts.refresh();
  assert.deepEqual(changedTypes(events.slice(5)), ['FUT', 'OPT'], 'the night session lists the next day');
  clock.set(taipeiInstant('2026-12-17', '17:15'));
  broker.contracts.refresh();
  assert.deepEqual(changedTypes(events.slice(10)), []);
  assert.deepEqual(
    events.map((e) => e.event_id),
    Array.from({ length: 15 }, (_, i) => String(i + 1)),
  );
  stop();
  broker.contracts.refresh();
  assert.equal(events.length, 15, 'an unsubscribed listener hears nothing more');
});

test('a started broker runs each refresh once, when its clock reaches the refresh time', {
  timeout: 10_000,
}, async () => {
  const { clock, broker, events } = brokerAt('2026-12-16', '14:44');
  broker.contracts.count();
  broker.start();
  try {
    const until = async (count: number) => {
      while (events.length < count) await sleep(10);
    };
    assert.equal(events.length, 0, 'nothing at the start');
    clock.set(taipeiInstant('2026-12-16', '14:45'));
    await until(5);
    assert.deepEqual(changedTypes(events), ['FUT', 'OPT']);
    assert.equal(events[0]!.published_at, new Date(taipeiInstant('2026-12-16', '14:45')).toISOString());
    // A clock that jumps over a refresh time (a host that slept) still gets it, once.
    clock.set(taipeiInstant('2026-12-16', '18:00'));
    await until(10);
    assert.deepEqual(changedTypes(events.slice(5)), []);
    assert.equal(events[5]!.published_at, new Date(taipeiInstant('2026-12-16', '18:00')).toISOString());
    assert.equal(events.length, 10);
  } finally {
    await broker.close();
  }
});
