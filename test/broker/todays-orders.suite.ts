// Today's finished orders beyond a bound leave the simulator's memory (the order book lists them by id and reads them
// back from the journal for the day's list), so memory stops growing with the orders a busy day places; the list,
// lookups by id, changes and a restart answer as before. The bound is 20 here (10,000 in the daemon).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FinishedToday } from '../../src/broker/sim/orders/finished-today.js';
import type { SimBroker } from '../../src/broker/sim/sim-broker.js';
import type { StockInfo } from '../../src/domain/contracts.js';
import type { Trade } from '../../src/domain/orders.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { simGateway } from '../helpers/gateway.js';

const DAY = '2026-11-24';
const dir = mkdtempSync(join(tmpdir(), 'sjgate-todays-orders-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function brokerAt(time: string, journalPath: string, day = DAY) {
  const clock = new ManualClock(taipeiInstant(day, time));
  const startingFunds = { startingCash: 1e10, startingCollateral: 1e8 };
  const options = { clock, seed: 1, clockMode: 'exchange' as const, apiKey: null, journalPath, startingFunds };
  return { clock, ...simGateway({ ...options, log: () => undefined }) };
}

/** What the order book holds (a private part of the simulator's orders, read here only). */
function held(broker: SimBroker): { inMemory: number; listedById: number } {
  const { book } = broker.orders as unknown as { book: { held(): { inMemory: number; listedById: number } } };
  return book.held();
}

/** Places `count` orders at 20 ms apart: IOC buys that fill, every tenth a ROD buy at limit down that rests. */
function placeMany(broker: SimBroker, clock: ManualClock, count: number): Trade[] {
  const info = broker.contracts.current().find('2884')! as StockInfo;
  const placed: Trade[] = [];
  for (let i = 0; i < count; i++) {
    clock.advance(20);
    const stockOrder =
      i % 10 === 9
        ? {
            action: 'Buy' as const,
            price: info.limit_down,
            quantity: 1,
            price_type: 'LMT' as const,
            order_type: 'ROD' as const,
          }
        : { action: 'Buy' as const, price: 0, quantity: 1, price_type: 'MKT' as const, order_type: 'IOC' as const };
    placed.push(broker.orders.place({ contract: { code: '2884' }, stockOrder }));
  }
  return placed;
}

describe("today's finished orders", () => {
  const bound = FinishedToday.keptAtMost;
  // Only while these tests run: other suites of the same process keep the daemon's bound.
  before(() => {
    FinishedToday.keptAtMost = 20;
  });
  after(() => {
    FinishedToday.keptAtMost = bound;
  });

  test('leave memory past the bound: the book keeps the working orders and the last 20 finished, the rest by id', async () => {
    const path = join(dir, 'held.db');
    const { broker, clock, gateway } = brokerAt('10:00', path);
    const placed = placeMany(broker, clock, 400);
    const working = placed.filter((trade) => !['Filled', 'Cancelled', 'Failed'].includes(trade.status.status));
    assert.equal(working.length, 40, 'the ROD buys at limit down rest');
    assert.deepEqual(held(broker), { inMemory: 60, listedById: 340 });
    broker.orders.cancel(working[0]!.order.id);
    assert.deepEqual(held(broker), { inMemory: 59, listedById: 341 });
    await gateway.close();
  });

  test('are listed, looked up and refused changes as before, and a restart lists the same day', async () => {
    const path = join(dir, 'list.db');
    const first = brokerAt('10:00', path);
    const placed = placeMany(first.broker, first.clock, 60);
    const cancelled = first.broker.orders.cancel(placed[9]!.order.id);
    assert.equal(cancelled.status.status, 'Cancelled');
    const listed = first.broker.orders.trades();
    assert.deepEqual(
      listed.map((trade) => trade.order.id),
      placed.map((trade) => trade.order.id),
      'oldest placed first, as placed',
    );
    for (const trade of listed) assert.deepEqual(first.broker.orders.trade(trade.order.id), trade);
    assert.deepEqual(listed[9], cancelled);
    const filled = listed[0]!;
    assert.equal(filled.status.status, 'Filled');
    const refused = first.broker.orders.cancel(filled.order.id);
    assert.equal(refused.status.status, 'Filled', 'a finished order of today is refused, not unknown');
    assert.notEqual(refused.status.msg, '');
    assert.deepEqual(first.broker.orders.trades(), listed, 'asking did not list it twice');
    await first.gateway.close();

    const restarted = brokerAt('10:05', path);
    assert.deepEqual(restarted.broker.orders.trades(), listed);
    assert.deepEqual(held(restarted.broker), { inMemory: 25, listedById: 35 });
    await restarted.gateway.close();
  });

  test('a new day forgets their ids and lists only its own', async () => {
    const path = join(dir, 'days.db');
    const { broker, clock, gateway } = brokerAt('10:00', path);
    const placed = placeMany(broker, clock, 30);
    clock.set(taipeiInstant('2026-11-25', '09:30'));
    const resting = placed.filter((trade) => trade.status.status === 'Submitted').map((trade) => trade.order.id);
    const listed = broker.orders.trades();
    assert.deepEqual(
      listed.map((trade) => trade.order.id),
      resting,
      'only the resting orders, which the new day found expired (a change of this day)',
    );
    assert.ok(listed.every((trade) => trade.status.status === 'Cancelled'));
    assert.deepEqual(held(broker), { inMemory: 3, listedById: 0 });
    assert.equal(broker.orders.trade(placed[0]!.order.id)?.status.status, 'Filled', 'read back by id');
    await gateway.close();
  });
});
