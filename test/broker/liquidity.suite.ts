// The book remembers the user's orders (docs/matching.md, "Your orders move the book"): marketable orders take depth
// that comes back with a half-life, large ones walk into the latent depth of the square-root law, and one tape trade's
// volume fills the user's resting orders once, in price-time priority. A restart rebuilds all of it from the journal.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { depthModelOf, IMPACT_Y, latentDepthThrough } from '../../src/broker/sim/exchange/depth-model.js';
import { ladder, takeDepth } from '../../src/broker/sim/exchange/matching.js';
import { bookAt } from '../../src/broker/sim/market/book.js';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { publishedCount } from '../../src/broker/sim/market/tape.js';
import type { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { tradingDaysBetween } from '../../src/domain/calendar.js';
import type { StockInfo } from '../../src/domain/contracts.js';
import type { StockOrderInput, Trade } from '../../src/domain/orders.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { simGateway } from '../helpers/gateway.js';

const DAY = '2026-11-23';

function brokerAt(time: string, journalPath?: string) {
  const clock = new ManualClock(taipeiInstant(DAY, time));
  const startingFunds = { startingCash: 1e11, startingCollateral: 0 };
  const { broker, gateway } = simGateway({
    clock,
    seed: 1,
    clockMode: 'exchange',
    apiKey: null,
    journalPath,
    startingFunds,
  });
  return { clock, broker, gateway };
}

/** The book an order meets now, before any order of the user: displayed levels, then the latent ones. */
function marketNow(broker: SimBroker, code: string) {
  const now = broker.clock.now();
  const info = broker.contracts.current().find(code)! as StockInfo;
  const tape = broker.market.tape(info, broker.market.dayAt('stock', now));
  const count = publishedCount(tape, now);
  const model = depthModelOf(info, tape)!;
  const book = bookAt(tape, count, info.reference, model);
  return { info, tape, count, model, book };
}

const buy = (order: Partial<StockOrderInput>): StockOrderInput => ({
  action: 'Buy',
  price: 0,
  quantity: 1,
  price_type: 'LMT',
  order_type: 'IOC',
  ...order,
});

const average = (trade: Trade) =>
  trade.status.deals.reduce((sum, d) => sum + d.price * d.quantity, 0) / trade.status.deal_quantity;

describe('marketable orders take depth the next order does not find', () => {
  test('eight 499-lot IOC buys of 2884 in a row each fill at a worse average than the last', () => {
    const { broker } = brokerAt('10:00');
    const { book, info } = marketNow(broker, '2884');
    const trades = Array.from({ length: 8 }, () =>
      broker.orders.place({ contract: { code: '2884' }, stockOrder: buy({ price: info.limit_up, quantity: 499 }) }),
    );
    for (const trade of trades) assert.equal(trade.status.deal_quantity, 499, trade.status.msg);
    const averages = trades.map(average);
    for (let i = 1; i < averages.length; i++) {
      assert.ok(averages[i]! > averages[i - 1]!, `order ${i + 1} at ${averages[i]} after ${averages[i - 1]}`);
    }
    const atBest = trades.flatMap((t) => t.status.deals).filter((d) => d.price === book.ask.prices[0]);
    assert.equal(
      atBest.reduce((sum, d) => sum + d.quantity, 0),
      book.ask.volumes[0],
      'the best ask gave what it showed, once',
    );
  });

  test('an IOC at the best ask gets what it showed; the next one at once nothing; a half-life later half of it', () => {
    for (const time of ['10:00', '10:20', '10:40', '11:00', '11:20', '11:40', '12:00']) {
      const { broker, clock } = brokerAt(time);
      const { book, model } = marketNow(broker, '2884');
      const best = book.ask.prices[0]!;
      const shown = book.ask.volumes[0]!;
      const order = (quantity = shown + 5) =>
        broker.orders.place({ contract: { code: '2884' }, stockOrder: buy({ price: best, quantity }) });
      assert.ok(shown + 5 <= 499, `${shown} shown`);
      assert.equal(order().status.deal_quantity, shown);
      assert.equal(order().status.deal_quantity, 0);
      clock.set(clock.now() + model.halfLifeMs);
      // The market's own book moved meanwhile: half of what was taken is missing from what it shows at that price.
      const later = marketNow(broker, '2884').book.ask;
      if (later.prices[0] !== best) continue;
      const expected = later.volumes[0]! - shown / 2;
      if (expected < 1) continue;
      // A level shows whole units: what is left, rounded (either way when it is half a unit).
      assert.ok(later.volumes[0]! + 5 <= 499, `${later.volumes[0]} shown later`);
      const got = order(later.volumes[0]! + 5).status.deal_quantity;
      assert.ok(Math.abs(got - expected) <= 0.5, `${got} lots, ${expected} expected`);
      return;
    }
    assert.fail('the best ask moved in every hour tried');
  });
});

describe('sells take the bid side the same way', () => {
  test('a sell at the best bid gets what it showed, the next one at once nothing; further bids are still there', () => {
    const { broker } = brokerAt('10:00');
    const { book, info } = marketNow(broker, '2884');
    const bought = broker.orders.place({
      contract: { code: '2884' },
      stockOrder: buy({ price: info.limit_up, quantity: 499 }),
    });
    assert.equal(bought.status.deal_quantity, 499, bought.status.msg);
    const [best, shown] = [book.bid.prices[0]!, book.bid.volumes[0]!];
    const sell = (price: number, quantity: number) =>
      broker.orders.place({ contract: { code: '2884' }, stockOrder: buy({ action: 'Sell', price, quantity }) });
    assert.equal(sell(best, shown + 5).status.deal_quantity, shown);
    assert.equal(sell(best, shown + 5).status.deal_quantity, 0);
    const walked = sell(book.bid.prices[1]!, book.bid.volumes[1]! + 5);
    assert.deepEqual(
      walked.status.deals.map((d) => [d.price, d.quantity]),
      [[book.bid.prices[1], book.bid.volumes[1]]],
      'the second bid, untouched, and nothing of the first',
    );
  });
});

describe('combos take depth the same way, from their own book', () => {
  test('a TXF spread bought at its best ask gets what it showed; the next one, after a restart, nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-combo-depth-'));
    try {
      const path = join(dir, 'sjgate.db');
      const open = () => {
        const clock = new ManualClock(taipeiInstant(DAY, '10:00'));
        const startingFunds = { startingCash: 0, startingCollateral: 1e10 };
        return simGateway({ clock, seed: 1, clockMode: 'exchange', apiKey: null, journalPath: path, startingFunds });
      };
      const first = open();
      const combo = first.broker.contracts.futuresCombos('TXF')[0]!;
      const tape = first.broker.market.comboTape(combo, DAY);
      const book = bookAt(tape, publishedCount(tape, first.broker.clock.now()), 0);
      const [best, shown] = [book.ask.prices[0]!, book.ask.volumes[0]!];
      const legs = combo.legs.map((leg) => ({ security_type: leg.security_type, code: leg.code }));
      const order = { action: 'Buy' as const, price: best, quantity: shown + 1, price_type: 'LMT' as const };
      const place = (broker: SimBroker) =>
        broker.orders.placeCombo({ legs, order: { ...order, order_type: 'IOC' as const } }).status.deal_quantity;
      assert.equal(place(first.broker), shown);
      await first.gateway.close();
      const second = open();
      assert.equal(place(second.broker), 0);
      await second.gateway.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a tape trade fills the resting orders once', () => {
  /** Each of the orders' deals by the tape trade it came from; no trade gives more than its volume. */
  function checkShares(broker: SimBroker, trades: Trade[]) {
    const { tape } = marketNow(broker, '2884');
    const byTrade = new Map<number, number>();
    for (const trade of trades) {
      for (const deal of broker.orders.trade(trade.order.id)!.status.deals) {
        const k = tape.times.findIndex((us) => Math.abs(us - deal.ts * 1e6) <= 1);
        assert.ok(k >= 0, `deal at ${deal.ts} is a tape trade's`);
        byTrade.set(k, (byTrade.get(k) ?? 0) + deal.quantity);
      }
    }
    for (const [k, quantity] of byTrade) assert.ok(quantity <= tape.volumes[k]!, `trade ${k}: ${quantity} filled`);
  }

  /**
   * Places resting buys of 2884 at 09:30 in the order given (prices by level of the bid side) and lets the tape run
   * to 13:20: the order with priority (`ahead`) fills whole before the other gets a lot, and no trade overfills.
   */
  function priorityRun(orders: { level: number; quantity: number }[], ahead: number) {
    const { broker, clock } = brokerAt('09:30');
    const { book } = marketNow(broker, '2884');
    const trades = orders.map(({ level, quantity }) =>
      broker.orders.place({
        contract: { code: '2884' },
        stockOrder: buy({ price: book.bid.prices[level]!, quantity, order_type: 'ROD' }),
      }),
    );
    clock.set(taipeiInstant(DAY, '13:20'));
    broker.orders.trades();
    const [first, behind] = [trades[ahead]!, trades[1 - ahead]!].map((t) => broker.orders.trade(t.order.id)!);
    assert.equal(first!.status.status, 'Filled');
    assert.ok(behind!.status.deals.length > 0, 'the order behind filled too');
    assert.ok(behind!.status.deals[0]!.ts >= first!.status.deals.at(-1)!.ts, 'not before the one ahead was whole');
    checkShares(broker, trades);
  }

  test('two buys resting at one price share its trades; the first placed fills before the second gets any', () => {
    priorityRun(
      [
        { level: 0, quantity: 20 },
        { level: 0, quantity: 400 },
      ],
      0,
    );
  });

  test('a better-priced buy placed later gets the trades before a worse-priced one placed earlier', () => {
    priorityRun(
      [
        { level: 1, quantity: 400 },
        { level: 0, quantity: 60 },
      ],
      1,
    );
  });
});

describe('an auction trade fills the resting orders once too', () => {
  test('two intraday odd-lot buys crossing an odd-lot auction get its volume once, the first placed first', () => {
    const { broker, clock } = brokerAt('10:00');
    const { info } = marketNow(broker, '2884');
    const odd = broker.market.oddLotTape(info, DAY);
    const k = publishedCount(odd, clock.now());
    const volume = odd.volumes[k]!;
    const quantity = Math.min(volume, 999);
    const place = () =>
      broker.orders.place({
        contract: { code: '2884' },
        stockOrder: buy({ price: info.limit_up, quantity, order_type: 'ROD', order_lot: 'IntradayOdd' }),
      });
    const [first, second] = [place(), place()];
    clock.set(odd.times[k]! / 1000);
    broker.orders.trades();
    const [a, b] = [first, second].map((t) => broker.orders.trade(t.order.id)!.status.deal_quantity);
    assert.equal(a, quantity, 'the first order fills from the auction');
    assert.equal(b, Math.min(quantity, volume - quantity), 'the second gets what is left of it');
  });
});

describe('a restart rebuilds the memory from the journal', () => {
  test('the next order after a restart fills as it would have without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-liquidity-'));
    try {
      const steps = (broker: SimBroker) => {
        const { info } = marketNow(broker, '2884');
        broker.orders.place({ contract: { code: '2884' }, stockOrder: buy({ price: info.limit_up, quantity: 499 }) });
      };
      const next = (broker: SimBroker) => {
        const { info } = marketNow(broker, '2884');
        const trade = broker.orders.place({
          contract: { code: '2884' },
          stockOrder: buy({ price: info.limit_up, quantity: 499 }),
        });
        return trade.status.deals.map((d) => [d.price, d.quantity]);
      };
      const path = join(dir, 'sjgate.db');
      const first = brokerAt('10:00', path);
      steps(first.broker);
      first.clock.set(first.clock.now() + 20_000);
      await first.gateway.close();
      const restarted = brokerAt('10:00', path);
      restarted.clock.set(restarted.clock.now() + 20_000);
      const straight = brokerAt('10:00');
      steps(straight.broker);
      straight.clock.set(straight.clock.now() + 20_000);
      const expected = next(straight.broker);
      assert.deepEqual(next(restarted.broker), expected);
      const fresh = brokerAt('10:00');
      fresh.clock.set(fresh.clock.now() + 20_000);
      assert.notDeepEqual(next(fresh.broker), expected, 'the first order left its mark');
      await restarted.gateway.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a restart rebuilds the shares of tape trades', () => {
  test('resting orders met again after a restart do not get a trade the first order got before it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-shares-'));
    try {
      const path = join(dir, 'sjgate.db');
      const run = (broker: SimBroker) => {
        const price = marketNow(broker, '2884').book.bid.prices[0]!;
        return [60, 400].map((quantity) =>
          broker.orders.place({ contract: { code: '2884' }, stockOrder: buy({ price, quantity, order_type: 'ROD' }) }),
        );
      };
      const dealsAt = (broker: SimBroker, trades: Trade[]) =>
        trades.map((t) => broker.orders.trade(t.order.id)!.status.deals.map((d) => [d.ts, d.quantity]));
      const straight = brokerAt('09:30');
      const expectedOrders = run(straight.broker);
      straight.clock.set(taipeiInstant(DAY, '13:20'));
      straight.broker.orders.trades();
      const expected = dealsAt(straight.broker, expectedOrders);
      assert.ok(expected[0]!.length > 1 && expected[1]!.length > 0);
      assert.ok(expected[1]![0]![0]! > expected[0]![0]![0]!);
      // Stop once the first order got part of a trade and the second nothing: the journal has the second order's
      // cursor where it was placed, so after the restart it meets that trade again.
      const firstDone = expected[0]![0]![0]! * 1000;
      const first = brokerAt('09:30', path);
      const orders = run(first.broker);
      await first.gateway.durable();
      first.clock.set(firstDone);
      first.broker.orders.trades();
      await first.gateway.close();
      const restarted = brokerAt('09:30', path);
      restarted.clock.set(taipeiInstant(DAY, '13:20'));
      restarted.broker.orders.trades();
      assert.deepEqual(dealsAt(restarted.broker, orders), expected);
      await restarted.gateway.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a strategy cannot take more than the book shows without moving the price', () => {
  const market = new SimMarket(1, 'exchange');
  const CODES = ['2330', '2884', '2317', '0050', '1708', '2412'];

  test('orders at once and between two tape trades never get more at or better than a price than it showed', () => {
    const { broker, clock } = brokerAt('10:00');
    const DAYS = tradingDaysBetween('2026-06-01', '2026-11-20');
    let run = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...CODES),
        fc.integer({ min: 10, max: 60 }),
        fc.array(fc.record({ quantity: fc.integer({ min: 1, max: 499 }), ticks: fc.integer({ min: 0, max: 12 }) }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 8, maxLength: 8 }),
        (code, minutes, orders, when) => {
          // One broker for every run, each on a day of its own, so that no run meets what another took.
          const day = DAYS[run++ % DAYS.length]!;
          clock.set(taipeiInstant(day, '10:00') + minutes * 60_000);
          const start = marketNow(broker, code);
          if (start.count >= start.tape.times.length) return; // no trade left that day
          // Every order lands before the next tape trade: the market's own book stays as it was.
          const from = clock.now();
          const until = start.tape.times[start.count]! / 1000 - 1;
          const instants = when
            .slice(0, orders.length)
            .map((u) => Math.floor(from + u * (until - from)))
            .sort((a, b) => a - b);
          const shown = [...ladder(start.book.ask, 1, start.model, () => 0)].slice(0, 40);
          if (shown.length === 0) return; // locked at limit-up: nobody sells
          const fills: { price: number; quantity: number; at: number }[] = [];
          orders.forEach(({ quantity, ticks }, i) => {
            clock.set(instants[i]!);
            const limit = shown[Math.min(ticks, shown.length - 1)]!.price;
            const trade = broker.orders.place({ contract: { code }, stockOrder: buy({ price: limit, quantity }) });
            assert.notEqual(trade.status.status, 'Failed', trade.status.msg);
            const prices = trade.status.deals.map((d) => d.price);
            assert.deepEqual(
              prices,
              [...prices].sort((a, b) => a - b),
              'each order walks away from the best',
            );
            for (const d of trade.status.deals) fills.push({ price: d.price, quantity: d.quantity, at: instants[i]! });
          });
          const end = instants.at(-1)!;
          const half = start.model.halfLifeMs;
          for (const level of shown) {
            const filled = fills.filter((f) => f.price === level.price);
            const got = filled.reduce((sum, f) => sum + f.quantity, 0);
            const refilled = filled.reduce((sum, f) => sum + f.quantity * (1 - 2 ** (-(end - f.at) / half)), 0);
            // Each order reads a level's depth rounded to a whole unit: half a unit each at most.
            assert.ok(
              got <= level.quantity + refilled + orders.length / 2,
              `${code} at ${level.price}: got ${got} of ${level.quantity} shown, ${refilled} refilled`,
            );
          }
        },
      ),
      { numRuns: 20 },
    );
  });

  test('the average price worsens with size, and no further than the square-root law allows', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CODES),
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 1, max: 20_000 }),
        (code, at, a, b) => {
          const info = market.listings.stockOn(code, DAY);
          const tape = market.tape(info, DAY);
          const model = depthModelOf(info, tape)!;
          const count = Math.floor(at * tape.times.length);
          const book = bookAt(tape, count, info.reference, model);
          const best = book.ask.prices[0]!;
          if (best === 0) return;
          const take = (quantity: number) =>
            takeDepth(
              ladder(book.ask, 1, model, () => 0),
              'Buy',
              null,
              quantity,
            );
          const avg = (fills: { price: number; quantity: number }[]) =>
            fills.reduce((sum, f) => sum + f.price * f.quantity, 0) / fills.reduce((sum, f) => sum + f.quantity, 0);
          const [small, large] = [Math.min(a, b), Math.max(a, b)];
          const [smallFills, largeFills] = [take(small), take(large)];
          assert.ok(avg(largeFills) >= avg(smallFills) - 1e-9);
          if (largeFills.reduce((sum, f) => sum + f.quantity, 0) < large) return; // the limit price was reached
          // Walking to the last level took at most what the latent book of the square-root law holds before it.
          const before = largeFills.at(-2);
          if (!before) return;
          const firstTick = latentDepthThrough(model, best, best);
          assert.ok(
            latentDepthThrough(model, best, before.price) < large + firstTick + largeFills.length,
            `${code}: ${large} reached ${largeFills.at(-1)!.price} from ${best} (Y=${IMPACT_Y}, σ=${model.dailyVolatility})`,
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
