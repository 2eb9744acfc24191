import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SECURITIES_BY_CODE } from '../../src/broker/sim/catalog/catalog.js';
import { LISTED_SECURITIES } from '../../src/broker/sim/catalog/listed-securities.js';
import { DERIVED_WARRANT_UNDERLYINGS } from '../../src/broker/sim/catalog/warrants.js';
import { DERIVED_STOCK_VOLATILITY } from '../../src/broker/sim/catalog/whole-listing.js';
import { ANCHOR_DAY, FOLLOWERS } from '../../src/broker/sim/market/daily.js';
import { DayFigures } from '../../src/broker/sim/market/day-figures.js';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { publishedCount } from '../../src/broker/sim/market/tape.js';
import { TapeCache } from '../../src/broker/sim/market/tape-cache.js';
import { tradeStats } from '../../src/broker/sim/market/tape-digest.js';
import { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { nextTradingDay, previousTradingDay } from '../../src/domain/calendar.js';
import type { StockInfo, WarrantInfo } from '../../src/domain/contracts.js';
import { SCANNER_TYPES, type Snapshot } from '../../src/domain/market-data.js';
import { ETF_TICKS, isOnTickGrid, percentLimits, STOCK_TICKS } from '../../src/domain/ticks.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { MONDAY_MORNING } from '../helpers/app.js';

/** The day after the anchor: every reference is the close the listing carries (the public figure). */
const DAY = nextTradingDay(ANCHOR_DAY);

describe('the whole TWSE and TPEx listing', () => {
  const market = new SimMarket(1, 'exchange');

  test('every listed stock, ETF and ETN is there, once, in realistic numbers per exchange', () => {
    const codes = LISTED_SECURITIES.map((s) => s.code);
    assert.equal(new Set(codes).size, codes.length, 'codes are unique');
    assert.ok(codes.length >= 2200 && codes.length <= 2600, `${codes.length} securities`);
    const count = (exchange: string, kind: string) =>
      LISTED_SECURITIES.filter((s) => s.exchange === exchange && s.kind === kind).length;
    assert.ok(count('TSE', 'stock') >= 1000, `${count('TSE', 'stock')} TWSE stocks`);
    assert.ok(count('OTC', 'stock') >= 800, `${count('OTC', 'stock')} TPEx stocks`);
    assert.ok(count('TSE', 'etf') + count('OTC', 'etf') >= 300, 'ETFs and ETNs');
  });

  test('names the exchange writes, the exchange, the industry and the public close as the reference', () => {
    const expected = [
      { code: '9910', name: '豐泰', exchange: 'TSE', category: '37', reference: 71.4 },
      { code: '2059', name: '川湖', exchange: 'TSE', category: '28', reference: 7475 },
      { code: '1560', name: '中砂', exchange: 'TSE', category: '05', reference: 705 },
      // listed after the industry list was taken: filed under 其他業
      { code: '6028', name: '公勝保經', exchange: 'OTC', category: '20', reference: 79.9 },
      { code: '00403A', name: '主動統一升級50', exchange: 'TSE', category: '00', reference: 11.1 },
    ];
    for (const { code, name, exchange, category, reference } of expected) {
      const info = market.listings.stockOn(code, DAY);
      assert.deepEqual(
        { code: info.code, name: info.name, exchange: info.exchange, category: info.category },
        { code, name, exchange, category },
      );
      assert.equal(info.reference, reference, `${code} reference`);
      assert.deepEqual(
        [info.limit_up, info.limit_down],
        (({ limitUp, limitDown }) => [limitUp, limitDown])(
          percentLimits(SECURITIES_BY_CODE.get(code)!.kind === 'etf' ? ETF_TICKS : STOCK_TICKS, reference, 0.1),
        ),
        `${code} limits`,
      );
    }
  });

  test('every code has its reference on its tick grid and its limits computed around it', () => {
    for (const security of LISTED_SECURITIES) {
      const info = market.listings.stockOn(security.code, DAY);
      const ticks = security.kind === 'etf' ? ETF_TICKS : STOCK_TICKS;
      assert.ok(isOnTickGrid(ticks, info.reference), `${security.code} reference ${info.reference}`);
      assert.equal(info.reference, security.close, `${security.code} reference is its listed close`);
      assert.ok(info.limit_down < info.reference && info.reference < info.limit_up, `${security.code} limits`);
      assert.ok(isOnTickGrid(ticks, info.limit_up) && isOnTickGrid(ticks, info.limit_down), `${security.code}`);
    }
  });

  test('the hand-picked securities keep their data; the others follow the documented rules', () => {
    assert.equal(FOLLOWERS.get('2330')!.beta, 1.1);
    assert.equal(FOLLOWERS.get('2330')!.volatility, 0.014);
    const otc = FOLLOWERS.get('6028')!;
    assert.equal(otc.factor, 'OTC');
    assert.equal(otc.volatility, DERIVED_STOCK_VOLATILITY.OTC);
    assert.equal(otc.avgVolumeLots, 19);
    const leveraged = SECURITIES_BY_CODE.get('00633L')!;
    assert.deepEqual([leveraged.leverage, leveraged.foreignComponents], [2, true]);
    const bond = SECURITIES_BY_CODE.get('00694B')!;
    assert.deepEqual([bond.bondEtf, bond.dayTrade, bond.marginable], [true, 'No', false]);
    // a TPEx stock that did not trade on the source day: its close comes from the next day's published limits
    assert.equal(market.listings.stockOn('2073', DAY).reference, 26.3);
  });

  test('any code is found through the broker, and the whole stock list comes quickly once listed', () => {
    const broker = new SimBroker({
      clock: new ManualClock(MONDAY_MORNING),
      seed: 1,
      clockMode: 'always-open',
      apiKey: null,
    });
    const catalog = broker.contracts.current();
    for (const code of ['9910', '2059', '1560']) assert.equal(catalog.find(code)?.security_type, 'STK', code);
    const others = (['IND', 'FUT', 'OPT', 'WRT'] as const).flatMap((type) => catalog.all(type).map((c) => c.code));
    assert.deepEqual(
      others.filter((code) => SECURITIES_BY_CODE.has(code)),
      [],
      'no other contract shares a stock code',
    );
    const first = performance.now();
    const stocks = catalog.all('STK') as StockInfo[];
    const firstMs = performance.now() - first;
    assert.equal(stocks.length, LISTED_SECURITIES.length);
    assert.equal(
      catalog.size,
      catalog.all('STK').length +
        catalog.all('IND').length +
        catalog.all('FUT').length +
        catalog.all('OPT').length +
        catalog.all('WRT').length,
    );
    // the first listing of a day makes every stock's info (its price history from the anchor day); later ones reuse it
    assert.ok(firstMs < 15_000, `the first listing of every stock took ${firstMs.toFixed(0)} ms`);
    assert.equal(catalog.all('STK'), stocks, 'listed again from the same infos, not made again');
  });
});

describe('warrants follow from the whole listing', () => {
  const warrantsOn = (day: string) => {
    const broker = new SimBroker({
      clock: new ManualClock(taipeiInstant(day, '10:00')),
      seed: 1,
      clockMode: 'exchange',
      apiKey: null,
    });
    return broker.contracts.current().all('WRT') as WarrantInfo[];
  };

  test('the most traded securities of each exchange carry warrants, each code once, stable from day to day', () => {
    const monday = warrantsOn('2026-11-23');
    const underlyings = new Set(monday.map((w) => w.underlying_code));
    const count = (exchange: string) =>
      [...underlyings].filter((code) => SECURITIES_BY_CODE.get(code)?.exchange === exchange).length;
    assert.ok(count('TSE') >= DERIVED_WARRANT_UNDERLYINGS.TSE, `${count('TSE')} TWSE underlyings`);
    assert.ok(count('OTC') >= DERIVED_WARRANT_UNDERLYINGS.OTC, `${count('OTC')} TPEx underlyings`);
    for (const code of ['2330', '2382', '2409', '0050']) assert.ok(underlyings.has(code), `warrants on ${code}`);
    for (const code of ['00694B', '00631L', '00632R']) assert.ok(!underlyings.has(code), `no warrants on ${code}`);
    assert.equal(new Set(monday.map((w) => w.code)).size, monday.length, 'no code twice on a day');

    // a code means the same warrant on every day it is listed, months apart too
    const later = warrantsOn('2027-03-22');
    const terms = (w: WarrantInfo) => [w.underlying_code, w.call_put, w.strike_price, w.expiry_date].join(' ');
    const byCode = new Map(monday.map((w) => [w.code, terms(w)]));
    const both = later.filter((w) => byCode.has(w.code));
    assert.ok(both.length > 500, `${both.length} warrants listed on both days`);
    for (const w of both) assert.equal(terms(w), byCode.get(w.code), w.code);
    assert.equal(new Set(later.map((w) => w.code)).size, later.length, 'no code twice on a later day');
  });

  test('the warrants of the original underlyings keep their codes', () => {
    const tsmc = warrantsOn('2026-11-26').filter((w) => w.underlying_code === '2330');
    assert.deepEqual(
      tsmc.slice(0, 4).map((w) => w.code),
      ['060560', '060561', '06240P', '060640'],
    );
  });
});

describe('whole-market figures read digests, and agree with the tapes', () => {
  test('every scanner ranking is the ranking of every stock by its snapshot', () => {
    const clock = new ManualClock(taipeiInstant('2026-11-23', '11:00'));
    const broker = new SimBroker({ clock, seed: 3, clockMode: 'exchange', apiKey: null });
    const codes = broker.contracts
      .current()
      .all('STK')
      .map((s) => s.code);
    const snapshots: Snapshot[] = [];
    for (let i = 0; i < codes.length; i += 500) {
      snapshots.push(...broker.marketData.snapshots(codes.slice(i, i + 500).map((code) => ({ code }))));
    }
    const rankOf: Record<(typeof SCANNER_TYPES)[number], (s: Snapshot) => number> = {
      ChangePercentRank: (s) => s.change_rate,
      ChangePriceRank: (s) => s.change_price,
      DayRangeRank: (s) => Math.round((s.high - s.low) * 1e4) / 1e4,
      VolumeRank: (s) => s.total_volume,
      AmountRank: (s) => s.total_amount,
      TickCountRank: () => 0, // a snapshot does not carry its trade count
    };
    for (const scanner_type of SCANNER_TYPES.filter((type) => type !== 'TickCountRank')) {
      for (const ascending of [true, false]) {
        const expected = snapshots
          .map((s) => ({ code: s.code, value: rankOf[scanner_type](s) }))
          .sort((a, b) => (ascending ? b.value - a.value : a.value - b.value))
          .slice(0, 200);
        const items = broker.marketData.scanner({ scanner_type, ascending, count: 200 });
        assert.deepEqual(
          items.map((item) => [item.code, item.rank_value]),
          expected.map(({ code, value }) => [code, value]),
          `${scanner_type} ascending ${ascending}`,
        );
      }
    }
  });
});

describe('a stock day is held once, whoever reads it', () => {
  const market = new SimMarket(2, 'exchange');
  const day = '2026-11-24';
  const info = market.listings.stockOn('2330', day);
  const during = taipeiInstant(day, '10:30');

  test("a digest shares its tape's arrays, and its figures are the tape's so far", () => {
    const tape = market.tape(info, day);
    const digest = market.figures.digest(info, day);
    assert.equal(digest.times, tape.times);
    assert.equal(digest.prices, tape.prices);
    assert.equal(digest.volumes, tape.volumes);
    const count = publishedCount(tape, during);
    assert.ok(count > 0 && count < tape.times.length, `${count} of ${tape.times.length} trades by 10:30`);
    const stats = market.figures.stockDayStats(info, day, during);
    assert.deepEqual(stats, tradeStats(tape, count));
    assert.equal(stats.amount, digest.amounts[count - 1], 'the running turnover is the sum so far');
  });

  test('a past day is read without keeping its tape, and its figures are kept', () => {
    const previous = previousTradingDay(day);
    const stock = market.listings.stockOn('2317', previous);
    const passing = market.passingTape(stock, previous);
    const kept = market.tape(stock, previous);
    assert.notEqual(passing, kept, 'the passing tape was not kept');
    assert.deepEqual(passing.prices, kept.prices, 'both are the same day');
    assert.equal(market.passingTape(stock, previous), kept, 'a kept tape is read in place');
    const stats = market.figures.stockDayStats(stock, previous, during);
    assert.deepEqual(stats, tradeStats(kept, kept.times.length));
    assert.equal(market.figures.stockDayStats(stock, previous, during), stats, 'counted once');
  });
});

describe("a past day's figures", () => {
  test('are kept from the pass that read its tape, so daily quotes do not build it again', () => {
    const market = new SimMarket(2, 'exchange');
    const day = '2026-11-23';
    const stock = market.listings.stockOn('2330', day);
    const passes: string[] = [];
    const figures = new DayFigures({
      tapeAsOf: (info, on, at) => market.tape(info, on, at),
      passingTape: (info, on) => {
        passes.push(info.code);
        return market.passingTape(info, on);
      },
      dayEnd: (on) => market.session('stock', on).end,
    });
    const tape = figures.closedDayTape(stock, day);
    const after = taipeiInstant('2026-11-24', '10:00');
    assert.deepEqual(figures.stockDayStats(stock, day, after), tradeStats(tape, tape.times.length));
    assert.deepEqual(passes, ['2330'], 'one pass over the day');
  });
});

describe('the tape cache is bounded by the bytes it holds', () => {
  // a tape of n trades with only its times: 8n bytes
  const tape = (trades: number) => ({ times: new Float64Array(trades) }) as never;

  const counting = (cache: TapeCache, builds: string[]) => (key: string, trades: number) =>
    cache.get(key, () => {
      builds.push(key);
      return tape(trades);
    });

  test('the oldest tapes go when the budget is passed, whatever their number; the one just built stays', () => {
    const cache = new TapeCache(1000, 8 * 1000);
    const builds: string[] = [];
    const get = counting(cache, builds);
    for (let i = 0; i < 10; i++) get(`t${i}`, 200);
    assert.equal(cache.keptBytes, 5 * 1600, 'five tapes of 1,600 bytes fill the budget');
    get('t9', 200);
    get('t6', 200);
    assert.deepEqual(builds.slice(10), [], 'the last five fit in the budget and are not rebuilt');
    get('big', 5000);
    assert.equal(cache.keptBytes, 40_000, 'a tape larger than the budget is kept alone');
    get('big', 5000);
    assert.equal(builds.filter((key) => key === 'big').length, 1);
  });

  test('an evicted tape still held elsewhere is given back, not built a second time beside it', () => {
    const cache = new TapeCache(1000, 8 * 1000);
    const builds: string[] = [];
    const get = counting(cache, builds);
    const held = get('held', 200);
    for (let i = 0; i < 5; i++) get(`t${i}`, 200);
    assert.equal(cache.keptBytes, 5 * 1600, 'the held tape was evicted');
    assert.equal(cache.peek('held'), held, 'peek finds it while it lives');
    assert.equal(get('held', 200), held);
    assert.deepEqual(builds, ['held', 't0', 't1', 't2', 't3', 't4']);
    assert.equal(cache.keptBytes, 5 * 1600, 'kept again, in place of the oldest');
  });
});
