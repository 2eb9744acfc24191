// The simulator's market scanner: one stock's rules on a crafted sequence of trades and books (price moves, bursts,
// cooldowns, only the active rules), and the whole-exchange scan on the simulated market: signals with their quote
// and extra, trial matches before the open (simtrade), nothing after unsubscribing.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ScanTrade, StockScan } from '../../src/broker/sim/scanner/stock-scan.js';
import { SimBroker } from '../../src/broker/sim/sim-broker.js';
import type { MarketEvent } from '../../src/domain/quotes.js';
import { LIMIT_RULES, SCANNER_RULES, type ScannerId, type ScannerRule } from '../../src/domain/scanner-rules.js';
import { STOCK_TICKS } from '../../src/domain/ticks.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';

const ALL = new Set<ScannerRule>(SCANNER_RULES);
const LIMITS = { limitUp: 55, limitDown: 45, ticks: STOCK_TICKS };
const trade = (ms: number, price: number, bid: number, ask: number, volume = 1): ScanTrade => ({
  timeUs: ms * 1000,
  price,
  volume,
  amount: price * volume * 1000,
  top: { bid, ask },
});

describe('one stock under the scanner', () => {
  test('a fast rise of trades and bids fires trade_price_surge and bid_price_surge, then cools down 1 s', () => {
    const scan = new StockScan(LIMITS, { bid: 49.95, ask: 50 });
    assert.deepEqual(scan.onTrade(trade(0, 50, 49.95, 50), ALL, Infinity), []);
    const surge = scan.onTrade(trade(500, 50.6, 50.5, 50.6), ALL, Infinity);
    assert.deepEqual(
      surge.map((s) => s.rule),
      ['trade_price_surge', 'bid_price_surge'],
    );
    assert.deepEqual(surge[0]!.extra, {
      family: 'price_move',
      reference: { timeUs: 0, price: 50 },
      change_price: 0.6,
      change_percent: 1.2,
      tick_change: 6,
      elapsed_ms: 500,
    });
    assert.deepEqual(scan.onTrade(trade(900, 51.2, 51.1, 51.2), ALL, Infinity), [], 'cooling down');
    assert.deepEqual(
      scan.onTrade(trade(1_600, 51.9, 51.8, 51.9), ALL, Infinity).map((s) => s.rule),
      ['trade_price_surge', 'bid_price_surge'],
    );
  });

  test('a fast fall of trades and asks fires trade_price_drop and ask_price_drop', () => {
    const scan = new StockScan(LIMITS, { bid: 49.95, ask: 50 });
    scan.onTrade(trade(0, 50, 49.95, 50), ALL, Infinity);
    assert.deepEqual(
      scan.onTrade(trade(300, 49.4, 49.35, 49.4), ALL, Infinity).map((s) => s.rule),
      ['trade_price_drop', 'ask_price_drop'],
    );
  });

  test('volume_burst fires on one trade worth the threshold, then is quiet for 5 s', () => {
    const scan = new StockScan(LIMITS, { bid: 49.95, ask: 50 });
    assert.deepEqual(scan.onTrade(trade(0, 50, 49.95, 50, 199), ALL, 10_000_000), [], 'NT$9.95 million');
    const [burst] = scan.onTrade(trade(100, 50, 49.95, 50, 200), ALL, 10_000_000);
    assert.deepEqual(burst, {
      rule: 'volume_burst',
      timeUs: 100_000,
      extra: { family: 'volume', amount: 10_000_000, volume: 200, price: 50, threshold: 10_000_000 },
    });
    assert.deepEqual(scan.onTrade(trade(5_000, 50, 49.95, 50, 500), ALL, 10_000_000), []);
    assert.equal(scan.onTrade(trade(5_100, 50, 49.95, 50, 500), ALL, 10_000_000).length, 1);
  });

  test('only the active rules fire; the book is followed all the same', () => {
    const scan = new StockScan(LIMITS, { bid: 54.5, ask: 54.6 });
    const touchOnly = new Set<ScannerRule>(['bid_touch_limit_up']);
    assert.deepEqual(scan.onTrade(trade(0, 54.8, 54.8, 54.9), touchOnly, Infinity), [], 'near is not active');
    assert.deepEqual(
      scan.onTrade(trade(10, 55, 55, 0), touchOnly, Infinity).map((s) => s.rule),
      ['bid_touch_limit_up'],
    );
  });
});

// biome-ignore lint/suspicious/noExplicitAny: the wire JSON, read field by field in asserts
type Wire = Record<string, any>;

const DAY = '2026-11-16';

function exchangeAt(time: string) {
  const clock = new ManualClock(taipeiInstant(DAY, time));
  const broker = new SimBroker({ clock, seed: 1, clockMode: 'exchange', apiKey: null });
  const events: MarketEvent[] = [];
  broker.scanner.onMarketEvent((event) => events.push(event));
  const run = (ms: number) => {
    for (let t = 0; t < ms; t += 100) {
      clock.advance(100);
      broker.feed.step();
    }
  };
  const scanner = (id: ScannerId, exchange: 'TSE' | 'OTC' = 'TSE') =>
    ({ scanner: id, region: 'TW', security_type: 'STK', exchange }) as const;
  return { broker, clock, events, run, scanner };
}

describe('the simulated exchange under the scanner', () => {
  test('nothing is scanned, nor any tape built for it, while nobody subscribes', () => {
    const { broker, events, run } = exchangeAt('09:00:00');
    run(5_000);
    assert.deepEqual(broker.scanner.scanned(), {});
    assert.equal(events.length, 0);
  });

  test("the afternoon's limit-up stocks: touch, unlock and near, with the stock's quote and the limit extra", () => {
    // Seed 1 on this day: 3023 and 2369 reach their limit-up in the late session (they close there).
    const { broker, events, run, scanner } = exchangeAt('12:55:00');
    for (const rule of ['bid_near_limit_up', 'bid_touch_limit_up', 'limit_up_unlocked'] as const) {
      broker.scanner.subscribe(scanner(rule));
    }
    run(5 * 60_000);
    const data = events.map((event) => event.data as Wire);
    assert.ok(events.every((event) => event.name === 'scanner'));
    const rules = new Set(data.map((d) => d.scanner));
    assert.deepEqual([...rules].sort(), ['bid_near_limit_up', 'bid_touch_limit_up', 'limit_up_unlocked']);
    for (const d of data) {
      assert.deepEqual(Object.keys(d), ['scanner', 'region', 'security_type', 'exchange', 'quote', 'extra']);
      assert.equal(d.exchange, 'TSE');
      assert.equal(d.extra.limit_price, d.quote.limit_up);
      assert.equal(d.quote.date, DAY);
      assert.equal(d.quote.simtrade, false);
    }
    const touch = data.find((d) => d.scanner === 'bid_touch_limit_up')!;
    assert.equal(touch.extra.trigger_price, touch.quote.limit_up);
    assert.equal(touch.quote.bid_price, touch.quote.limit_up);
    assert.equal(touch.quote.ask_price, '0', 'locked: no ask');
    const stamps = data.map((d) => d.quote.time);
    assert.deepEqual(stamps, [...stamps].sort(), 'in time order across the exchange');
  });

  test('volume_burst states the threshold of the day, and OTC is scanned apart from TSE', () => {
    const { broker, events, run, scanner } = exchangeAt('09:00:00');
    broker.scanner.subscribe(scanner('volume_burst', 'OTC'));
    run(10 * 60_000);
    const data = events.map((event) => event.data as Wire);
    assert.ok(data.length > 0);
    const { threshold } = broker.scanner.scanned().OTC!;
    for (const d of data) {
      assert.equal(d.exchange, 'OTC');
      assert.equal(d.extra.threshold, threshold);
      assert.ok(d.extra.amount >= d.extra.threshold);
      assert.equal(d.extra.amount, Number(d.quote.amount));
    }
    assert.deepEqual(Object.keys(broker.scanner.scanned()), ['OTC']);
  });

  test('simtrade passes on the trial matches before the open, flagged, and stops with the unsubscribe', () => {
    const { broker, events, run, scanner } = exchangeAt('08:45:00');
    broker.scanner.subscribe(scanner('simtrade'));
    run(10_000);
    const data = events.map((event) => event.data as Wire);
    assert.ok(data.length > 0);
    for (const d of data) {
      assert.deepEqual(Object.keys(d), ['scanners', 'region', 'security_type', 'exchange', 'quote']);
      assert.deepEqual(d.scanners, ['simtrade']);
      assert.equal(d.quote.simtrade, true);
      assert.ok(d.quote.volume > 0, 'the indicated volume');
      assert.equal(d.quote.vol_sum, 0, 'nothing traded yet, and a trial match adds nothing');
    }
    broker.scanner.unsubscribe(scanner('simtrade'));
    const seen = events.length;
    run(10_000);
    assert.equal(events.length, seen);
    assert.deepEqual(broker.scanner.scanned(), {});
  });

  test('suspend gives the quote of each suspended stock of the exchange when subscribed and at each new day', () => {
    const { broker, clock, events, run, scanner } = exchangeAt('10:00:00');
    // The simulated catalog suspends no stock: one is made so here.
    const listings = broker.market.listings;
    const stockOn = listings.stockOn.bind(listings);
    listings.stockOn = (code, day) => ({ ...stockOn(code, day), trading_suspended: code === '2330' });
    broker.scanner.subscribe(scanner('suspend'));
    broker.scanner.subscribe(scanner('suspend', 'OTC'));
    assert.equal(events.length, 1, 'one suspended stock, on TSE');
    const data = events[0]!.data as Wire;
    assert.deepEqual(Object.keys(data), ['scanners', 'region', 'security_type', 'exchange', 'quote']);
    assert.deepEqual(
      [data.scanners, data.exchange, data.quote.code, data.quote.suspend],
      [['suspend'], 'TSE', '2330', true],
    );
    run(60_000);
    assert.equal(events.length, 1, 'not again within the day');
    clock.advance(3 * 24 * 3_600_000); // Friday to Monday
    broker.feed.step();
    assert.equal(events.length, 2, 'again on the next trading day');
    assert.equal((events.at(-1)!.data as Wire).quote.code, '2330');
  });

  test('rules subscribed after a state start from the book as it stands, as if subscribed alone', () => {
    const signals = (startWithSimtrade: boolean) => {
      const { broker, events, run, scanner } = exchangeAt(startWithSimtrade ? '12:50:00' : '12:55:00');
      if (startWithSimtrade) {
        broker.scanner.subscribe(scanner('simtrade'));
        run(300_000);
      }
      for (const rule of LIMIT_RULES) broker.scanner.subscribe(scanner(rule));
      run(5 * 60_000);
      return events.map((event) => event.data as Wire).filter((d) => d.scanner !== undefined);
    };
    const alone = signals(false);
    assert.ok(alone.length > 0, 'limit signals after 12:55');
    assert.deepEqual(signals(true), alone);
  });

  test('the same seed and clock give the same signals', () => {
    const runs = [0, 1].map(() => {
      const { broker, events, run, scanner } = exchangeAt('09:00:00');
      broker.scanner.subscribe(scanner('bid_touch_limit_up'));
      run(60_000);
      return events;
    });
    assert.deepEqual(runs[0], runs[1]);
  });
});
