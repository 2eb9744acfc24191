import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { SECURITIES_BY_CODE } from '../../src/broker/sim/catalog/catalog.js';
import { LISTED_SECURITIES } from '../../src/broker/sim/catalog/listed-securities.js';
import { baselineReferences } from '../../src/broker/sim/catalog/references.js';
import { regulatoryState, stockInfo } from '../../src/broker/sim/catalog/stocks.js';
import { SimContracts } from '../../src/broker/sim/contracts.js';
import {
  creditEnquires,
  dispositionBlock,
  noticeList,
  punishList,
  shortStockSources,
} from '../../src/broker/sim/market/reference-data.js';
import {
  isTradingDay,
  previousTradingDay,
  tradingDayOnOrBefore,
  tradingDaysBetween,
} from '../../src/domain/calendar.js';
import type { StockInfo } from '../../src/domain/contracts.js';
import type { Notice, Punish } from '../../src/domain/market-data.js';
import { addDays, ManualClock, taipeiInstant } from '../../src/domain/time.js';

const MONDAY = '2026-11-23';
const AT = taipeiInstant(MONDAY, '10:00');

function catalogStocks(seed: number, at = AT): StockInfo[] {
  const contracts = new SimContracts(new ManualClock(at), seed, () => baselineReferences);
  return contracts
    .current()
    .all('STK')
    .filter((info): info is StockInfo => info.security_type === 'STK');
}

/** The StockInfo list the catalog builds for a day, without the derivatives (cheaper for property runs). */
function stocksOn(day: string, seed: number): StockInfo[] {
  return LISTED_SECURITIES.map((s) => stockInfo(s, baselineReferences.referenceOf(s.code), day, seed));
}

const codesWhere = (stocks: StockInfo[], keep: (stock: StockInfo) => boolean) =>
  stocks.filter(keep).map((stock) => stock.code);

function assertColumnar(table: Punish | Notice) {
  const lengths = new Set(Object.values(table).map((column) => column.length));
  assert.equal(lengths.size, 1, `every column has the same length: ${JSON.stringify(Object.keys(table))}`);
}

/** Everything a punish list must say about a day's catalog. */
function assertPunishConsistent(stocks: StockInfo[], seed: number) {
  const punish = punishList(stocks);
  assertColumnar(punish);
  assert.deepEqual(
    punish.code,
    codesWhere(stocks, (s) => s.disposition_level > 0),
  );
  const notice = noticeList(stocks, seed);
  assertColumnar(notice);
  assert.deepEqual(
    notice.code,
    codesWhere(stocks, (s) => s.attention_flag),
  );
  const noticed = new Set(notice.code);
  for (const code of punish.code) assert.ok(noticed.has(code), `disposition stock ${code} is also an attention stock`);
  punish.code.forEach((code, i) => {
    const day = stocks.find((s) => s.code === code)!.update_date;
    const start = punish.start_date[i]!;
    const end = punish.end_date[i]!;
    assert.ok(start <= day && day <= end, `${code}: ${start} <= ${day} <= ${end}`);
    assert.equal(tradingDaysBetween(start, end).length, 10, `${code}: the measure lasts 10 trading days`);
    assert.equal(punish.announced_date[i], previousTradingDay(start));
  });
}

describe('reference data of a catalog day (seed 1, Monday 2026-11-23 10:00)', () => {
  const stocks = catalogStocks(1);

  test('the catalog has disposition, attention, lendable and unlendable stocks to check against', () => {
    assert.ok(stocks.some((s) => s.disposition_level === 1));
    assert.ok(stocks.some((s) => s.disposition_level === 2));
    assert.ok(stocks.some((s) => s.attention_flag && s.disposition_level === 0));
    assert.ok(stocks.some((s) => s.sbl_shortable));
    assert.ok(stocks.some((s) => !s.sbl_shortable));
  });

  test('punish rows are exactly the disposition stocks, with their terms', () => {
    assertPunishConsistent(stocks, 1);
    const punish = punishList(stocks);
    punish.code.forEach((code, i) => {
      const stock = stocks.find((s) => s.code === code)!;
      assert.equal(punish.interval[i], `${stock.disposition_match_interval_min}分鐘`);
      assert.equal(punish.unit_limit[i], stock.disposition_max_lots_single_order);
      assert.equal(punish.total_limit[i], stock.disposition_max_lots_total_orders);
      assert.match(punish.description[i]!, stock.disposition_level === 2 ? /^第二次處置/ : /^第一次處置/);
      assert.match(punish.updated_at[i]!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    });
    assert.ok(punish.interval.includes('5分鐘') && punish.interval.includes('20分鐘'));
  });

  test('notice rows are exactly the attention stocks, announced the trading day before at their reference', () => {
    const notice = noticeList(stocks, 1);
    notice.code.forEach((code, i) => {
      const stock = stocks.find((s) => s.code === code)!;
      assert.equal(notice.close[i], stock.reference);
      assert.equal(notice.announced_date[i], '2026-11-20', 'Friday before Monday');
      assert.ok(notice.reason[i]!.length > 0);
    });
  });

  test('credit rows are the balances and ratios of StockInfo', () => {
    const rows = creditEnquires(stocks);
    assert.equal(rows.length, stocks.length);
    rows.forEach((row, i) => {
      const stock = stocks[i]!;
      assert.deepEqual(row, {
        update_time: '2026-11-23 08:00:00.000000',
        system: 'ALL',
        stock_id: stock.code,
        margin_unit: stock.margin_trading_balance,
        short_unit: stock.short_selling_balance,
        margin_loan_ratio: stock.margin_loan_ratio,
        short_margin_ratio: stock.short_margin_ratio,
      });
    });
  });

  test('shares to borrow: none when not lendable, whole lots otherwise, dated at the instant', () => {
    const rows = shortStockSources(stocks, 1, AT);
    assert.equal(rows.length, stocks.length);
    rows.forEach((row, i) => {
      const stock = stocks[i]!;
      assert.equal(row.code, stock.code);
      assert.equal(row.datetime, '2026-11-23T10:00:00');
      if (!stock.sbl_shortable) assert.equal(row.short_stock_source, 0, `${stock.code} is not lendable`);
      else {
        assert.ok(row.short_stock_source > 0, `${stock.code} has lenders`);
        assert.equal(row.short_stock_source % 1000, 0, `${stock.code} lends whole lots`);
      }
    });
  });

  test('the same seed gives the same data; another seed gives other data', () => {
    const again = catalogStocks(1);
    assert.deepEqual(punishList(again), punishList(stocks));
    assert.deepEqual(noticeList(again, 1), noticeList(stocks, 1));
    assert.deepEqual(shortStockSources(again, 1, AT), shortStockSources(stocks, 1, AT));
    const other = catalogStocks(2);
    assert.notDeepEqual(punishList(other).code, punishList(stocks).code);
    assert.notDeepEqual(noticeList(other, 2).code, noticeList(stocks, 1).code);
    assert.notDeepEqual(shortStockSources(other, 2, AT), shortStockSources(stocks, 1, AT));
    assert.notDeepEqual(creditEnquires(other), creditEnquires(stocks));
  });

  test('before the 08:00 refresh the lists are those of the previous trading day', () => {
    const early = catalogStocks(1, taipeiInstant(MONDAY, '07:30'));
    assert.ok(early.every((s) => s.update_date === '2026-11-20'));
    assert.equal(creditEnquires(early)[0]!.update_time, '2026-11-20 08:00:00.000000');
    assert.ok(noticeList(early, 1).announced_date.every((d) => d === '2026-11-19'));
  });
});

describe('reference data on any day of 2025-2027 (property)', () => {
  const anyTradingDay = fc
    .integer({ min: 0, max: 3 * 365 - 1 })
    .map((offset) => tradingDayOnOrBefore(addDays('2025-01-10', offset)));
  const anySeed = fc.integer({ min: 1, max: 2 ** 31 - 1 });

  test('lists match the catalog: punish = disposition, notice = attention, punish within notice', () => {
    fc.assert(
      fc.property(anyTradingDay, anySeed, (day, seed) => {
        assertPunishConsistent(stocksOn(day, seed), seed);
      }),
      { numRuns: 60 },
    );
  });

  test('a disposition measure spans its whole drawing block, so its dates agree with the catalog', () => {
    fc.assert(
      fc.property(anyTradingDay, anySeed, (day, seed) => {
        const { first, last } = dispositionBlock(day);
        assert.ok(first <= day && day <= last);
        assert.ok(isTradingDay(day));
        for (const code of punishList(stocksOn(day, seed)).code) {
          const security = SECURITIES_BY_CODE.get(code)!;
          const level = regulatoryState(seed, security, day).dispositionLevel;
          assert.equal(regulatoryState(seed, security, first).dispositionLevel, level, `${code} from ${first}`);
          assert.equal(regulatoryState(seed, security, last).dispositionLevel, level, `${code} until ${last}`);
        }
      }),
      { numRuns: 60 },
    );
  });
});
