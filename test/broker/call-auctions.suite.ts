import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { LISTED_SECURITIES } from '../../src/broker/sim/catalog/listed-securities.js';
import { type AuctionOrder, allot, uncross } from '../../src/broker/sim/market/call-auction.js';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { publishedCount } from '../../src/broker/sim/market/tape.js';
import { SimBroker } from '../../src/broker/sim/sim-broker.js';
import type { StockInfo } from '../../src/domain/contracts.js';
import type { StockOrderInput } from '../../src/domain/orders.js';
import { stepTicks } from '../../src/domain/ticks.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { simBrokerAt } from '../helpers/sim-market.js';

const DAY = '2026-11-23';
const ONE_TICK = { ticks: [{ min: 0, max: null, tick: 1 }], limitUp: 200, limitDown: 50 };
const exchange = new SimMarket(1, 'exchange');

function brokerAt(day: string, time: string) {
  const clock = new ManualClock(taipeiInstant(day, time));
  const startingFunds = { startingCash: 5_000_000_000, startingCollateral: 100_000_000 };
  const broker = new SimBroker({ clock, seed: 1, clockMode: 'exchange', apiKey: null, startingFunds });
  const buy = (code: string, price: number, quantity = 1) =>
    broker.orders.place({ contract: { code }, stockOrder: order({ price, quantity }) });
  return { clock, broker, buy };
}

const order = (fields: Partial<StockOrderInput>): StockOrderInput => ({
  action: 'Buy',
  price: 0,
  quantity: 1,
  price_type: 'LMT',
  order_type: 'ROD',
  ...fields,
});

const dealsOf = (broker: SimBroker, id: string) =>
  broker.orders
    .trades()
    .find((t) => t.order.id === id)!
    .status.deals.map((d) => [d.price, d.quantity, d.ts * 1000]);

describe('the uncross rule', () => {
  test('the most volume with every better-priced order filled; ties go to the price nearest the reference', () => {
    const batch: AuctionOrder[] = [
      { side: 'Buy', price: 106, quantity: 10 },
      { side: 'Buy', price: 105, quantity: 20 },
      { side: 'Buy', price: 104, quantity: 30 },
      { side: 'Sell', price: 103, quantity: 15 },
      { side: 'Sell', price: 104, quantity: 25 },
      { side: 'Sell', price: 105, quantity: 40 },
    ];
    assert.deepEqual(uncross(batch, ONE_TICK, 100), { price: 104, volume: 40 });
    const wide: AuctionOrder[] = [
      { side: 'Buy', price: 105, quantity: 10 },
      { side: 'Sell', price: 100, quantity: 10 },
    ];
    assert.deepEqual(uncross(wide, ONE_TICK, 102), { price: 102, volume: 10 }, 'nearest the reference');
    assert.deepEqual(uncross(wide, ONE_TICK, 90), { price: 100, volume: 10 });
    assert.equal(uncross([{ side: 'Buy', price: 99, quantity: 5 }, ...wide.slice(1)], ONE_TICK, 100), null);
  });

  test('better-priced orders fill whole; at the price the rest goes in priority, never past the volume', () => {
    const market: AuctionOrder[] = [
      { side: 'Buy', price: 104, quantity: 30 },
      { side: 'Sell', price: 103, quantity: 15 },
      { side: 'Sell', price: 104, quantity: 20 },
    ];
    const users = [
      { order: { side: 'Buy', price: 106, quantity: 10 }, position: 0.5 },
      { order: { side: 'Buy', price: 104, quantity: 20 }, position: 0.1 },
      { order: { side: 'Buy', price: 104, quantity: 20 }, position: 0.2 },
      { order: { side: 'Buy', price: 103, quantity: 5 }, position: 0 },
    ] as const;
    const batch = [...market, ...users.map((u) => u.order)];
    const at = uncross(batch, ONE_TICK, 104)!;
    assert.deepEqual(at, { price: 104, volume: 35 });
    // 25 lots are left at 104 for 70 lots of bids: 3 of the market's 30 stand before the first user (0.1 x 30).
    assert.deepEqual(allot([...users], batch, at), [10, 20, 0, 0]);
  });

  test('property: the most volume the rule allows, and never more allotted than the auction trades', () => {
    const order = fc.record({
      side: fc.constantFrom('Buy' as const, 'Sell' as const),
      price: fc.integer({ min: 95, max: 105 }),
      quantity: fc.integer({ min: 1, max: 50 }),
    });
    fc.assert(
      fc.property(
        fc.array(order, { maxLength: 12 }),
        fc.array(fc.tuple(order, fc.double({ min: 0, max: 0.999, noNaN: true })), { maxLength: 4 }),
        fc.integer({ min: 95, max: 105 }),
        (market, ranked, reference) => {
          const users = ranked.map(([o, position]) => ({ order: o, position }));
          const batch = [...market, ...users.map((u) => u.order)];
          const volumeAt = (p: number) => {
            const demand = batch.filter((o) => o.side === 'Buy' && o.price >= p).reduce((n, o) => n + o.quantity, 0);
            const supply = batch.filter((o) => o.side === 'Sell' && o.price <= p).reduce((n, o) => n + o.quantity, 0);
            const volume = Math.min(demand, supply);
            const better =
              batch.filter((o) => o.side === 'Buy' && o.price > p).reduce((n, o) => n + o.quantity, 0) <= volume &&
              batch.filter((o) => o.side === 'Sell' && o.price < p).reduce((n, o) => n + o.quantity, 0) <= volume;
            return better ? volume : 0;
          };
          const best = Math.max(0, ...Array.from({ length: 11 }, (_, i) => volumeAt(95 + i)));
          const at = uncross(batch, ONE_TICK, reference);
          if (best === 0) return assert.equal(at, null);
          assert.equal(at!.volume, best);
          assert.equal(volumeAt(at!.price), best);
          const got = allot(users, batch, at!);
          for (const side of ['Buy', 'Sell'] as const) {
            const taken = got.reduce((n, q, i) => (users[i]!.order.side === side ? n + q : n), 0);
            assert.ok(taken <= at!.volume, `${side}: ${taken} of ${at!.volume}`);
          }
          users.forEach((u, i) => {
            const through = u.order.side === 'Buy' ? u.order.price > at!.price : u.order.price < at!.price;
            if (through) assert.equal(got[i], u.order.quantity, 'a better-priced order fills whole');
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the opening auction', () => {
  test('a pre-open buy of 2330 above the open fills at the one opening price, printed first in ticks and kbars', () => {
    const { clock, broker, buy } = brokerAt(DAY, '08:00');
    const info = broker.contracts.current().find('2330') as StockInfo;
    const tape = broker.market.tape(info, DAY);
    const open = tape.prices[0]!;
    const high = stepTicks(tape.rules!.ticks, open, 9);
    const trade = buy('2330', high);
    assert.equal(trade.status.status, 'PreSubmitted');
    clock.set(taipeiInstant(DAY, '09:00:01'));
    const opened = taipeiInstant(DAY, '09:00') + 1;
    assert.deepEqual(dealsOf(broker, trade.order.id), [[open, 1, opened]], `not at ${high}`);
    const ticks = broker.marketData.ticks({ contract: { code: '2330' }, date: DAY });
    assert.equal(ticks.datetime[0], `${DAY}T09:00:00.001000`, 'matched as the session opens');
    assert.deepEqual([ticks.close[0], ticks.volume[0], ticks.tick_type[0]], [open, tape.volumes[0], 0]);
    assert.ok(tape.volumes[0]! > 1, 'the opening auction trades a share of the day');
    const kbars = broker.marketData.kbars({ contract: { code: '2330' }, start: DAY, end: DAY });
    assert.deepEqual([kbars.datetime[0], kbars.Open[0]], [`${DAY}T09:01:00`, open], 'in the first bar');
    assert.equal(broker.marketData.snapshots([{ code: '2330' }])[0]!.open, open);
  });

  test('a large pre-open buy moves the uncross price; every crossing user order fills at that one price', () => {
    const { clock, broker, buy } = brokerAt(DAY, '08:40');
    const info = broker.contracts.current().find('2330') as StockInfo;
    const tape = broker.market.tape(info, DAY);
    const printed = tape.prices[0]!;
    const small = buy('2330', info.limit_up, 1);
    const large = buy('2330', info.limit_up, 499);
    const larger = buy('2330', stepTicks(tape.rules!.ticks, printed, 6), 499);
    assert.deepEqual([large.status.status, larger.status.status], ['Submitted', 'Submitted'], large.status.msg);
    const under = buy('2330', stepTicks(tape.rules!.ticks, printed, -3));
    clock.set(taipeiInstant(DAY, '09:00:01'));
    const [smallDeals, largeDeals] = [dealsOf(broker, small.order.id), dealsOf(broker, large.order.id)];
    assert.equal(smallDeals.length, 1);
    const price = smallDeals[0]![0]!;
    assert.ok(price > printed, `998 lots lift the open from ${printed} to ${price}`);
    assert.deepEqual(largeDeals, [[price, 499, taipeiInstant(DAY, '09:00') + 1]]);
    assert.ok(
      dealsOf(broker, larger.order.id).every((deal) => deal[0] === price),
      'the same price',
    );
    assert.deepEqual(dealsOf(broker, under.order.id), [], 'a bid under the uncross waits');
  });

  test('TXF orders placed before 08:45 and 15:00 fill at the opening print of their session', () => {
    for (const [day, placed, opens] of [
      [DAY, '08:35', '08:45'],
      ['2026-11-20', '14:55', '15:00'],
    ] as const) {
      const { clock, broker } = brokerAt(day, placed);
      const alias = broker.contracts.current().find('TXFR1')!;
      const code = alias.target_code ?? alias.code;
      const info = broker.contracts.current().find(code)!;
      const tape = broker.market.tape(info, broker.market.dayAt('futures', clock.now()));
      const k = publishedCount(tape, taipeiInstant(day, opens));
      const printed = taipeiInstant(day, opens) + 1;
      assert.deepEqual([tape.times[k]! / 1000, tape.tickTypes[k]], [printed, 0], 'an opening print');
      const futuresOrder = { action: 'Buy', price: tape.prices[k]! + 40, quantity: 1, price_type: 'LMT' } as const;
      const trade = broker.orders.place({
        contract: { code, security_type: 'FUT' },
        futuresOrder: { ...futuresOrder, order_type: 'ROD', octype: 'Auto' },
      });
      clock.set(taipeiInstant(day, opens) + 1000);
      assert.deepEqual(dealsOf(broker, trade.order.id), [[tape.prices[k], 1, printed]]);
    }
  });

  test('always-open mode has no opening auction and no fixed-price match', () => {
    const market = new SimMarket(1, 'always-open');
    const info = market.listings.stockOn('2330', DAY);
    const tape = market.tape(info, DAY);
    assert.notEqual(tape.tickTypes[0], 0);
    assert.equal(tape.tickTypes.filter((type) => type === 0).length, 1, 'only the session-end print');
    assert.equal(market.fixedPriceTape(info, DAY).times.length, 0);
  });
});

describe('the closing auction and the fixed-price match', () => {
  test("an order placed in the closing auction fills at 13:30 at the close, which is the day's close", () => {
    const { clock, broker, buy } = brokerAt(DAY, '13:27');
    const info = broker.contracts.current().find('2884') as StockInfo;
    const trade = buy('2884', info.limit_up, 3);
    assert.equal(trade.status.status, 'Submitted', trade.status.msg);
    assert.deepEqual(trade.status.deals, [], 'no trading before the uncross');
    clock.set(taipeiInstant(DAY, '13:30:01'));
    const close = broker.market.daily.closeOf('2884', DAY);
    assert.deepEqual(dealsOf(broker, trade.order.id), [[close, 3, taipeiInstant(DAY, '13:30')]]);
  });

  test('the closing auction share varies by stock and day within what TWSE shows', () => {
    const shares: number[] = [];
    const opening: number[] = [];
    for (const day of ['2026-11-20', DAY]) {
      for (const security of LISTED_SECURITIES.slice(0, 60)) {
        const info = exchange.listings.stockOn(security.code, day);
        if (info.disposition_match_interval_min) continue;
        const tape = exchange.tape(info, day);
        const total = tape.volumes.reduce((a, b) => a + b, 0);
        shares.push(tape.volumes.at(-1)! / total);
        opening.push(tape.volumes[0]! / total);
      }
    }
    shares.sort((a, b) => a - b);
    const quantile = (q: number) => shares[Math.floor(q * (shares.length - 1))]!;
    assert.ok(shares[0]! >= 0.009 && shares.at(-1)! <= 0.25, `closing shares ${shares[0]}..${shares.at(-1)}`);
    assert.ok(quantile(0.5) > 0.03 && quantile(0.5) < 0.12, `median ${quantile(0.5)}`);
    assert.ok(quantile(0.9) / quantile(0.1) > 1.8, `spread ${quantile(0.1)}..${quantile(0.9)}`);
    assert.ok(new Set(shares.map((s) => s.toFixed(3))).size > shares.length / 2, 'not one share for all');
    assert.ok(
      opening.every((s) => s >= 0.009 && s <= 0.09),
      'opening auctions 1-8%',
    );
  });

  test('the fixed-price match is its own small volume, in fixed_trade_vol only; trial matches add no volume', () => {
    const { clock, broker, events, run } = simBrokerAt(DAY, '08:29', 1000);
    broker.quotes.subscribe(
      broker.quotes.resolve({ contract: { code: '2330' }, quoteType: 'Tick', intradayOdd: false }),
    );
    const ticks = () => events.filter((e) => e.name === 'tick_stk').map((e) => e.data as Record<string, number>);
    run(120_000);
    const preOpen = ticks();
    assert.ok(preOpen.length > 0 && preOpen.every((t) => t.simtrade), 'trial matches');
    assert.ok(
      preOpen.every((t) => t.total_volume === 0 && t.volume! > 0),
      'indicated volume, no day volume',
    );
    const info = broker.contracts.current().find('2330') as StockInfo;
    const board = broker.market.tape(info, DAY);
    const dayVolume = board.volumes.reduce((a, b) => a + b, 0);
    const beforeClose = dayVolume - board.volumes.at(-1)!;
    clock.set(taipeiInstant(DAY, '13:26'));
    broker.feed.step();
    events.length = 0;
    run(60_000);
    const preClose = ticks().filter((t) => t.simtrade);
    assert.ok(preClose.length > 0);
    assert.ok(
      preClose.every((t) => t.total_volume === beforeClose),
      'trials before the close count nothing',
    );
    clock.set(taipeiInstant(DAY, '14:29'));
    broker.feed.step();
    events.length = 0;
    run(120_000);
    const fixedTape = broker.market.fixedPriceTape(info, DAY);
    const fixed = ticks().at(-1)!;
    assert.equal(fixed.time as unknown as string, '14:30:00.000000');
    assert.deepEqual(
      [fixed.fixed_trade_vol, fixed.volume, fixed.total_volume],
      [fixedTape.volumes[0], fixed.volume, dayVolume],
    );
    assert.notEqual(fixed.fixed_trade_vol, board.volumes.at(-1), 'not the closing auction again');
    assert.ok(fixed.fixed_trade_vol! > 0 && fixed.fixed_trade_vol! < 0.05 * dayVolume, 'small');
    const snapshot = broker.marketData.snapshots([{ code: '2330' }])[0]!;
    assert.deepEqual([snapshot.total_volume, snapshot.datetime], [dayVolume, `${DAY}T14:30:00.000000`], 'counted once');
    const history = broker.marketData.ticks({ contract: { code: '2330' }, date: DAY });
    assert.deepEqual(
      [history.datetime.at(-1), history.volume.at(-1)],
      [`${DAY}T14:30:00.000000`, fixedTape.volumes[0]],
    );
    const kbars = broker.marketData.kbars({ contract: { code: '2330' }, start: DAY, end: DAY });
    assert.equal(kbars.datetime.at(-1), `${DAY}T13:30:00`, 'the fixed-price match is in no bar');
    assert.equal(
      kbars.Volume.reduce((a, b) => a + b, 0),
      dayVolume,
    );
  });
});

describe('trial matches before a futures session', () => {
  test('arrive flagged simtrade and add no volume; the 08:45 opening print is the first trade added', () => {
    const day = '2026-11-24';
    const { clock, broker, events, run } = simBrokerAt(day, '08:29', 1000);
    const alias = broker.contracts.current().find('TXFR1')!;
    const code = alias.target_code ?? alias.code;
    broker.quotes.subscribe(broker.quotes.resolve({ contract: { code }, quoteType: 'Tick', intradayOdd: false }));
    const tape = broker.market.tape(broker.contracts.current().find(code)!, day);
    const opens = taipeiInstant(day, '08:45');
    const night = tape.volumes.slice(0, publishedCount(tape, opens)).reduce((a, b) => a + b, 0);
    const ticks = () => events.filter((e) => e.name === 'tick_fop').map((e) => e.data as Record<string, number>);
    run(17 * 60_000);
    assert.ok(clock.now() > opens, 'the clock ran past the 08:45 open');
    const trials = ticks().filter((t) => t.simtrade);
    assert.ok(trials.length >= 150, `${trials.length} trial matches, one every 5 s from 08:30`);
    assert.ok(
      trials.every((t) => t.volume! > 0),
      'each shows its indicated volume',
    );
    const totals = new Set(trials.map((t) => t.total_volume));
    assert.equal(totals.size, 1, `trial matches add nothing to the day's volume: ${[...totals].slice(0, 5)}`);
    const opening = ticks().find((t) => !t.simtrade)!;
    assert.equal(opening.total_volume, night + tape.volumes[publishedCount(tape, opens)]!, 'the opening print adds');
  });
});

describe('disposition stocks', () => {
  const disposed = LISTED_SECURITIES.map((s) => exchange.listings.stockOn(s.code, DAY)).find(
    (info) => info.disposition_match_interval_min === 5,
  )!;

  test('print only at their periodic call auctions, from the 09:00 open to the 13:30 close', () => {
    const tape = exchange.tape(disposed, DAY);
    const open = taipeiInstant(DAY, '09:00');
    const times = Array.from(tape.times, (us) => us / 1000);
    assert.equal(times.length, (4 * 60 + 30) / 5 + 1);
    assert.ok(
      times.every((t, k) => t === open + k * 5 * 60_000 + (k === 0 ? 1 : 0)),
      'every 5 minutes',
    );
    assert.ok(
      tape.tickTypes.every((type) => type === 0),
      'all auction prints',
    );
    assert.equal(tape.prices.at(-1), exchange.daily.closeOf(disposed.code, DAY));
  });

  test('a stock at the second level of disposition prints only every 20 minutes', () => {
    const slow = LISTED_SECURITIES.map((s) => exchange.listings.stockOn(s.code, DAY)).find(
      (info) => info.disposition_match_interval_min === 20,
    )!;
    const tape = exchange.tape(slow, DAY);
    const open = taipeiInstant(DAY, '09:00');
    const times = Array.from(tape.times, (us) => us / 1000);
    // 09:00 (printed a millisecond after), 09:20 to 13:20 every 20 minutes, then the 13:30 close.
    const expected = [open + 1, ...Array.from({ length: 13 }, (_, k) => open + (k + 1) * 20 * 60_000)];
    assert.deepEqual(times, [...expected, taipeiInstant(DAY, '13:30')]);
    assert.ok(
      tape.tickTypes.every((type) => type === 0),
      'all auction prints',
    );
  });

  test('a marketable order waits for the next auction and fills there at the uncross price', () => {
    const { clock, broker, buy } = brokerAt(DAY, '10:02');
    const tape = broker.market.tape(disposed, DAY);
    const ioc = broker.orders.place({
      contract: { code: disposed.code },
      stockOrder: order({ price: disposed.limit_up, order_type: 'IOC' }),
    });
    assert.equal(ioc.status.status, 'Failed', 'IOC is refused: it is always a call auction');
    assert.match(ioc.status.msg, /集合競價/);
    const trade = buy(disposed.code, disposed.limit_up);
    assert.equal(trade.status.status, 'Submitted', trade.status.msg);
    assert.deepEqual(trade.status.deals, [], 'nothing on arrival');
    clock.set(taipeiInstant(DAY, '10:04:59'));
    assert.deepEqual(dealsOf(broker, trade.order.id), []);
    clock.set(taipeiInstant(DAY, '10:05:01'));
    const k = publishedCount(tape, taipeiInstant(DAY, '10:05')) - 1;
    assert.deepEqual(dealsOf(broker, trade.order.id), [[tape.prices[k], 1, taipeiInstant(DAY, '10:05')]]);
  });
});
