// The TWSE / TPEx / TAIFEX trading calendar. Pure: dates are 'YYYY-MM-DD' strings in Taiwan time.
//
// A date is a trading day when it is a Monday to Friday and not in MARKET_HOLIDAYS_BY_YEAR.
// Saturdays and Sundays are always closed: the make-up working Saturdays (補行上班日) of the
// government calendar are "不交易亦不交割" at the TWSE, so they never trade.
//
// TWSE, TPEx and TAIFEX share this calendar, including the settlement-only days before the Lunar
// New Year (市場無交易，僅辦理結算交割) and the typhoon closures (all three close when the Taipei
// City Government suspends work). No date is known on which they differ; if one turns up, the
// TWSE date wins here and the difference belongs in a comment next to it.
//
// Where each year comes from:
// - 2020-2024: the TWSE published schedules (有價證券集中交易市場開(休)市日期表), cross-checked against
//   the DGPA calendars of those years, plus the unscheduled typhoon closures the TWSE announced.
//   No typhoon closed the market in 2020-2023.
// - 2025: the TWSE published schedule (announced 2024-11), plus the three holidays restored by the
//   amended 紀念日及節日實施條例 and added to the DGPA 2025 calendar on 2025-06-13: 09-29 (Teachers'
//   Day observed), 10-24 (Retrocession Day observed), 12-25 (Constitution Day). The TWSE closed
//   with the government calendar on these. No typhoon closure in 2025.
// - 2026: the TWSE published schedule (announced 2025-10-29).
// - 2027: DERIVED. The TWSE had not published its 2027 schedule when this was written. The
//   government holidays are those of the DGPA 2027 (民國116年) calendar as transcribed in public
//   sources, which agree with the 2025 observance rules (Saturday holiday -> the Friday before,
//   Sunday holiday -> the Monday after, Lunar New Year weekend days -> the following workdays).
//   The two settlement-only days 02-02 and 02-03 are derived from the rule the TWSE has applied
//   every year since at least 2008: the last two business days before the Lunar New Year holiday
//   block do not trade. Re-check 2027 against the TWSE schedule once it is published (usually
//   late October or November of the year before).
//
// Outside HOLIDAY_YEARS only weekends are closed.

import { remembered } from './remembered.js';
import { addDays, isDateString, weekdayOf } from './time.js';

/** Weekdays on which the markets are closed, per year, in order. */
export const MARKET_HOLIDAYS_BY_YEAR: Readonly<Record<number, readonly string[]>> = Object.freeze({
  2020: [
    '2020-01-01', // New Year's Day
    '2020-01-21', // no trading, settlement only
    '2020-01-22', // no trading, settlement only
    '2020-01-23', // adjusted holiday (the day before Lunar New Year's Eve; worked on Sat 02-15)
    '2020-01-24', // Lunar New Year's Eve
    '2020-01-27', // Lunar New Year, day 3
    '2020-01-28', // Lunar New Year observed (day 1 was a Saturday)
    '2020-01-29', // Lunar New Year observed (day 2 was a Sunday)
    '2020-02-28', // Peace Memorial Day
    '2020-04-02', // Tomb-sweeping Day observed (Sat 04-04 was both holidays)
    '2020-04-03', // Children's Day observed
    '2020-05-01', // Labour Day
    '2020-06-25', // Dragon Boat Festival
    '2020-06-26', // adjusted holiday (worked on Sat 06-20)
    '2020-10-01', // Mid-Autumn Festival
    '2020-10-02', // adjusted holiday (worked on Sat 09-26)
    '2020-10-09', // National Day observed (10-10 was a Saturday)
  ],
  2021: [
    '2021-01-01', // New Year's Day
    '2021-02-08', // no trading, settlement only
    '2021-02-09', // no trading, settlement only
    '2021-02-10', // adjusted holiday (the day before Lunar New Year's Eve; worked on Sat 02-20)
    '2021-02-11', // Lunar New Year's Eve
    '2021-02-12', // Lunar New Year, day 1
    '2021-02-15', // Lunar New Year observed (day 2 was a Saturday)
    '2021-02-16', // Lunar New Year observed (day 3 was a Sunday)
    '2021-03-01', // Peace Memorial Day observed (02-28 was a Sunday)
    '2021-04-02', // Children's Day observed (Sun 04-04 was both holidays)
    '2021-04-05', // Tomb-sweeping Day observed
    '2021-04-30', // Labour Day observed (05-01 was a Saturday)
    '2021-06-14', // Dragon Boat Festival
    '2021-09-20', // adjusted holiday (worked on Sat 09-11)
    '2021-09-21', // Mid-Autumn Festival
    '2021-10-11', // National Day observed (10-10 was a Sunday)
    '2021-12-31', // New Year's Day 2022 observed (2022-01-01 was a Saturday)
  ],
  2022: [
    '2022-01-27', // no trading, settlement only
    '2022-01-28', // no trading, settlement only
    '2022-01-31', // Lunar New Year's Eve
    '2022-02-01', // Lunar New Year, day 1
    '2022-02-02', // Lunar New Year, day 2
    '2022-02-03', // Lunar New Year, day 3
    '2022-02-04', // adjusted holiday (worked on Sat 01-22)
    '2022-02-28', // Peace Memorial Day
    '2022-04-04', // Children's Day
    '2022-04-05', // Tomb-sweeping Day
    '2022-05-02', // Labour Day observed (05-01 was a Sunday)
    '2022-06-03', // Dragon Boat Festival
    '2022-09-09', // Mid-Autumn Festival observed (09-10 was a Saturday)
    '2022-10-10', // National Day
  ],
  2023: [
    '2023-01-02', // New Year's Day observed (01-01 was a Sunday)
    '2023-01-18', // no trading, settlement only
    '2023-01-19', // no trading, settlement only
    '2023-01-20', // adjusted holiday (the day before Lunar New Year's Eve; worked on Sat 01-07)
    '2023-01-23', // Lunar New Year, day 2
    '2023-01-24', // Lunar New Year, day 3
    '2023-01-25', // Lunar New Year observed (the Eve was a Saturday)
    '2023-01-26', // Lunar New Year observed (day 1 was a Sunday)
    '2023-01-27', // adjusted holiday (worked on Sat 02-04)
    '2023-02-27', // adjusted holiday (worked on Sat 02-18)
    '2023-02-28', // Peace Memorial Day
    '2023-04-03', // adjusted holiday (worked on Sat 03-25)
    '2023-04-04', // Children's Day
    '2023-04-05', // Tomb-sweeping Day
    '2023-05-01', // Labour Day
    '2023-06-22', // Dragon Boat Festival
    '2023-06-23', // adjusted holiday (worked on Sat 06-17)
    '2023-09-29', // Mid-Autumn Festival
    '2023-10-09', // adjusted holiday (worked on Sat 09-23)
    '2023-10-10', // National Day
  ],
  2024: [
    '2024-01-01', // New Year's Day
    '2024-02-06', // no trading, settlement only
    '2024-02-07', // no trading, settlement only
    '2024-02-08', // adjusted holiday (the day before Lunar New Year's Eve; worked on Sat 02-17)
    '2024-02-09', // Lunar New Year's Eve
    '2024-02-12', // Lunar New Year, day 3
    '2024-02-13', // Lunar New Year observed (day 1 was a Saturday)
    '2024-02-14', // Lunar New Year observed (day 2 was a Sunday)
    '2024-02-28', // Peace Memorial Day
    '2024-04-04', // Children's Day and Tomb-sweeping Day
    '2024-04-05', // Children's Day observed (same day as Tomb-sweeping, a Thursday)
    '2024-05-01', // Labour Day
    '2024-06-10', // Dragon Boat Festival
    '2024-07-24', // typhoon Gaemi (Taipei suspended work)
    '2024-07-25', // typhoon Gaemi (Taipei suspended work)
    '2024-09-17', // Mid-Autumn Festival
    '2024-10-02', // typhoon Krathon (Taipei suspended work)
    '2024-10-03', // typhoon Krathon (Taipei suspended work)
    '2024-10-10', // National Day
    '2024-10-31', // typhoon Kong-rey (Taipei suspended work)
  ],
  2025: [
    '2025-01-01', // New Year's Day
    '2025-01-23', // no trading, settlement only
    '2025-01-24', // no trading, settlement only
    '2025-01-27', // adjusted holiday (the day before Lunar New Year's Eve; worked on Sat 02-08)
    '2025-01-28', // Lunar New Year's Eve
    '2025-01-29', // Lunar New Year, day 1
    '2025-01-30', // Lunar New Year, day 2
    '2025-01-31', // Lunar New Year, day 3
    '2025-02-28', // Peace Memorial Day
    '2025-04-03', // Children's Day observed (same day as Tomb-sweeping, a Friday)
    '2025-04-04', // Children's Day and Tomb-sweeping Day
    '2025-05-01', // Labour Day
    '2025-05-30', // Dragon Boat Festival observed (05-31 was a Saturday)
    '2025-09-29', // Teachers' Day observed (09-28 was a Sunday); restored holiday
    '2025-10-06', // Mid-Autumn Festival
    '2025-10-10', // National Day
    '2025-10-24', // Taiwan Retrocession Day observed (10-25 was a Saturday); restored holiday
    '2025-12-25', // Constitution Day; restored holiday
  ],
  2026: [
    '2026-01-01', // New Year's Day
    '2026-02-12', // no trading, settlement only
    '2026-02-13', // no trading, settlement only
    '2026-02-16', // Lunar New Year's Eve
    '2026-02-17', // Lunar New Year, day 1
    '2026-02-18', // Lunar New Year, day 2
    '2026-02-19', // Lunar New Year, day 3
    '2026-02-20', // observed for the day before the Eve (Sun 02-15)
    '2026-02-27', // Peace Memorial Day observed (02-28 is a Saturday)
    '2026-04-03', // Children's Day observed (04-04 is a Saturday)
    '2026-04-06', // Tomb-sweeping Day observed (04-05 is a Sunday)
    '2026-05-01', // Labour Day
    '2026-06-19', // Dragon Boat Festival
    '2026-09-25', // Mid-Autumn Festival
    '2026-09-28', // Teachers' Day
    '2026-10-09', // National Day observed (10-10 is a Saturday)
    '2026-10-26', // Taiwan Retrocession Day observed (10-25 is a Sunday)
    '2026-12-25', // Constitution Day
  ],
  // Derived, not a published TWSE schedule: see the note at the top.
  2027: [
    '2027-01-01', // New Year's Day
    '2027-02-02', // no trading, settlement only (derived)
    '2027-02-03', // no trading, settlement only (derived)
    '2027-02-04', // the day before Lunar New Year's Eve
    '2027-02-05', // Lunar New Year's Eve
    '2027-02-08', // Lunar New Year, day 3
    '2027-02-09', // Lunar New Year observed (day 1, 02-06, is a Saturday)
    '2027-02-10', // Lunar New Year observed (day 2, 02-07, is a Sunday)
    '2027-03-01', // Peace Memorial Day observed (02-28 is a Sunday)
    '2027-04-05', // Tomb-sweeping Day
    '2027-04-06', // Children's Day observed (04-04 is a Sunday)
    '2027-04-30', // Labour Day observed (05-01 is a Saturday)
    '2027-06-09', // Dragon Boat Festival
    '2027-09-15', // Mid-Autumn Festival
    '2027-09-28', // Teachers' Day
    '2027-10-11', // National Day observed (10-10 is a Sunday)
    '2027-10-25', // Taiwan Retrocession Day
    '2027-12-24', // Constitution Day observed (12-25 is a Saturday)
    '2027-12-31', // New Year's Day 2028 observed (2028-01-01 is a Saturday)
  ],
});

/** The first and last year whose exchange holidays are known; outside it only weekends are closed. */
export const HOLIDAY_YEARS: { readonly first: number; readonly last: number } = Object.freeze({
  first: 2020,
  last: 2027,
});

const MARKET_HOLIDAYS: ReadonlySet<string> = new Set(Object.values(MARKET_HOLIDAYS_BY_YEAR).flat());

const isValidDate = remembered(isDateString);

function requireDate(date: string): void {
  if (!isValidDate(date)) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
}

const isOpen = remembered((date: string): boolean => {
  const weekday = weekdayOf(date);
  return weekday !== 0 && weekday !== 6 && !MARKET_HOLIDAYS.has(date);
});

/** True when the Taiwan stock and futures markets trade on this date. */
export function isTradingDay(date: string): boolean {
  requireDate(date);
  return isOpen(date);
}

const firstOpenDayAfter = remembered((date: string): string => {
  let day = addDays(date, 1);
  while (!isOpen(day)) day = addDays(day, 1);
  return day;
});

const lastOpenDayBefore = remembered((date: string): string => {
  let day = addDays(date, -1);
  while (!isOpen(day)) day = addDays(day, -1);
  return day;
});

/** The first trading day strictly after date. */
export function nextTradingDay(date: string): string {
  requireDate(date);
  return firstOpenDayAfter(date);
}

/** The last trading day strictly before date. */
export function previousTradingDay(date: string): string {
  requireDate(date);
  return lastOpenDayBefore(date);
}

/** date itself if it is a trading day, else the next one. */
export function tradingDayOnOrAfter(date: string): string {
  requireDate(date);
  return isOpen(date) ? date : nextTradingDay(date);
}

/** date itself if it is a trading day, else the previous one. */
export function tradingDayOnOrBefore(date: string): string {
  requireDate(date);
  return isOpen(date) ? date : previousTradingDay(date);
}

/** Trading days d with from <= d <= to, in order. */
export function tradingDaysBetween(from: string, to: string): string[] {
  requireDate(from);
  requireDate(to);
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    if (isOpen(day)) days.push(day);
  }
  return days;
}
