import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { depthModelOf } from '../../src/broker/sim/exchange/depth-model.js';
import { ladder, protectedLimit, topOf } from '../../src/broker/sim/exchange/matching.js';
import { bookAt } from '../../src/broker/sim/market/book.js';
import { publishedCount } from '../../src/broker/sim/market/tape.js';
import type { LedgerOptions } from '../../src/broker/sim/portfolio/ledger.js';
import type { SimBroker } from '../../src/broker/sim/sim-broker.js';
import type { StockInfo } from '../../src/domain/contracts.js';
import type { FuturesOrderInput, StockOrderInput } from '../../src/domain/orders.js';
import type { ClockMode } from '../../src/domain/sessions.js';
import type { TickTable } from '../../src/domain/ticks.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { Journal } from '../../src/store/journal.js';
import { simGateway } from '../helpers/gateway.js';

function brokerAt(
  day: string,
  time: string,
  mode: ClockMode = 'always-open',
  journalPath?: string,
  startingFunds?: LedgerOptions,
) {
  const clock = new ManualClock(taipeiInstant(day, time));
  const { broker, gateway } = simGateway({ clock, seed: 1, clockMode: mode, apiKey: null, journalPath, startingFunds });
  return { clock, broker, gateway };
}

function bookNow(broker: SimBroker, code: string) {
  const now = broker.clock.now();
  const info = broker.contracts.current().find(code)! as StockInfo;
  const day = broker.market.dayAt('stock', now);
  const tape = broker.market.tape(info, day);
  return {
    info,
    tape,
    count: publishedCount(tape, now),
    book: bookAt(tape, publishedCount(tape, now), info.reference, depthModelOf(info, tape)),
  };
}

const stock = (order: Partial<StockOrderInput>): StockOrderInput => ({
  action: 'Buy',
  price: 0,
  quantity: 1,
  price_type: 'LMT',
  order_type: 'ROD',
  ...order,
});

const futures = (order: Partial<FuturesOrderInput>): FuturesOrderInput => ({
  action: 'Buy',
  price: 0,
  quantity: 1,
  price_type: 'LMT',
  order_type: 'ROD',
  ...order,
});

describe('marketable orders take the displayed depth', () => {
  test('a buy through two ask levels gets one deal per level at the level prices', () => {
    const { broker } = brokerAt('2026-11-23', '10:00');
    const { book } = bookNow(broker, '2884');
    const quantity = book.ask.volumes[0]! + 1;
    const trade = broker.orders.place({
      contract: { code: '2884' },
      stockOrder: stock({ price: book.ask.prices[1]!, quantity }),
    });
    assert.equal(trade.status.status, 'Filled', trade.status.msg);
    assert.deepEqual(
      trade.status.deals.map((d) => [d.price, d.quantity]),
      [
        [book.ask.prices[0], book.ask.volumes[0]],
        [book.ask.prices[1], 1],
      ],
    );
    assert.equal(trade.status.deal_quantity, quantity);
  });

  test('IOC cancels what the book cannot fill; FOK fills everything or nothing', () => {
    const { broker } = brokerAt('2026-11-23', '10:00');
    const { book } = bookNow(broker, '2884');
    const best = book.ask.prices[0]!;
    const more = book.ask.volumes[0]! + 5;
    const ioc = broker.orders.place({
      contract: { code: '2884' },
      stockOrder: stock({ price: best, quantity: more, order_type: 'IOC' }),
    });
    assert.equal(ioc.status.deal_quantity, book.ask.volumes[0]);
    assert.equal(ioc.status.cancel_quantity, 5);
    assert.equal(ioc.status.status, 'Cancelled');
    const fok = broker.orders.place({
      contract: { code: '2884' },
      stockOrder: stock({ price: best, quantity: more, order_type: 'FOK' }),
    });
    assert.equal(fok.status.deal_quantity, 0);
    assert.equal(fok.status.cancel_quantity, more);
    assert.deepEqual(fok.status.deals, []);
  });
});

describe('MKP (TAIFEX range-market)', () => {
  const ticks: TickTable = [{ min: 0, max: null, tick: 1 }];
  const rules = { ticks, limitUp: 25_000, limitDown: 20_000 };
  const side = (prices: number[]) => ({ prices, volumes: prices.map(() => 3) });

  test('the protective limit is the best opposite price plus or minus 1% of the reference, within the limits', () => {
    assert.equal(protectedLimit(side([22_000, 22_001]), 'Buy', rules, 22_100), 22_221);
    assert.equal(protectedLimit(side([22_000]), 'Sell', rules, 22_100), 21_779);
    assert.equal(protectedLimit(side([24_900]), 'Buy', rules, 22_100), 25_000);
    assert.equal(protectedLimit(side([0, 0]), 'Buy', rules, 22_100), null);
  });

  test('takes depth up to its protective limit; with ROD the rest rests there and is reported in modified_price', () => {
    const { broker } = brokerAt('2026-11-23', '10:00', 'always-open', undefined, {
      startingCash: 0,
      startingCollateral: 1e9,
    });
    // A cheap option, so that its protective range reaches only part of the displayed depth.
    const info = broker.contracts.options({ root: 'TXO' }).find((o) => o.reference > 20 && o.reference < 40)!;
    const tape = broker.market.tape(info, broker.market.dayAt('futures', broker.clock.now()));
    const model = depthModelOf(info, tape);
    const book = bookAt(tape, publishedCount(tape, broker.clock.now()), info.reference, model);
    const limit = protectedLimit(book.ask, 'Buy', tape.rules!, info.reference)!;
    const levels = book.ask.prices.flatMap((price, k) => (price <= limit ? [[price, book.ask.volumes[k]!]] : []));
    assert.ok(levels.length > 0 && levels.length < 5, `${levels.length} levels in range`);
    const inRange = levels.reduce((sum, [, volume]) => sum + volume!, 0);
    const order = (order_type: 'ROD' | 'IOC') =>
      broker.orders.place({
        contract: { code: info.code },
        futuresOrder: futures({ price_type: 'MKP', order_type, quantity: inRange + 2 }),
      });
    const rod = order('ROD');
    assert.equal(rod.status.status, 'PartFilled', rod.status.msg);
    assert.deepEqual(
      rod.status.deals.map((d) => [d.price, d.quantity]),
      levels,
    );
    assert.equal(rod.status.deal_quantity, inRange);
    assert.equal(rod.status.modified_price, limit);
    // The ROD took those levels: the IOC's range starts from the next ask, past the old limit.
    const nextAsk = topOf(
      ladder(book.ask, 1, model, () => 0),
      10,
    ).prices.find((price) => price > limit)!;
    const ioc = order('IOC');
    assert.equal(
      ioc.status.modified_price,
      protectedLimit(topOf([{ price: nextAsk, quantity: 1 }]), 'Buy', tape.rules!, info.reference),
    );
    assert.ok(
      ioc.status.deals.every((deal) => deal.price > limit),
      'the levels the ROD took are gone',
    );
    assert.equal(ioc.status.deal_quantity + ioc.status.cancel_quantity, inRange + 2);
  });
});

describe('resting orders', () => {
  test('fill only after the volume ahead of them at their price has traded', () => {
    const { broker, clock } = brokerAt('2026-11-23', '10:00');
    const { book, tape, count } = bookNow(broker, '2884');
    const price = book.bid.prices[0]!;
    const trade = broker.orders.place({ contract: { code: '2884' }, stockOrder: stock({ price }) });
    assert.equal(trade.status.status, 'Submitted');
    // Work out from the tape when the order must fill: trades below its price, or at it once the queue is gone.
    let ahead = book.bid.volumes[0]!;
    let fillAt = -1;
    for (let k = count; k < tape.times.length; k++) {
      const p = tape.prices[k]!;
      if (p < price) {
        fillAt = k;
        break;
      }
      if (p === price) {
        if (tape.volumes[k]! > ahead) {
          fillAt = k;
          break;
        }
        ahead -= tape.volumes[k]!;
      }
    }
    assert.ok(fillAt > count, 'the tape reaches the order later in the day');
    clock.set(tape.times[fillAt]! / 1000 - 1);
    assert.equal(broker.orders.trades()[0]!.status.deal_quantity, 0, 'not before');
    clock.set(tape.times[fillAt]! / 1000);
    const filled = broker.orders.trades()[0]!;
    assert.equal(filled.status.status, 'Filled');
    assert.deepEqual(filled.status.deals, [
      { seq: '000001', price, quantity: 1, ts: tape.times[fillAt]! / 1000 / 1000 },
    ]);
  });

  test('cancel and update_qty act on the remaining quantity and are reported as order events', async () => {
    const { broker, gateway } = brokerAt('2026-11-23', '10:00');
    const { book } = bookNow(broker, '2884');
    const price = book.bid.prices[4]!;
    const trade = broker.orders.place({
      contract: { code: '2884' },
      stockOrder: stock({ price, quantity: 5 }),
    });
    const reduced = broker.orders.updateQty(trade.order.id, 2);
    assert.equal(reduced.status.order_quantity, 3);
    assert.equal(reduced.status.cancel_quantity, 2);
    assert.equal(reduced.status.status, 'Submitted');
    const cancelled = broker.orders.cancel(trade.order.id);
    assert.equal(cancelled.status.status, 'Cancelled');
    assert.equal(cancelled.status.cancel_quantity, 5);
    const again = broker.orders.cancel(trade.order.id);
    assert.equal(again.status.status, 'Cancelled');
    assert.equal(again.status.msg, '委託數量已完全刪除');
    const ops = gateway.orderEvents
      .after(0)
      .map((e) => (e.event.state === 'StockOrder' ? e.event.data.StockOrder.operation : null))
      .map((op) => op && [op.op_type, op.op_code]);
    assert.deepEqual(ops, [
      ['New', '00'],
      ['UpdateQty', '00'],
      ['Cancel', '00'],
      ['Cancel', '99'],
    ]);
  });
});

describe('group commit', () => {
  test('changes of one turn are written together; nothing is published or durable before the commit', async () => {
    const { broker, gateway } = brokerAt('2026-11-23', '10:00');
    const { book } = bookNow(broker, '2884');
    const heard: number[] = [];
    gateway.orderEvents.listen((event) => heard.push(event.seq));
    const before = gateway.journal.events.lastSeq();
    for (const price of [book.bid.prices[2]!, book.bid.prices[3]!, book.ask.prices[0]!]) {
      broker.orders.place({ contract: { code: '2884' }, stockOrder: stock({ price }) });
    }
    assert.deepEqual(heard, [], 'no listener hears of a change before it is written');
    assert.equal(gateway.journal.events.lastSeq(), before);
    await gateway.durable();
    assert.equal(gateway.journal.orders.list().length, 3);
    assert.ok(heard.length >= 4, `the New reports and the deal: ${heard.length}`);
    assert.deepEqual(
      heard,
      heard.map((_, i) => before + i + 1),
    );
    await gateway.close();
  });
});

describe('update_qty and timeout 0', () => {
  test('reducing by everything still open cancels the order', () => {
    const { broker } = brokerAt('2026-11-23', '10:00');
    const { book } = bookNow(broker, '2884');
    const trade = broker.orders.place({
      contract: { code: '2884' },
      stockOrder: stock({ price: book.bid.prices[4]!, quantity: 3 }),
    });
    const reduced = broker.orders.updateQty(trade.order.id, 3);
    assert.equal(reduced.status.status, 'Cancelled');
    assert.equal(reduced.status.order_quantity, 0);
    assert.equal(reduced.status.cancel_quantity, 3);
  });

  test('a place without waiting answers a blank Inactive trade; the real one is in the list', async () => {
    const { broker, gateway } = brokerAt('2026-11-23', '10:00');
    const { book } = bookNow(broker, '2884');
    const placeholder = await gateway.orders.place({
      contract: { code: '2884' },
      stockOrder: stock({ price: book.bid.prices[4]! }),
      wait: false,
    });
    assert.equal(placeholder.status.status, 'Inactive');
    assert.equal(placeholder.order.id, '');
    assert.equal(placeholder.status.msg, '');
    assert.equal(placeholder.status.order_quantity, 0);
    const [listed] = broker.orders.trades();
    assert.equal(listed!.status.status, 'Submitted');
    assert.match(listed!.order.id, /^[0-9a-f]{8}$/);
  });
});

describe('rules', () => {
  test('a futures MKT ROD fails with the TAIFEX message; R1 shows the real month', () => {
    const { broker } = brokerAt('2026-11-23', '10:00');
    const trade = broker.orders.place({
      contract: { code: 'TXFR1' },
      futuresOrder: futures({ price_type: 'MKT' }),
    });
    assert.equal(trade.status.status, 'Failed');
    assert.equal(trade.status.msg, '當日市價單不允許當日有效委託(ROD)');
    assert.match(trade.contract.code, /^TXF[A-L]\d$/);
    assert.equal(trade.contract.target_code, trade.contract.code);
  });

  test('selling shares the account does not hold fails', () => {
    const { broker } = brokerAt('2026-11-23', '10:00');
    const { book } = bookNow(broker, '2884');
    const trade = broker.orders.place({
      contract: { code: '2884' },
      stockOrder: stock({ action: 'Sell', price: book.bid.prices[0]! }),
    });
    assert.equal(trade.status.status, 'Failed');
    assert.match(trade.status.msg, /餘股數不足/);
  });
});

describe('sessions in exchange mode', () => {
  test('an order placed before the open is PreSubmitted and released into the session', () => {
    const { broker, clock } = brokerAt('2026-11-23', '07:00', 'exchange');
    const reference = (broker.contracts.current().find('2884') as StockInfo).reference;
    const trade = broker.orders.place({
      contract: { code: '2884' },
      stockOrder: stock({ price: (broker.contracts.current().find('2884') as StockInfo).limit_up }),
    });
    assert.equal(trade.status.status, 'PreSubmitted', trade.status.msg);
    clock.set(taipeiInstant('2026-11-23', '08:31'));
    assert.equal(broker.orders.trades()[0]!.status.status, 'Submitted');
    clock.set(taipeiInstant('2026-11-23', '09:10'));
    const filled = broker.orders.trades()[0]!;
    assert.equal(filled.status.status, 'Filled');
    assert.ok(reference > 0);
  });

  test('an order reduced before the open stays PreSubmitted until the session opens', () => {
    const { broker, clock } = brokerAt('2026-11-23', '07:00', 'exchange');
    const limitDown = (broker.contracts.current().find('2884') as StockInfo).limit_down;
    const trade = broker.orders.place({
      contract: { code: '2884' },
      stockOrder: stock({ price: limitDown, quantity: 3 }),
    });
    assert.equal(trade.status.status, 'PreSubmitted', trade.status.msg);
    const reduced = broker.orders.updateQty(trade.order.id, 1);
    assert.equal(reduced.status.status, 'PreSubmitted', 'still waiting for the open');
    assert.equal(reduced.status.order_quantity, 2);
    assert.equal(reduced.status.cancel_quantity, 1);
    clock.set(taipeiInstant('2026-11-23', '08:31'));
    assert.equal(broker.orders.trades()[0]!.status.status, 'Submitted', 'released at the open');
    const gone = broker.orders.updateQty(trade.order.id, 2);
    assert.equal(gone.status.status, 'Cancelled', 'reduced to nothing');
  });

  test('futures and options follow the TAIFEX sessions: outside them only LMT ROD reservations, as for stocks', () => {
    // 2026-11-23 is a Monday: the night session ran to 05:00, order entry opens at 08:30 and again at 14:50.
    for (const [time, reopensAt] of [
      ['06:00', '08:30'],
      ['13:50', '14:50'],
    ] as const) {
      const { broker, clock } = brokerAt('2026-11-23', time, 'exchange');
      for (const code of ['TXFR1', 'MXFR1', '2884']) {
        const info = broker.contracts.current().find(code) as StockInfo;
        const place = (order: Pick<Partial<StockOrderInput>, 'price' | 'price_type' | 'order_type'>) =>
          info.security_type === 'STK'
            ? broker.orders.place({ contract: { code }, stockOrder: stock(order) })
            : broker.orders.place({ contract: { code }, futuresOrder: futures(order) });
        const refused = place({ price_type: 'MKT', order_type: 'IOC' });
        assert.equal(refused.status.status, 'Failed', `${code} at ${time}`);
        assert.equal(refused.status.msg, '集合競價時段不可輸入市價／ IOC ／ FOK 委託');
        assert.equal(place({ price: info.limit_down, order_type: 'IOC' }).status.status, 'Failed', code);
        const reserved = place({ price: info.limit_down });
        assert.equal(reserved.status.status, 'PreSubmitted', `${code} at ${time}: ${reserved.status.msg}`);
      }
      clock.set(taipeiInstant('2026-11-23', reopensAt) + 1000);
      const statuses = broker.orders.trades().map((t) => [t.contract.code, t.status.status]);
      const futuresReleased = statuses.filter(([, status]) => status === 'Submitted').map(([c]) => c);
      assert.equal(futuresReleased.length, reopensAt === '08:30' ? 3 : 2, JSON.stringify(statuses));
    }
  });

  test('a futures order in the night session trades; a market order at 05:00, when it has closed, is refused', () => {
    const { broker } = brokerAt('2026-11-23', '20:00', 'exchange');
    const trade = broker.orders.place({
      contract: { code: 'TXFR1' },
      futuresOrder: futures({ price_type: 'MKT', order_type: 'IOC' }),
    });
    assert.equal(trade.status.status, 'Filled', trade.status.msg);
    const late = brokerAt('2026-11-24', '05:00', 'exchange').broker;
    const refused = late.orders.place({
      contract: { code: 'TXFR1' },
      futuresOrder: futures({ price_type: 'MKT', order_type: 'IOC' }),
    });
    assert.equal(refused.status.status, 'Failed', refused.status.msg);
  });

  test('MKT and IOC are refused during the closing auction', () => {
    const { broker } = brokerAt('2026-11-23', '13:27', 'exchange');
    const trade = broker.orders.place({
      contract: { code: '2884' },
      stockOrder: stock({ price_type: 'MKT', order_type: 'IOC' }),
    });
    assert.equal(trade.status.status, 'Failed');
    assert.match(trade.status.msg, /集合競價/);
  });

  test('a Fixing order placed after the close fills at the close in the 14:30 fixed-price match', () => {
    const { broker, clock } = brokerAt('2026-11-23', '14:05', 'exchange');
    const close = broker.market.daily.closeOf('2884', '2026-11-23');
    const wrong = broker.orders.place({
      contract: { code: '2884' },
      stockOrder: stock({ price: close + 0.05, order_lot: 'Fixing' }),
    });
    assert.equal(wrong.status.status, 'Failed');
    assert.match(wrong.status.msg, new RegExp(`close price ${close}`));
    const trade = broker.orders.place({
      contract: { code: '2884' },
      stockOrder: stock({ price: close, order_lot: 'Fixing' }),
    });
    assert.equal(trade.status.status, 'Submitted', trade.status.msg);
    clock.set(taipeiInstant('2026-11-23', '14:29'));
    assert.equal(broker.orders.trades()[1]!.status.status, 'Submitted');
    clock.set(taipeiInstant('2026-11-23', '14:31'));
    const filled = broker.orders.trades()[1]!;
    assert.equal(filled.status.status, 'Filled');
    assert.deepEqual(
      filled.status.deals.map((d) => [d.price, d.quantity, d.ts]),
      [[close, 1, taipeiInstant('2026-11-23', '14:30') / 1000]],
    );
  });

  test('an after-hours odd-lot order fills at the 14:30 odd-lot auction, in shares', () => {
    const { broker, clock } = brokerAt('2026-11-23', '14:10', 'exchange');
    const info = broker.contracts.current().find('2884') as StockInfo;
    const trade = broker.orders.place({
      contract: { code: '2884' },
      stockOrder: stock({ price: info.limit_up, quantity: 37, order_lot: 'Odd' }),
    });
    assert.equal(trade.status.status, 'Submitted', trade.status.msg);
    clock.set(taipeiInstant('2026-11-23', '14:31'));
    const filled = broker.orders.trades()[0]!;
    const auction = broker.market.oddLotTape(info, '2026-11-23');
    const last = auction.times.length - 1;
    assert.equal(auction.times[last]! / 1000, taipeiInstant('2026-11-23', '14:30'));
    assert.equal(filled.status.status, 'Filled');
    assert.deepEqual(
      filled.status.deals.map((d) => [d.price, d.quantity]),
      [[auction.prices[last], 37]],
    );
  });

  test('Fixing orders are refused in always-open mode, which has no close, with a message saying so', () => {
    const { broker } = brokerAt('2026-11-23', '14:05');
    const trade = broker.orders.place({
      contract: { code: '2884' },
      stockOrder: stock({ price: 20, order_lot: 'Fixing' }),
    });
    assert.equal(trade.status.status, 'Failed');
    assert.match(trade.status.msg, /SJ_SIM_CLOCK=exchange/);
  });
});

describe('the journal', () => {
  test('combo trades and the contracts their legs booked survive a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-combos-'));
    try {
      const path = join(dir, 'sjgate.db');
      const first = brokerAt('2026-11-23', '10:00', 'always-open', path);
      const [combo] = first.broker.contracts.futuresCombos('TXF');
      const legs = combo!.legs.map((leg) => ({ security_type: leg.security_type, code: leg.code }));
      const order = {
        action: 'Buy' as const,
        price: 0,
        quantity: 1,
        price_type: 'MKT' as const,
        order_type: 'IOC' as const,
      };
      const bought = first.broker.orders.placeCombo({ legs, order });
      assert.equal(bought.status.status, 'Filled', bought.status.msg);
      const resting = first.broker.orders.placeCombo({
        legs,
        order: { ...order, price: -9999, price_type: 'LMT', order_type: 'ROD' },
      });
      assert.equal(resting.status.status, 'Submitted', resting.status.msg);
      const before = first.broker.orders.comboTrades();
      await first.gateway.close();
      const second = brokerAt('2026-11-23', '10:00', 'always-open', path);
      assert.deepEqual(second.broker.orders.comboTrades(), before);
      assert.equal(second.broker.orders.cancelCombo(resting.order.id).status.status, 'Cancelled');
      // The far month bought in the combo is held: selling it covers instead of needing new margin.
      const far = legs[1]!.code;
      const cover = second.broker.orders.placeCombo({ legs, order: { ...order, action: 'Sell' } });
      assert.equal(cover.status.status, 'Filled', cover.status.msg);
      assert.equal(cover.status.deals[far]![0]!.quantity, 1);
      await second.gateway.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an order filled in parts has all its deals after a restart, and its next deals follow them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-orders-'));
    try {
      const path = join(dir, 'sjgate.db');
      const first = brokerAt('2026-11-23', '10:00', 'always-open', path);
      const { book, tape, count } = bookNow(first.broker, '2884');
      const quantity = 200;
      const placed = first.broker.orders.place({
        contract: { code: '2884' },
        stockOrder: stock({ price: book.bid.prices[0]!, quantity }),
      });
      // Along the tape until the order has a deal or two and is still open.
      let k = count;
      const dealsAt = (broker: SimBroker) => broker.orders.trades()[0]!.status.deals.length;
      while (k < tape.times.length - 1 && dealsAt(first.broker) < 2) first.clock.set(tape.times[++k]! / 1000);
      const before = first.broker.orders.trades();
      const dealt = before[0]!.status.deals.length;
      assert.ok(dealt >= 1 && before[0]!.status.deal_quantity < quantity, `${dealt} deals`);
      await first.gateway.close();

      const clock = new ManualClock(first.clock.now());
      const { broker: second, gateway: secondGateway } = simGateway({
        clock,
        seed: 1,
        clockMode: 'always-open',
        apiKey: null,
        journalPath: path,
      });
      assert.deepEqual(second.orders.trades(), before);
      while (k < tape.times.length - 1 && dealsAt(second) === dealt) clock.set(tape.times[++k]! / 1000);
      const after = second.orders.trades()[0]!;
      assert.ok(after.status.deals.length > dealt, 'the order dealt again after the restart');
      assert.deepEqual(after.status.deals.slice(0, dealt), before[0]!.status.deals);
      await secondGateway.durable();
      assert.deepEqual(
        secondGateway.journal.orders.deals({ orderId: placed.order.id }).map((deal) => deal.record),
        after.status.deals,
        'one journaled deal per deal, in sequence',
      );
      await secondGateway.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an order id already taken is never handed out again, even when the order counter hashes to it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-orders-'));
    try {
      const path = join(dir, 'sjgate.db');
      // Order numbers 539,599 and 722,382 hash to the same 8-digit id.
      const placeAsNumber = async (counter: number) => {
        const journal = Journal.open(path);
        journal.meta.set('order_counter', String(counter - 1));
        journal.close();
        const { broker, gateway } = brokerAt('2026-11-23', '10:00', 'always-open', path);
        const { book } = bookNow(broker, '2884');
        const trade = broker.orders.place({
          contract: { code: '2884' },
          stockOrder: stock({ price: book.bid.prices[4]!, custom_field: `n${counter % 1000}` }),
        });
        const trades = broker.orders.trades();
        await gateway.close();
        return { trade, trades };
      };
      const first = await placeAsNumber(539_599);
      const second = await placeAsNumber(722_382);
      assert.notEqual(second.trade.order.id, first.trade.order.id);
      assert.deepEqual(second.trades[0], first.trade, 'the first order is untouched');
      assert.deepEqual(
        second.trades.map((trade) => trade.order.custom_field),
        [first.trade.order.custom_field, second.trade.order.custom_field],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a trade answered does not change when its order changes afterwards', () => {
    const { broker } = brokerAt('2026-11-23', '10:00');
    const { book } = bookNow(broker, '2884');
    const placed = broker.orders.place({
      contract: { code: '2884' },
      stockOrder: stock({ price: book.bid.prices[4]!, quantity: 3 }),
    });
    const snapshot = structuredClone(placed);
    const reduced = broker.orders.updateQty(placed.order.id, 1);
    const listed = broker.orders.trades();
    broker.orders.updatePrice(placed.order.id, book.bid.prices[3]!);
    broker.orders.cancel(placed.order.id);
    assert.deepEqual(placed, snapshot);
    assert.equal(reduced.status.order_quantity, 2);
    assert.equal(reduced.order.price, book.bid.prices[4]);
    assert.equal(listed[0]!.status.status, 'Submitted');
  });

  test('after a restart every trade is there and can still be cancelled', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-orders-'));
    try {
      const path = join(dir, 'sjgate.db');
      const first = brokerAt('2026-11-23', '10:00', 'always-open', path);
      const { book } = bookNow(first.broker, '2884');
      const resting = first.broker.orders.place({
        contract: { code: '2884' },
        stockOrder: stock({ price: book.bid.prices[4]! }),
      });
      const filled = first.broker.orders.place({
        contract: { code: '2884' },
        stockOrder: stock({ price: book.ask.prices[0]! }),
      });
      const before = first.broker.orders.trades();
      const lastSeq = first.gateway.orderEvents.after(0).at(-1)!.seq;
      await first.gateway.close();
      const second = brokerAt('2026-11-23', '10:00', 'always-open', path);
      assert.deepEqual(second.broker.orders.trades(), before);
      assert.equal(second.broker.orders.cancel(resting.order.id).status.status, 'Cancelled');
      assert.equal(second.broker.orders.trades().find((t) => t.order.id === filled.order.id)!.status.status, 'Filled');
      assert.ok(second.gateway.orderEvents.after(lastSeq)[0]!.seq === lastSeq + 1, 'the sequence continues');
      const sell = second.broker.orders.place({
        contract: { code: '2884' },
        stockOrder: stock({ action: 'Sell', price: book.bid.prices[0]! }),
      });
      assert.notEqual(
        sell.status.status,
        'Failed',
        `the shares bought before the restart are held: ${sell.status.msg}`,
      );
      assert.notEqual(sell.order.id, resting.order.id);
      await second.gateway.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('invariants', () => {
  test('no order fills beyond its quantity or outside its limit price, and deals add up', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            code: fc.constantFrom('2884', '2330', '2603', '0050'),
            action: fc.constantFrom('Buy' as const, 'Sell' as const),
            level: fc.integer({ min: -4, max: 4 }),
            quantity: fc.integer({ min: 1, max: 30 }),
            orderType: fc.constantFrom('ROD' as const, 'IOC' as const, 'FOK' as const),
            wait: fc.integer({ min: 0, max: 600_000 }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        (orders) => {
          const { broker, clock } = brokerAt('2026-11-23', '10:00');
          for (const o of orders) {
            const { book } = bookNow(broker, o.code);
            const side = o.level >= 0 ? book.ask : book.bid;
            const price = side.prices[Math.abs(o.level)] || book.ask.prices[0]!;
            broker.orders.place({
              contract: { code: o.code },
              stockOrder: stock({ action: o.action, price, quantity: o.quantity, order_type: o.orderType }),
            });
            clock.advance(o.wait);
          }
          for (const trade of broker.orders.trades()) {
            const { status, order } = trade;
            const dealt = status.deals.reduce((sum, d) => sum + d.quantity, 0);
            assert.equal(dealt, status.deal_quantity);
            assert.ok(status.deal_quantity + status.cancel_quantity <= order.quantity);
            for (const deal of status.deals) {
              assert.ok(order.action === 'Buy' ? deal.price <= order.price : deal.price >= order.price);
            }
            if (status.status === 'Filled') assert.equal(status.deal_quantity, status.order_quantity);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  // The heaviest async test of the suite: about 5 s alone, 15 s on a loaded 2-core machine.
  test('cash and positions reconcile with the deals, in the ledger, the journal and after a restart', {
    timeout: 120_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-reconcile-'));
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              code: fc.constantFrom('2884', '2603', '0050', 'TMFR1'),
              action: fc.constantFrom('Buy' as const, 'Sell' as const),
              cond: fc.constantFrom(
                'Cash' as const,
                'Cash' as const,
                'MarginTrading' as const,
                'ShortSelling' as const,
              ),
              daytradeShort: fc.boolean(),
              quantity: fc.integer({ min: 1, max: 3 }),
              wait: fc.integer({ min: 0, max: 900_000 }),
            }),
            { minLength: 1, maxLength: 14 },
          ),
          async (orders) => {
            const path = join(dir, `run-${run++}.db`);
            const { broker, clock, gateway } = brokerAt('2026-11-23', '10:00', 'always-open', path);
            for (const o of orders) {
              if (o.code === 'TMFR1') {
                broker.orders.place({
                  contract: { code: o.code },
                  futuresOrder: futures({
                    action: o.action,
                    price_type: 'MKT',
                    order_type: 'IOC',
                    quantity: o.quantity,
                  }),
                });
              } else {
                const { book } = bookNow(broker, o.code);
                const price = o.action === 'Buy' ? book.ask.prices[1]! : book.bid.prices[1]!;
                const stockOrder = stock({
                  action: o.action,
                  price,
                  quantity: o.quantity,
                  order_cond: o.cond,
                  daytrade_short: o.action === 'Sell' && o.cond === 'Cash' && o.daytradeShort,
                });
                broker.orders.place({ contract: { code: o.code }, stockOrder });
              }
              clock.advance(o.wait);
            }
            const [stockAccount, futuresAccount] = broker.accounts.list();
            const views = (b: SimBroker) => ({
              stock: b.portfolio.positions({ account_type: 'S' }, 'Share'),
              futures: b.portfolio.positions({ account_type: 'F' }, 'Common'),
              balance: b.portfolio.accountBalance({}),
              margin: b.portfolio.margin({}),
            });
            const signed = new Map<string, number>();
            for (const trade of broker.orders.trades()) {
              const { order, contract } = trade;
              const shares = 'order_lot' in order ? 1000 : 1;
              const sign = order.action === 'Buy' ? 1 : -1;
              for (const deal of trade.status.deals) {
                signed.set(contract.code, (signed.get(contract.code) ?? 0) + sign * deal.quantity * shares);
              }
            }
            const held = new Map<string, number>();
            for (const row of [...views(broker).stock, ...views(broker).futures]) {
              const sign = row.direction === 'Buy' ? 1 : -1;
              held.set(row.code, (held.get(row.code) ?? 0) + sign * row.quantity);
            }
            for (const [code, net] of signed) assert.equal(held.get(code) ?? 0, net, `position of ${code}`);
            gateway.flushJournal();
            for (const account of [stockAccount!, futuresAccount!]) {
              const key = `${account.broker_id}-${account.account_id}`;
              const start = account.account_type === 'S' ? 10_000_000 : 2_000_000;
              const journaled = gateway.journal.ledger.cashEntries(key).reduce((sum, entry) => sum + entry.amount, 0);
              if (broker.orders.ledger.accountType(key)) {
                assert.ok(Math.abs(broker.orders.ledger.cash(key) - (start + journaled)) < 1e-6, `cash of ${key}`);
              }
              const open = gateway.journal.ledger.positions(key).map((p) => p.key);
              assert.equal(new Set(open).size, open.length);
            }
            const before = views(broker);
            await gateway.close();
            const again = brokerAt('2026-11-23', '10:00', 'always-open', path);
            clock.advance(0);
            again.clock.set(clock.now());
            assert.deepEqual(views(again.broker), before);
            await again.gateway.close();
          },
        ),
        { numRuns: 12 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
