import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { LISTED_SECURITIES } from '../../src/broker/sim/catalog/listed-securities.js';
import { BOOK_LEVELS, bookAt } from '../../src/broker/sim/market/book.js';
import { FOLLOWERS } from '../../src/broker/sim/market/daily.js';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { tradingDaysBetween } from '../../src/domain/calendar.js';
import { isOnTickGrid } from '../../src/domain/ticks.js';
import { taipeiInstant } from '../../src/domain/time.js';

const DAYS = tradingDaysBetween('2024-12-02', '2027-12-30');
const STOCKS = LISTED_SECURITIES.map((s) => s.code);
const markets = { exchange: new SimMarket(1, 'exchange'), 'always-open': new SimMarket(1, 'always-open') };
const arb = fc.record({
  code: fc.constantFrom(...STOCKS),
  day: fc.constantFrom(...DAYS),
  mode: fc.constantFrom('exchange' as const, 'always-open' as const),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
});

describe('the five-level book', () => {
  test('best levels are the quote the last trade met; levels step a tick away, on the grid, inside the limits', () => {
    fc.assert(
      fc.property(arb, ({ code, day, mode, at }) => {
        const market = markets[mode];
        const info = market.listings.stockOn(code, day);
        const tape = market.tape(info, day);
        const count = Math.floor(at * tape.times.length);
        const book = bookAt(tape, count, info.reference);
        const table = FOLLOWERS.get(code)!.ticks!;
        if (count > 0) {
          assert.equal(book.bid.prices[0], tape.bidPrices[count - 1]);
          assert.equal(book.ask.prices[0], tape.askPrices[count - 1]);
          assert.equal(book.bid.volumes[0], tape.bidVolumes[count - 1]);
        }
        for (const [side, direction] of [
          [book.bid, -1],
          [book.ask, 1],
        ] as const) {
          assert.equal(side.prices.length, BOOK_LEVELS);
          for (let level = 0; level < BOOK_LEVELS; level++) {
            const price = side.prices[level]!;
            if (price === 0) {
              assert.equal(side.volumes[level], 0, 'an empty level has no volume');
              assert.ok(
                side.prices.slice(level).every((p) => p === 0),
                'empty levels are the deepest ones',
              );
              break;
            }
            assert.ok(isOnTickGrid(table, price), `${price} off the grid`);
            assert.ok(price >= info.limit_down && price <= info.limit_up, `${price} outside the limits`);
            assert.ok(side.volumes[level]! >= 1);
            if (level > 0)
              assert.ok(direction * (price - side.prices[level - 1]!) > 0, 'levels move away from the best');
          }
        }
        if (book.bid.prices[0]! > 0 && book.ask.prices[0]! > 0) assert.ok(book.bid.prices[0]! < book.ask.prices[0]!);
      }),
      { numRuns: 60 },
    );
  });

  test('the same moment always shows the same depth', () => {
    const market = markets.exchange;
    const info = market.listings.stockOn('2330', '2026-11-20');
    const tape = market.tape(info, '2026-11-20');
    assert.deepEqual(bookAt(tape, 100, info.reference), bookAt(tape, 100, info.reference));
    assert.notDeepEqual(bookAt(tape, 100, info.reference).bid.volumes, bookAt(tape, 101, info.reference).bid.volumes);
  });

  test('before the first trade a busy book is as deep as its first quotes, not a couple of trades', () => {
    for (const market of Object.values(markets)) {
      const info = market.listings.stockOn('2330', '2026-11-20');
      const tape = market.tape(info, '2026-11-20');
      const before = bookAt(tape, 0, info.reference);
      const firstQuotes = Array.from(tape.bidVolumes.slice(1, 51));
      const meanFirst = firstQuotes.reduce((a, b) => a + b, 0) / firstQuotes.length;
      const meanTrade = tape.volumes.slice(1, 51).reduce((a, b) => a + b, 0) / 50;
      assert.ok(meanFirst > 5 * meanTrade, `2330's quotes hold many trades (${meanFirst} vs ${meanTrade})`);
      for (const side of [before.bid, before.ask]) {
        assert.ok(side.volumes[0]! > meanFirst / 2 && side.volumes[0]! < meanFirst * 2, `${side.volumes[0]}`);
      }
    }
  });

  test('a stock locked at limit-up shows bids at the limit and an empty ask side', () => {
    const market = markets.exchange;
    let found = false;
    for (const code of STOCKS) {
      for (const day of DAYS.slice(0, 120)) {
        if (market.daily.closeOf(code, day) !== market.listings.stockOn(code, day).limit_up) continue;
        const info = market.listings.stockOn(code, day);
        const tape = market.tape(info, day);
        const book = bookAt(tape, tape.times.length, info.reference);
        assert.equal(book.bid.prices[0], info.limit_up);
        assert.deepEqual(book.ask.prices, [0, 0, 0, 0, 0]);
        found = true;
        break;
      }
      if (found) break;
    }
    assert.ok(found, 'some stock closed at limit-up');
  });
});

describe('odd-lot auctions', () => {
  test('odd lots match on the 5-second grid from 09:10 to 13:30 and at 14:30, at board-lot prices, in shares', () => {
    const market = markets.exchange;
    const day = '2026-11-20';
    const info = market.listings.stockOn('2330', day);
    const odd = market.oddLotTape(info, day);
    assert.ok(odd.times.length > 100, `${odd.times.length} odd-lot matches`);
    const open = taipeiInstant(day, '09:10');
    for (let k = 0; k < odd.times.length; k++) {
      const t = odd.times[k]! / 1000;
      assert.ok((t >= open && t <= taipeiInstant(day, '13:30')) || t === taipeiInstant(day, '14:30'));
      assert.equal((t - open) % 5000, 0);
      assert.ok(odd.prices[k]! >= info.limit_down && odd.prices[k]! <= info.limit_up);
      assert.ok(odd.prices[k] === odd.bidPrices[k] || odd.prices[k] === odd.askPrices[k]);
      assert.ok(Number.isInteger(odd.volumes[k]) && odd.volumes[k]! >= 1);
    }
    assert.equal(odd.amountUnit, 1, 'odd-lot amounts are price times shares');
  });
});

describe('trial matches (simtrade)', () => {
  test('before the open and the close they walk to the price the auction then matches at', () => {
    const market = markets.exchange;
    const day = '2026-11-20';
    const info = market.listings.stockOn('2317', day);
    const board = market.tape(info, day);
    const trial = market.trialTape(info, day);
    const times = Array.from(trial.times, (us) => us / 1000);
    assert.equal(times.filter((t) => t < taipeiInstant(day, '09:00')).length, 360);
    assert.equal(times.filter((t) => t >= taipeiInstant(day, '13:25')).length, 60);
    const lastBeforeOpen = times.findLastIndex((t) => t < taipeiInstant(day, '09:00'));
    assert.equal(trial.prices[lastBeforeOpen], board.prices[0], 'the last trial is the opening price');
    const closing = board.times.findIndex((us) => us / 1000 === taipeiInstant(day, '13:30'));
    assert.equal(trial.prices[trial.times.length - 1], board.prices[closing], 'the last trial is the closing price');
    assert.equal(market.daily.closeOf('2317', day), board.prices[closing]);
  });

  test('there are none in always-open mode', () => {
    const market = markets['always-open'];
    const info = market.listings.stockOn('2317', '2026-11-20');
    assert.equal(market.trialTape(info, '2026-11-20').times.length, 0);
  });
});
