import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { LISTED_SECURITIES } from '../../src/broker/sim/catalog/listed-securities.js';
import { FOLLOWERS } from '../../src/broker/sim/market/daily.js';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { nextTradingDay, previousTradingDay, tradingDaysBetween } from '../../src/domain/calendar.js';
import type { ContractInfo, OptionInfo, StockInfo } from '../../src/domain/contracts.js';
import { tradingSession } from '../../src/domain/sessions.js';
import { isOnTickGrid, roundToTick, TXO_PREMIUM_TICKS, tickAt } from '../../src/domain/ticks.js';
import { taipeiInstant } from '../../src/domain/time.js';

const DAYS = tradingDaysBetween('2020-03-02', '2027-12-30');
const STOCKS = LISTED_SECURITIES.map((s) => s.code);
const market = new SimMarket(1, 'exchange');
const alwaysOpen = new SimMarket(1, 'always-open');

const stockDayArb = fc.record({
  code: fc.constantFrom(...STOCKS),
  day: fc.constantFrom(...DAYS),
  exchange: fc.boolean(),
});

describe('stock tapes', () => {
  test('every trade is on the tick grid and inside the day limits, and so are the quotes', () => {
    fc.assert(
      fc.property(stockDayArb, ({ code, day, exchange }) => {
        const mode = exchange ? market : alwaysOpen;
        const info = mode.listings.stockOn(code, day);
        const tape = mode.tape(info, day);
        const table = FOLLOWERS.get(code)!.ticks!;
        for (let k = 0; k < tape.times.length; k++) {
          const price = tape.prices[k]!;
          assert.ok(isOnTickGrid(table, price), `${code} ${day}: ${price} off the grid`);
          assert.ok(price >= info.limit_down && price <= info.limit_up, `${code} ${day}: ${price} outside limits`);
          for (const quote of [tape.bidPrices[k]!, tape.askPrices[k]!]) {
            if (quote !== 0)
              assert.ok(quote >= info.limit_down && quote <= info.limit_up && isOnTickGrid(table, quote));
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  test("the last trade is the day's close, and the next day's reference is that close", () => {
    fc.assert(
      fc.property(stockDayArb, ({ code, day, exchange }) => {
        const mode = exchange ? market : alwaysOpen;
        const tape = mode.tape(mode.listings.stockOn(code, day), day);
        const close = mode.daily.closeOf(code, day);
        assert.equal(tape.prices[tape.prices.length - 1], close);
        if (day < '2027-12-30') assert.equal(mode.listings.stockOn(code, nextTradingDay(day)).reference, close);
      }),
      { numRuns: 40 },
    );
  });

  test('trades happen only in the session: the 09:00 opening auction, continuous to 13:25, the 13:30 close', () => {
    const day = '2026-11-20';
    const info = market.listings.stockOn('2330', day);
    const tape = market.tape(info, day);
    const session = tradingSession('exchange', 'stock', day);
    const times = Array.from(tape.times, (us) => us / 1000);
    const continuous = times.slice(1, -1);
    assert.ok(continuous.every((t) => t >= session.continuous[0]!.start && t < session.continuous[0]!.end));
    assert.deepEqual([times[0], times.at(-1)], [taipeiInstant(day, '09:00') + 1, taipeiInstant(day, '13:30')]);
    assert.deepEqual([tape.tickTypes[0], tape.tickTypes.at(-1)], [0, 0], 'auction prints');
    const fixed = market.fixedPriceTape(info, day);
    assert.deepEqual(
      Array.from(fixed.times, (us) => us / 1000),
      [taipeiInstant(day, '14:30')],
      'a tape of its own',
    );
    assert.ok(
      times.every((t, i) => i === 0 || t >= times[i - 1]!),
      'in time order',
    );
  });

  test('volume follows the U-shape: the first and last half hours trade more than the midday hour', () => {
    const day = '2026-11-20';
    const tape = market.tape(market.listings.stockOn('2303', day), day);
    const countBetween = (from: string, to: string) =>
      Array.from(tape.times).filter((us) => us >= taipeiInstant(day, from) * 1000 && us < taipeiInstant(day, to) * 1000)
        .length;
    const midday = countBetween('11:00', '12:00') / 2;
    assert.ok(countBetween('09:00', '09:30') > 1.5 * midday);
    assert.ok(countBetween('12:55', '13:25') > 1.5 * midday);
  });

  test('a stock that closes at limit-up locks there with bids and no asks', () => {
    const found = findLimitUpClose();
    assert.ok(found, 'some stock closed limit-up in 2026');
    const { code, day } = found;
    const info = market.listings.stockOn(code, day);
    const tape = market.tape(info, day);
    // once buyers queue at the limit nobody sells: every such trade is at the limit with an empty ask side
    const locked = Array.from(tape.prices.keys()).filter(
      (k) => tape.tickTypes[k] && tape.bidPrices[k] === info.limit_up,
    );
    assert.ok(locked.length > 0, `${code} ${day} locked at its limit`);
    for (const k of locked) {
      assert.equal(tape.prices[k], info.limit_up);
      assert.equal(tape.askPrices[k], 0, 'no one sells at limit-up');
      assert.equal(tape.askVolumes[k], 0);
    }
    const lastContinuous = tape.prices.length - 3;
    assert.equal(tape.bidPrices[lastContinuous], info.limit_up, 'still locked before the close');
  });

  test('stocks follow their index: over many days returns correlate with the TAIEX', () => {
    const days = tradingDaysBetween('2025-01-02', '2026-06-30');
    const returns = (code: string) =>
      days.slice(1).map((day, i) => Math.log(market.daily.closeOf(code, day) / market.daily.closeOf(code, days[i]!)));
    const correlation = pearson(returns('IX0001'), returns('2330'));
    assert.ok(correlation > 0.5, `correlation ${correlation}`);
  });
});

describe('history is a function of seed, code and day', () => {
  test('another market with the same seed regenerates every tape identically, and another seed differs', () => {
    fc.assert(
      fc.property(stockDayArb, ({ code, day }) => {
        const fresh = new SimMarket(1, 'exchange');
        const a = market.tape(market.listings.stockOn(code, day), day);
        const b = fresh.tape(fresh.listings.stockOn(code, day), day);
        assert.deepEqual(a, b);
        const other = new SimMarket(2, 'exchange');
        assert.notDeepEqual(other.tape(other.listings.stockOn(code, day), day).prices, a.prices);
      }),
      { numRuns: 10 },
    );
  });

  test('continuous futures reach expired months: TXFR1 of 2021-03-10 is that day’s near month', () => {
    const info = market.listings.infoOn('TXFR1', '2021-03-10')!;
    assert.equal(info.target_code, 'TXFC1');
    const tape = market.tape(info, '2021-03-10');
    assert.ok(tape.times.length > 100);
    assert.equal(tape.code, 'TXFC1');
  });
});

describe('derivatives', () => {
  const day = '2026-11-20';
  const options = [...market.listings.derivativesOn(day).values()].filter(
    (i): i is OptionInfo => i.security_type === 'OPT' && i.root === 'TXO',
  );

  test('call-put parity holds within two ticks at any instant: C - P = F - K', () => {
    const pairs = options.filter((o) => o.option_right === 'C');
    const instants = [taipeiInstant(day, '09:00'), taipeiInstant(day, '11:00'), taipeiInstant(day, '13:40')];
    fc.assert(
      fc.property(fc.constantFrom(...pairs), fc.constantFrom(...instants), (call, at) => {
        const put = options.find(
          (o) =>
            o.option_right === 'P' && o.strike_price === call.strike_price && o.delivery_month === call.delivery_month,
        )!;
        const premium = (o: OptionInfo) =>
          Math.max(roundToTick(TXO_PREMIUM_TICKS, market.values.optionValueAt(o, at)), 0.1);
        const forward = market.values.forwardAt('IX0001', call.last_trading_date, at);
        const gap = Math.abs(premium(call) - premium(put) - (forward - call.strike_price));
        const tolerance =
          2 * Math.max(tickAt(TXO_PREMIUM_TICKS, premium(call)), tickAt(TXO_PREMIUM_TICKS, premium(put)));
        // deep in or out of the money one side sits at the 0.1 floor, which parity cannot go below
        if (premium(call) > 0.1 && premium(put) > 0.1) assert.ok(gap <= tolerance, `${call.code}: gap ${gap}`);
      }),
      { numRuns: 60 },
    );
  });

  test('futures are the index plus a basis that is zero at expiry', () => {
    const expiry = '2026-12-16';
    const atExpiry = taipeiInstant(expiry, '13:30');
    const index = Math.exp(market.factors.logAt('TSE', atExpiry));
    assert.ok(Math.abs(market.values.forwardAt('IX0001', expiry, atExpiry) - index) < 1e-6);
    const monthBefore = taipeiInstant('2026-11-16', '10:00');
    const basis =
      market.values.forwardAt('IX0001', expiry, monthBefore) / Math.exp(market.factors.logAt('TSE', monthBefore));
    assert.ok(Math.abs(basis - 1) < 0.01 && basis !== 1);
  });

  test("a derivative's settlement is the next day's reference, and its last print on the exchange clock", () => {
    const days = tradingDaysBetween('2026-09-01', '2027-06-30');
    fc.assert(
      fc.property(
        fc.constantFrom(...days),
        fc.boolean(),
        fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
        (day, exchange, picks) => {
          const mode = exchange ? market : alwaysOpen;
          const next = nextTradingDay(day);
          const today = [...mode.listings.derivativesOn(day).values()].filter((i) => !i.target_code);
          const tomorrow = mode.listings.derivativesOn(next);
          const both = today.filter((i) => tomorrow.has(i.code));
          for (const pick of picks) {
            const info = both[pick % both.length]! as OptionInfo;
            const tape = mode.tape(info, day);
            const last = tape.prices[tape.prices.length - 1]!;
            const settlement = mode.values.settlementOf(info, day);
            // In always-open mode a futures day trades on to 14:45, past the 13:45 its settlement is fixed at.
            const printed = exchange || (info as ContractInfo).security_type === 'WRT';
            if (printed && settlement >= info.limit_down && settlement <= info.limit_up) assert.equal(last, settlement);
            assert.equal(tomorrow.get(info.code)!.reference, settlement, `${info.code} ${day} -> ${next}`);
          }
        },
      ),
      // Listing every derivative of two days takes about 0.3 s, a contract's check next to nothing: 20 days in
      // either mode, five contracts each.
      { numRuns: 20 },
    );
  });

  test('the same seed gives the same settlements, references and limits in both clock modes', () => {
    for (const day of ['2026-11-19', '2026-11-20', '2026-11-25', '2026-12-16']) {
      const inExchange = market.listings.derivativesOn(nextTradingDay(day));
      const inAlwaysOpen = alwaysOpen.listings.derivativesOn(nextTradingDay(day));
      assert.deepEqual([...inAlwaysOpen.keys()], [...inExchange.keys()]);
      for (const [code, info] of inExchange) {
        const other = inAlwaysOpen.get(code)! as OptionInfo;
        const { reference, limit_up, limit_down } = info as OptionInfo;
        assert.deepEqual([other.reference, other.limit_up, other.limit_down], [reference, limit_up, limit_down], code);
      }
      const settled = [...market.listings.derivativesOn(day).values()].filter((i) => !i.target_code);
      for (const info of settled.filter((_, k) => k % 7 === 0) as OptionInfo[]) {
        assert.equal(alwaysOpen.values.settlementOf(info, day), market.values.settlementOf(info, day), info.code);
      }
    }
  });

  test('on the exchange clock index futures trade on the 13:30 close until 13:45 and settle there seamlessly', () => {
    const txf = [...market.listings.derivativesOn(day).values()].find(
      (i) => i.security_type === 'FUT' && i.code.startsWith('TXF') && !i.target_code,
    )! as OptionInfo;
    const close = market.daily.closeOf('IX0001', day);
    const atClose = market.values.fairValueAt(txf, taipeiInstant(day, '13:31')) / close;
    const atEnd = market.values.fairValueAt(txf, taipeiInstant(day, '13:45')) / close;
    assert.ok(Math.abs(atClose - atEnd) < 1e-5, `${atClose} ${atEnd}`);
    const tape = market.tape(txf, day);
    const n = tape.prices.length;
    assert.ok(Math.abs(tape.prices[n - 1]! - tape.prices[n - 2]!) <= 2, 'the settlement print is where trading was');
  });

  test('futures and option trades are on their grids and inside their limits', () => {
    const listed = market.listings.derivativesOn(day);
    for (const code of ['TXFR1', 'MXFR1', options[40]!.code, options[41]!.code]) {
      const info = listed.get(code)! as StockInfo;
      const tape = market.tape(info, day);
      assert.ok(tape.times.length > 0, code);
      for (const price of tape.prices) assert.ok(price >= info.limit_down && price <= info.limit_up, code);
    }
  });
});

function findLimitUpClose(): { code: string; day: string } | null {
  for (const day of tradingDaysBetween('2026-07-01', '2026-11-20')) {
    for (const code of STOCKS) {
      const reference = market.daily.closeOf(code, previousTradingDay(day));
      if (market.daily.closeOf(code, day) === market.listings.stockOn(code, day).limit_up && reference > 0) {
        return { code, day };
      }
    }
  }
  return null;
}

function pearson(a: number[], b: number[]): number {
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const ma = mean(a);
  const mb = mean(b);
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = 0; i < a.length; i++) {
    cov += (a[i]! - ma) * (b[i]! - mb);
    va += (a[i]! - ma) ** 2;
    vb += (b[i]! - mb) ** 2;
  }
  return cov / Math.sqrt(va * vb);
}
