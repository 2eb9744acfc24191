import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { isTradingDay, previousTradingDay, tradingDayOnOrAfter } from '../../src/domain/calendar.js';
import { continuousCode, futuresCode, optionCode } from '../../src/domain/derivative-codes.js';
import {
  contractDayAt,
  isQuarterlyListing,
  listedMonths,
  listingBeginDate,
  monthlyLastTradingDay,
  openWeeklyExpiries,
  spotMonth,
  stockListingDayAt,
} from '../../src/domain/listing.js';
import { addDays, taipeiInstant, weekdayOf } from '../../src/domain/time.js';

/** The third Wednesday of a month, found by walking its days (independent of the code under test). */
function thirdWednesday(yearMonth: string): string {
  let day = `${yearMonth.slice(0, 4)}-${yearMonth.slice(4, 6)}-01`;
  let seen = 0;
  for (;;) {
    if (weekdayOf(day) === 3 && ++seen === 3) return day;
    day = addDays(day, 1);
  }
}

describe('contract codes', () => {
  test('futures: root, month letter A-L, last digit of the year', () => {
    assert.equal(futuresCode('TXF', '202605'), 'TXFE6');
    assert.equal(futuresCode('TXF', '202612'), 'TXFL6');
    assert.equal(futuresCode('TXF', '202701'), 'TXFA7');
    assert.equal(futuresCode('MXF', '202601'), 'MXFA6');
    assert.equal(futuresCode('CDF', '202709'), 'CDFI7');
    assert.equal(futuresCode('MX4', '202611'), 'MX4K6');
    const letters = Array.from({ length: 12 }, (_, i) =>
      futuresCode('TXF', `2026${String(i + 1).padStart(2, '0')}`).slice(3, 4),
    );
    assert.equal(letters.join(''), 'ABCDEFGHIJKL');
  });

  test('options: root, 5-digit strike, calls A-L and puts M-X, last digit of the year', () => {
    assert.equal(optionCode('TXO', 32400, 'C', '202605'), 'TXO32400E6');
    assert.equal(optionCode('TXO', 18000, 'P', '202306'), 'TXO18000R3');
    assert.equal(optionCode('TXO', 6900, 'C', '201909'), 'TXO06900I9');
    assert.equal(optionCode('TX1', 48200, 'C', '202607'), 'TX148200G6');
    const month = (i: number) => `2026${String(i + 1).padStart(2, '0')}`;
    const calls = Array.from({ length: 12 }, (_, i) => optionCode('TXO', 44000, 'C', month(i)).slice(8, 9));
    const puts = Array.from({ length: 12 }, (_, i) => optionCode('TXO', 44000, 'P', month(i)).slice(8, 9));
    assert.equal(calls.join(''), 'ABCDEFGHIJKL');
    assert.equal(puts.join(''), 'MNOPQRSTUVWX');
  });

  test('continuous-month aliases', () => {
    assert.equal(continuousCode('TXF', 1), 'TXFR1');
    assert.equal(continuousCode('MXF', 2), 'MXFR2');
  });
});

describe('monthly last trading days', () => {
  test('the third Wednesday of the month', () => {
    assert.equal(monthlyLastTradingDay('202605'), '2026-05-20');
    assert.equal(monthlyLastTradingDay('202611'), '2026-11-18');
    assert.equal(monthlyLastTradingDay('202612'), '2026-12-16');
    assert.equal(monthlyLastTradingDay('202701'), '2027-01-20');
    assert.equal(monthlyLastTradingDay('202703'), '2027-03-17');
  });

  test('the next trading day when the third Wednesday is a holiday', () => {
    // 2027-09-15 is the Mid-Autumn Festival
    assert.equal(monthlyLastTradingDay('202709'), '2027-09-16');
    // 2026-02-18 is in the Lunar New Year block (02-16 .. 02-20): the next trading day is Monday 02-23
    assert.equal(monthlyLastTradingDay('202602'), '2026-02-23');
  });

  test('property: always the third Wednesday, or the first trading day after it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2020, max: 2027 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        const yearMonth = `${year}${String(month).padStart(2, '0')}`;
        const wednesday = thirdWednesday(yearMonth);
        const last = monthlyLastTradingDay(yearMonth);
        assert.ok(isTradingDay(last));
        assert.ok(last >= wednesday);
        for (let day = wednesday; day < last; day = addDays(day, 1)) assert.ok(!isTradingDay(day), day);
      }),
    );
  });
});

describe('listed months', () => {
  test('on Monday 2026-11-23 (November expired on 11-18)', () => {
    assert.equal(spotMonth('2026-11-23'), '202612');
    assert.deepEqual(listedMonths('index-futures', '2026-11-23'), [
      '202612',
      '202701',
      '202702',
      '202703',
      '202706',
      '202709',
    ]);
    assert.deepEqual(listedMonths('stock-futures', '2026-11-23'), ['202612', '202701', '202703', '202706', '202709']);
    assert.deepEqual(listedMonths('index-options', '2026-11-23'), ['202612', '202701', '202702', '202703', '202706']);
  });

  test('before the expiry day the expiring month is still spot; on it too; the day after, it is gone', () => {
    assert.deepEqual(listedMonths('index-futures', '2026-11-17'), [
      '202611',
      '202612',
      '202701',
      '202703',
      '202706',
      '202709',
    ]);
    assert.equal(spotMonth('2026-11-18'), '202611');
    assert.equal(spotMonth('2026-11-19'), '202612');
  });

  test('across the year end', () => {
    assert.equal(spotMonth('2026-12-16'), '202612');
    assert.deepEqual(listedMonths('index-futures', '2026-12-17'), [
      '202701',
      '202702',
      '202703',
      '202706',
      '202709',
      '202712',
    ]);
    assert.deepEqual(listedMonths('stock-futures', '2026-12-17'), ['202701', '202702', '202703', '202706', '202709']);
    assert.deepEqual(listedMonths('index-options', '2026-12-31'), ['202701', '202702', '202703', '202706', '202709']);
  });

  test('a holiday-shifted expiry keeps its month spot until the shifted day', () => {
    assert.equal(spotMonth('2027-09-15'), '202709');
    assert.equal(spotMonth('2027-09-16'), '202709');
    assert.equal(spotMonth('2027-09-17'), '202710');
  });

  test('quarterly listings are the ones beyond the consecutive months', () => {
    assert.equal(isQuarterlyListing('index-options', '2026-11-23', '202612'), false);
    assert.equal(isQuarterlyListing('index-options', '2026-11-23', '202702'), false);
    assert.equal(isQuarterlyListing('index-options', '2026-11-23', '202703'), true);
    assert.equal(isQuarterlyListing('index-options', '2026-11-23', '202706'), true);
  });

  test('listingBeginDate: the trading day after the expiry that brought the month in', () => {
    // Dec 2026 became the third quarterly month of TX when Dec 2025 expired (2025-12-17)
    assert.equal(listingBeginDate('index-futures', '202612'), '2025-12-18');
    // Jan 2027 became the third consecutive month when Oct 2026 expired (2026-10-21)
    assert.equal(listingBeginDate('index-futures', '202701'), '2026-10-22');
    // stock futures list Mar 2027 as a quarterly once spot is May 2026 (April expired 2026-04-15)
    assert.equal(listingBeginDate('stock-futures', '202703'), '2026-04-16');
    // TXO lists Jun 2027 as its second quarterly once spot is Oct 2026 (September expired 2026-09-16)
    assert.equal(listingBeginDate('index-options', '202706'), '2026-09-17');
  });

  test('property: every listed month was listed by its begin date and is listed on every day until expiry', () => {
    const cycles = ['index-futures', 'stock-futures', 'index-options'] as const;
    const day = fc.integer({ min: 0, max: 365 * 2 }).map((n) => addDays('2025-06-01', n));
    fc.assert(
      fc.property(fc.constantFrom(...cycles), day, (cycle, contractDay) => {
        const months = listedMonths(cycle, contractDay);
        assert.equal(new Set(months).size, months.length);
        assert.deepEqual([...months].sort(), months);
        for (const month of months) {
          const begin = listingBeginDate(cycle, month);
          assert.ok(begin <= contractDay, `${cycle} ${month} began ${begin} <= ${contractDay}`);
          assert.ok(listedMonths(cycle, begin).includes(month), `${cycle} ${month} listed on its begin ${begin}`);
          const before = previousTradingDay(begin);
          assert.ok(!listedMonths(cycle, before).includes(month), `${cycle} ${month} not listed on ${before}`);
          assert.ok(monthlyLastTradingDay(month) >= contractDay);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('contract day at an instant', () => {
  test('futures listings roll at 14:45 to the next trading day', () => {
    assert.equal(contractDayAt(taipeiInstant('2026-11-23', '10:00')), '2026-11-23');
    assert.equal(contractDayAt(taipeiInstant('2026-11-23', '14:44:59')), '2026-11-23');
    assert.equal(contractDayAt(taipeiInstant('2026-11-23', '14:45')), '2026-11-24');
    assert.equal(contractDayAt(taipeiInstant('2026-11-23', '23:59')), '2026-11-24');
    // after midnight, the night session still belongs to the same (now current) day
    assert.equal(contractDayAt(taipeiInstant('2026-11-24', '00:30')), '2026-11-24');
  });

  test('over weekends and holidays', () => {
    // Friday after 14:45 -> Monday
    assert.equal(contractDayAt(taipeiInstant('2026-11-20', '15:00')), '2026-11-23');
    assert.equal(contractDayAt(taipeiInstant('2026-11-21', '10:00')), '2026-11-23');
    assert.equal(contractDayAt(taipeiInstant('2026-11-22', '20:00')), '2026-11-23');
    // Thursday 2026-12-24 after 14:45: Friday 12-25 (Constitution Day) is closed -> Monday 12-28
    assert.equal(contractDayAt(taipeiInstant('2026-12-24', '15:00')), '2026-12-28');
    assert.equal(contractDayAt(taipeiInstant('2026-12-25', '10:00')), '2026-12-28');
    // across the year end: Thursday 2026-12-31 night -> Friday 2027-01-01 is closed -> Monday 2027-01-04
    assert.equal(contractDayAt(taipeiInstant('2026-12-31', '15:00')), '2027-01-04');
  });

  test('stock listings roll at 08:00; before it, and on closed days, the previous trading day is current', () => {
    assert.equal(stockListingDayAt(taipeiInstant('2026-11-23', '07:59')), '2026-11-20');
    assert.equal(stockListingDayAt(taipeiInstant('2026-11-23', '08:00')), '2026-11-23');
    assert.equal(stockListingDayAt(taipeiInstant('2026-11-23', '23:00')), '2026-11-23');
    assert.equal(stockListingDayAt(taipeiInstant('2026-11-24', '07:00')), '2026-11-23');
    assert.equal(stockListingDayAt(taipeiInstant('2026-11-21', '12:00')), '2026-11-20');
    assert.equal(stockListingDayAt(taipeiInstant('2026-12-25', '10:00')), '2026-12-24');
    assert.equal(stockListingDayAt(taipeiInstant('2026-12-28', '07:00')), '2026-12-24');
    assert.equal(stockListingDayAt(taipeiInstant('2027-01-04', '07:59')), '2026-12-31');
  });

  test('property: both days are trading days; the futures day is never before the stock day', () => {
    const instant = fc.integer({ min: taipeiInstant('2025-01-01'), max: taipeiInstant('2027-12-20') });
    fc.assert(
      fc.property(instant, (ms) => {
        const futuresDay = contractDayAt(ms);
        const stockDay = stockListingDayAt(ms);
        assert.ok(isTradingDay(futuresDay) && isTradingDay(stockDay));
        assert.ok(futuresDay >= stockDay);
      }),
      { numRuns: 500 },
    );
  });
});

describe('weekly expiries', () => {
  const summary = (day: string, weekday: 'Wed' | 'Fri') =>
    openWeeklyExpiries(day, weekday).map((e) => `${e.lastTradingDay} w${e.weekOfMonth} from ${e.beginDate}`);

  test('on Monday 2026-11-23: this week and next week', () => {
    assert.deepEqual(summary('2026-11-23', 'Wed'), ['2026-11-25 w4 from 2026-11-12', '2026-12-02 w1 from 2026-11-19']);
    assert.deepEqual(summary('2026-11-23', 'Fri'), ['2026-11-27 w4 from 2026-11-16', '2026-12-04 w1 from 2026-11-23']);
    const [first] = openWeeklyExpiries('2026-11-23', 'Wed');
    assert.deepEqual(first, {
      nominal: '2026-11-25',
      lastTradingDay: '2026-11-25',
      beginDate: '2026-11-12',
      yearMonth: '202611',
      weekOfMonth: 4,
      weekday: 'Wed',
    });
  });

  test('Wednesday weeklies skip the third Wednesday (the monthly); Friday weeklies include the third Friday', () => {
    // Monday 2026-12-14: Wednesday 12-16 is the monthly expiry, so only 12-23 (week 4) is open
    assert.deepEqual(summary('2026-12-14', 'Wed'), ['2026-12-23 w4 from 2026-12-10']);
    // Fridays: 12-18 is week 3; 12-25 (Constitution Day) expires on the next trading day, 12-28
    assert.deepEqual(summary('2026-12-14', 'Fri'), ['2026-12-18 w3 from 2026-12-07', '2026-12-28 w4 from 2026-12-14']);
    assert.equal(openWeeklyExpiries('2026-12-14', 'Fri')[1]!.nominal, '2026-12-25');
  });

  test('on an expiry day the expiring weekly is still open, and the next day it is not', () => {
    assert.deepEqual(
      openWeeklyExpiries('2026-11-25', 'Wed').map((e) => e.lastTradingDay),
      ['2026-11-25', '2026-12-02'],
    );
    assert.deepEqual(
      openWeeklyExpiries('2026-11-26', 'Wed').map((e) => e.lastTradingDay),
      ['2026-12-02', '2026-12-09'],
    );
  });

  test('property: open weeklies are live on the day, expire within two weeks, on their weekday or the trading day after', () => {
    // contract days are trading days
    const day = fc.integer({ min: 0, max: 365 * 2 }).map((n) => tradingDayOnOrAfter(addDays('2025-07-01', n)));
    fc.assert(
      fc.property(day, fc.constantFrom('Wed' as const, 'Fri' as const), (contractDay, weekday) => {
        const expiries = openWeeklyExpiries(contractDay, weekday);
        assert.ok(expiries.length >= 1 && expiries.length <= 2, `${contractDay} ${weekday}: ${expiries.length}`);
        for (const e of expiries) {
          assert.equal(weekdayOf(e.nominal), weekday === 'Wed' ? 3 : 5);
          assert.ok(e.beginDate <= contractDay && contractDay <= e.lastTradingDay);
          assert.ok(e.nominal <= addDays(contractDay, 14));
          assert.ok(isTradingDay(e.lastTradingDay) && e.lastTradingDay >= e.nominal);
          for (let d = e.nominal; d < e.lastTradingDay; d = addDays(d, 1)) assert.ok(!isTradingDay(d), d);
          assert.equal(e.weekOfMonth, Math.ceil(Number(e.nominal.slice(8, 10)) / 7));
          if (weekday === 'Wed') assert.notEqual(e.nominal, thirdWednesday(e.yearMonth));
        }
      }),
      { numRuns: 300 },
    );
  });
});
