// A restart on a later day restores from the journal what is live (positions, the orders and trades it lists) without
// pricing the past: the book memory of a finished day is never matched against again, so its tape is not built. A
// restart on the same day puts each book's memory back when the book is first read, so it builds no tape either.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { SavedOrders } from '../../src/broker/port.js';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { SimOrders } from '../../src/broker/sim/orders/sim-orders.js';
import type { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { SimVenue } from '../../src/broker/sim/sim-venue.js';
import type { ContractInfo, StockInfo } from '../../src/domain/contracts.js';
import type { Trade } from '../../src/domain/orders.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { simGateway } from '../helpers/gateway.js';

const FIRST_DAY = '2026-11-23';
const NEXT_DAY = '2026-11-24';

function brokerAt(day: string, time: string, journalPath: string) {
  const clock = new ManualClock(taipeiInstant(day, time));
  const startingFunds = { startingCash: 1e10, startingCollateral: 1e8 };
  const options = { clock, seed: 1, clockMode: 'exchange' as const, apiKey: null, journalPath, startingFunds };
  return { clock, ...simGateway(options) };
}

function buyAtLimitUp(broker: SimBroker, code: string, quantity: number) {
  const info = broker.contracts.current().find(code)! as StockInfo;
  const order = { action: 'Buy' as const, price: info.limit_up, quantity, price_type: 'LMT' as const };
  return broker.orders.place({ contract: { code }, stockOrder: { ...order, order_type: 'ROD' } });
}

function portfolioOf(broker: SimBroker) {
  return {
    stock: broker.portfolio.positions({ account_type: 'S' }, 'Share'),
    futures: broker.portfolio.positions({ account_type: 'F' }, 'Common'),
    balance: broker.portfolio.accountBalance({ account_type: 'S' }),
  };
}

/** The code and day of each tape `SimMarket.tape` builds or reads while `work` runs. */
function tapesDuring(work: () => void): { code: string; day: string }[] {
  const original = SimMarket.prototype.tape;
  const tapes: { code: string; day: string }[] = [];
  SimMarket.prototype.tape = function (this: SimMarket, info: ContractInfo, day: string, asOf?: number) {
    tapes.push({ code: info.code, day });
    return original.call(this, info, day, asOf);
  };
  try {
    work();
  } finally {
    SimMarket.prototype.tape = original;
  }
  return tapes;
}

const tapeDaysDuring = (work: () => void) => tapesDuring(work).map((tape) => tape.day);

describe('a restart on a later day', () => {
  test('builds no tape of a past day; lists today only, reads a past order back by id; same portfolio', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-restore-history-'));
    try {
      const path = join(dir, 'sjgate.db');
      const first = brokerAt(FIRST_DAY, '10:00', path);
      for (const code of ['2330', '2884', '2317']) buyAtLimitUp(first.broker, code, 5);
      const mkt = {
        action: 'Buy' as const,
        price: 0,
        quantity: 2,
        price_type: 'MKP' as const,
        order_type: 'IOC' as const,
      };
      first.broker.orders.place({ contract: { code: 'TXFR1' }, futuresOrder: mkt });
      first.clock.set(taipeiInstant(FIRST_DAY, '13:40'));
      const firstDayTrades = first.broker.orders.trades();
      assert.equal(firstDayTrades.filter((trade) => trade.status.deal_quantity > 0).length, 4, 'every order filled');
      first.clock.set(taipeiInstant(NEXT_DAY, '09:30'));
      assert.deepEqual(first.broker.orders.trades(), [], 'the next day lists only its own trades, none yet');
      assert.deepEqual(first.broker.orders.trade(firstDayTrades[0]!.order.id), firstDayTrades[0]);
      const portfolioBefore = portfolioOf(first.broker);
      await first.gateway.close();

      let restarted: ReturnType<typeof brokerAt> | undefined;
      const days = tapeDaysDuring(() => {
        restarted = brokerAt(NEXT_DAY, '09:30', path);
      });
      assert.deepEqual(days, [], 'restoring the first day built none of its tapes');
      const { broker } = restarted!;
      assert.deepEqual(broker.orders.trades(), []);
      for (const trade of firstDayTrades) assert.deepEqual(broker.orders.trade(trade.order.id), trade);
      assert.deepEqual(portfolioOf(broker), portfolioBefore);
      const cancelled = broker.orders.cancel(firstDayTrades[0]!.order.id);
      assert.equal(cancelled.status.status, 'Filled', 'a finished order of a past day is refused, not unknown');
      assert.notEqual(cancelled.status.msg, '');
      assert.deepEqual(broker.orders.trades(), [], 'asking for it did not bring it back into the listing');
      await restarted!.gateway.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('hands the venue back only the orders of its current days: an older finished one is read by id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-restore-needed-'));
    try {
      const path = join(dir, 'sjgate.db');
      const first = brokerAt(FIRST_DAY, '10:00', path);
      const resting = { action: 'Buy' as const, price: 0, quantity: 1, price_type: 'LMT' as const };
      const info = first.broker.contracts.current().find('2330')! as StockInfo;
      const placed = first.broker.orders.place({
        contract: { code: '2330' },
        stockOrder: { ...resting, price: info.limit_down, order_type: 'ROD' },
      });
      const cancelled = first.broker.orders.cancel(placed.order.id);
      assert.equal(cancelled.status.status, 'Cancelled');
      await first.gateway.close();

      // Four trading days later (within the 21 days a venue that says nothing gets back).
      const handedBack: string[] = [];
      const original = SimOrders.prototype.restore;
      SimOrders.prototype.restore = function (this: SimOrders, saved: SavedOrders, ...rest) {
        handedBack.push(...saved.orders.map((order) => order.id));
        return original.call(this, saved, ...rest);
      };
      let later: ReturnType<typeof brokerAt>;
      try {
        later = brokerAt('2026-11-27', '10:00', path);
      } finally {
        SimOrders.prototype.restore = original;
      }
      assert.deepEqual(handedBack, [], 'the cancelled order of four days before is left in the journal');
      assert.deepEqual(later.broker.orders.trade(placed.order.id), cancelled);
      await later.gateway.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the simulator needs the orders changed since midnight of the day before its markets' earliest day", () => {
    const clock = new ManualClock(taipeiInstant('2026-11-30', '10:00'));
    const venue = new SimVenue({ clock, seed: 1, clockMode: 'exchange', apiKey: null });
    const neededSince = (day: string, time: string) => venue.orders.neededSince!(taipeiInstant(day, time));
    assert.equal(neededSince('2026-11-30', '10:00'), taipeiInstant('2026-11-27'), 'a Monday: from Friday');
    assert.equal(neededSince('2026-11-27', '20:00'), taipeiInstant('2026-11-26'), "Friday's night session: Thursday");
    assert.equal(neededSince('2026-11-29', '12:00'), taipeiInstant('2026-11-26'), 'a Sunday: Thursday');
  });
});

describe('a restart on the same day', () => {
  const takers = ['2884', '2317', 'TXFR1', '2303'];
  /** An order that takes the whole first levels of a book and more: IOC at the limit up, or a futures MKP. */
  function take(broker: SimBroker, code: string) {
    if (code === 'TXFR1') {
      const mkp = { action: 'Buy' as const, price: 0, quantity: 40, price_type: 'MKP' as const, order_type: 'IOC' };
      return broker.orders.place({ contract: { code }, futuresOrder: { ...mkp, order_type: 'IOC' as const } });
    }
    const info = broker.contracts.current().find(code)! as StockInfo;
    const order = { action: 'Buy' as const, price: info.limit_up, quantity: 499, price_type: 'LMT' as const };
    return broker.orders.place({ contract: { code }, stockOrder: { ...order, order_type: 'IOC' } });
  }
  const fills = (trade: Trade) => trade.status.deals.map((deal) => [deal.price, deal.quantity]);

  test('puts a book back when it is first read: same fills as without a restart; no tape for a code not read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-restore-lazy-'));
    try {
      const path = join(dir, 'sjgate.db');
      const first = brokerAt(FIRST_DAY, '10:00', path);
      const straight = brokerAt(FIRST_DAY, '10:00', ':memory:');
      for (const { broker } of [first, straight]) {
        for (const code of takers) assert.ok(take(broker, code).status.deal_quantity > 0, `${code} filled`);
      }
      await first.gateway.close();

      let restarted: ReturnType<typeof brokerAt> | undefined;
      const atRestart = tapesDuring(() => {
        restarted = brokerAt(FIRST_DAY, '10:00', path);
      });
      assert.deepEqual(atRestart, [], "the restart replayed today's deals without building a tape");
      const fresh = brokerAt(FIRST_DAY, '10:00', ':memory:');
      const later = taipeiInstant(FIRST_DAY, '10:00') + 1_000;
      for (const gateway of [restarted!, straight, fresh]) gateway.clock.set(later);
      const readAgain = takers.slice(0, 3);
      const afterRestart = tapesDuring(() => {
        for (const code of readAgain) {
          const expected = fills(take(straight.broker, code));
          assert.deepEqual(
            fills(take(restarted!.broker, code)),
            expected,
            `${code}: the book remembers the first take`,
          );
          assert.notDeepEqual(fills(take(fresh.broker, code)), expected, `${code}: the first take left its mark`);
        }
      });
      assert.ok(afterRestart.some((tape) => tape.code === '2884'));
      assert.ok(!afterRestart.some((tape) => tape.code === '2303'), 'no tape of the code nobody traded again');
      for (const gateway of [restarted!, straight, fresh]) await gateway.gateway.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
