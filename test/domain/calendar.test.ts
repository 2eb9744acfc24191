import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  HOLIDAY_YEARS,
  isTradingDay,
  MARKET_HOLIDAYS_BY_YEAR,
  nextTradingDay,
  previousTradingDay,
  tradingDayOnOrAfter,
  tradingDayOnOrBefore,
  tradingDaysBetween,
} from '../../src/domain/calendar.js';
import { remembered } from '../../src/domain/remembered.js';
import { addDays, isDateString, weekdayOf } from '../../src/domain/time.js';

test('HOLIDAY_YEARS covers the simulated history and 2025-2027', () => {
  assert.deepEqual({ ...HOLIDAY_YEARS }, { first: 2020, last: 2027 });
  const years = Object.keys(MARKET_HOLIDAYS_BY_YEAR).map(Number);
  assert.deepEqual(years, [2020, 2021, 2022, 2023, 2024, 2025, 2026, 2027]);
});

test('the holiday data is well-formed: valid weekdays of their own year, sorted, no duplicates', () => {
  for (const [year, dates] of Object.entries(MARKET_HOLIDAYS_BY_YEAR)) {
    assert.deepEqual([...dates].sort(), dates, `${year} is sorted`);
    assert.equal(new Set(dates).size, dates.length, `${year} has no duplicates`);
    for (const date of dates) {
      assert.ok(isDateString(date), date);
      assert.equal(date.slice(0, 4), year, date);
      assert.ok(![0, 6].includes(weekdayOf(date)), `${date} is a weekday`);
    }
  }
});

test('weekends are always closed, make-up working Saturdays included', () => {
  for (const date of [
    '2026-03-07',
    '2026-03-08',
    '2025-02-08',
    '2024-02-17',
    '2023-01-07',
    '2019-06-01',
    '2031-06-01',
  ]) {
    assert.equal(isTradingDay(date), false, date);
  }
});

test('known holidays are closed', () => {
  const closed = [
    '2026-01-01',
    // Lunar New Year 2026: settlement-only days, then the holiday block.
    '2026-02-12',
    '2026-02-13',
    '2026-02-16',
    '2026-02-17',
    '2026-02-18',
    '2026-02-19',
    '2026-02-20',
    '2026-02-27',
    '2026-04-03',
    '2026-04-06',
    '2026-05-01',
    '2026-06-19',
    '2026-09-25',
    '2026-09-28',
    '2026-10-09',
    '2026-10-10',
    '2026-10-26',
    '2026-12-25',
    '2025-01-23',
    '2025-01-31',
    '2025-05-01',
    '2025-05-30',
    '2025-09-29',
    '2025-10-24',
    '2025-12-25',
    '2024-07-24',
    '2024-10-31',
    '2021-04-30',
    '2021-12-31',
    '2020-10-09',
    '2027-02-02',
    '2027-02-10',
    '2027-12-31',
  ];
  for (const date of closed) assert.equal(isTradingDay(date), false, date);
});

test('known normal days are open', () => {
  const open = [
    '2020-03-02',
    '2024-07-26',
    '2025-01-22',
    '2025-02-03',
    '2025-12-24',
    '2025-12-26',
    '2026-01-02',
    '2026-02-11',
    '2026-02-23',
    '2026-10-08',
    '2026-10-12',
    '2027-02-01',
    '2027-02-11',
  ];
  for (const date of open) assert.equal(isTradingDay(date), true, date);
});

test('outside HOLIDAY_YEARS only weekends are closed', () => {
  assert.equal(isTradingDay('2019-10-10'), true);
  assert.equal(isTradingDay('2028-01-03'), true);
  assert.equal(isTradingDay('2028-01-01'), false);
});

test('next and previous trading day across Lunar New Year', () => {
  assert.equal(nextTradingDay('2026-02-11'), '2026-02-23');
  assert.equal(previousTradingDay('2026-02-23'), '2026-02-11');
  assert.equal(nextTradingDay('2025-01-22'), '2025-02-03');
  assert.equal(previousTradingDay('2025-02-03'), '2025-01-22');
  assert.equal(nextTradingDay('2027-02-01'), '2027-02-11');
  assert.equal(previousTradingDay('2027-02-11'), '2027-02-01');
  // From inside the closure.
  assert.equal(nextTradingDay('2026-02-15'), '2026-02-23');
  assert.equal(previousTradingDay('2026-02-15'), '2026-02-11');
});

test('next and previous trading day over weekends and year ends', () => {
  assert.equal(nextTradingDay('2026-03-06'), '2026-03-09');
  assert.equal(previousTradingDay('2026-03-09'), '2026-03-06');
  assert.equal(nextTradingDay('2025-12-31'), '2026-01-02');
  assert.equal(previousTradingDay('2026-01-02'), '2025-12-31');
  assert.equal(nextTradingDay('2027-12-30'), '2028-01-03');
  assert.equal(nextTradingDay('2026-10-08'), '2026-10-12');
});

test('on-or-after and on-or-before keep trading days and move off closed ones', () => {
  assert.equal(tradingDayOnOrAfter('2026-03-04'), '2026-03-04');
  assert.equal(tradingDayOnOrBefore('2026-03-04'), '2026-03-04');
  assert.equal(tradingDayOnOrAfter('2026-02-14'), '2026-02-23');
  assert.equal(tradingDayOnOrBefore('2026-02-14'), '2026-02-11');
  assert.equal(tradingDayOnOrAfter('2026-01-01'), '2026-01-02');
  assert.equal(tradingDayOnOrBefore('2026-01-01'), '2025-12-31');
});

test('tradingDaysBetween is inclusive, ordered, and empty when reversed', () => {
  assert.deepEqual(tradingDaysBetween('2026-02-09', '2026-02-24'), [
    '2026-02-09',
    '2026-02-10',
    '2026-02-11',
    '2026-02-23',
    '2026-02-24',
  ]);
  assert.deepEqual(tradingDaysBetween('2026-03-04', '2026-03-04'), ['2026-03-04']);
  assert.deepEqual(tradingDaysBetween('2026-03-07', '2026-03-08'), []);
  assert.deepEqual(tradingDaysBetween('2026-03-10', '2026-03-09'), []);
  assert.equal(tradingDaysBetween('2026-01-01', '2026-01-31').length, 21);
  assert.equal(tradingDaysBetween('2026-02-01', '2026-02-28').length, 12);
  assert.equal(tradingDaysBetween('2025-01-01', '2025-01-31').length, 15);
});

test('trading days per year', () => {
  const expected: Record<number, number> = {
    2020: 245,
    2021: 244,
    2022: 246,
    2023: 240,
    2024: 242,
    2025: 243,
    2026: 243,
    2027: 242,
  };
  for (const [year, count] of Object.entries(expected)) {
    const days = tradingDaysBetween(`${year}-01-01`, `${year}-12-31`);
    assert.equal(days.length, count, year);
    assert.ok(days.length >= 235 && days.length <= 250, year);
  }
});

test('every day agrees with the neighbour functions', () => {
  const days = tradingDaysBetween('2020-01-01', '2027-12-31');
  for (let i = 1; i < days.length; i++) {
    const [prev, cur] = [days[i - 1] as string, days[i] as string];
    assert.equal(nextTradingDay(prev), cur);
    assert.equal(previousTradingDay(cur), prev);
  }
});

test('malformed dates are rejected', () => {
  for (const bad of ['', '2026-1-1', '2026-02-30', '20260101', 'not a date']) {
    assert.throws(() => isTradingDay(bad), RangeError, bad);
    assert.throws(() => nextTradingDay(bad), RangeError, bad);
    assert.throws(() => tradingDaysBetween(bad, '2026-01-01'), RangeError, bad);
    // asked again, still rejected: only answers are remembered, never a pass for a bad date
    assert.throws(() => previousTradingDay(bad), RangeError, bad);
    assert.throws(() => nextTradingDay(bad), RangeError, bad);
  }
});

test('a remembered function computes each key once and answers the same, falsy answers included', () => {
  const asked: string[] = [];
  const lengthOf = remembered((key: string) => {
    asked.push(key);
    return key.length;
  });
  assert.deepEqual([lengthOf(''), lengthOf('ab'), lengthOf(''), lengthOf('ab')], [0, 2, 0, 2]);
  assert.deepEqual(asked, ['', 'ab']);
  // the same days as before the answers were remembered: a Friday before a weekend, a day inside one
  assert.equal(nextTradingDay('2026-11-27'), '2026-11-30');
  assert.equal(nextTradingDay('2026-11-27'), '2026-11-30');
  assert.equal(previousTradingDay('2026-11-29'), '2026-11-27');
  assert.deepEqual(
    [addDays('2024-02-28', 1), addDays('2024-03-01', -1), addDays('2026-12-31', 1)],
    ['2024-02-29', '2024-02-29', '2027-01-01'],
  );
  assert.throws(() => addDays('not a date', 1), RangeError);
  assert.throws(() => addDays('not a date', 1), RangeError);
});
