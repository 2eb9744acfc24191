// TAIFEX listing rules: which delivery months and weekly expiries trade on a given contract day.

import { nextTradingDay, tradingDayOnOrAfter, tradingDayOnOrBefore } from './calendar.js';
import { remembered } from './remembered.js';
import {
  addDays,
  addMonths,
  nthWeekdayOfMonth,
  taipeiDate,
  taipeiInstantAtMinute,
  taipeiMinuteOfDay,
  weekdayOf,
  yearMonthOf,
} from './time.js';

const WEDNESDAY = 3;
const FRIDAY = 5;

/** Last trading day of a monthly contract: the third Wednesday, or the next trading day if that is a holiday. */
export const monthlyLastTradingDay = remembered((yearMonth: string): string =>
  tradingDayOnOrAfter(nthWeekdayOfMonth(yearMonth, WEDNESDAY, 3)!),
);

/** The nearest delivery month that has not expired on a contract day. */
export function spotMonth(contractDay: string): string {
  const month = yearMonthOf(contractDay);
  return contractDay > monthlyLastTradingDay(month) ? addMonths(month, 1) : month;
}

const isQuarterly = (yearMonth: string): boolean => Number(yearMonth.slice(4, 6)) % 3 === 0;

/** `consecutive` calendar months from the spot month, then `quarterlies` further quarterly months. */
function monthsFrom(spot: string, consecutive: number, quarterlies: number): string[] {
  const months = Array.from({ length: consecutive }, (_, i) => addMonths(spot, i));
  let candidate = addMonths(spot, consecutive);
  while (quarterlies > 0) {
    if (isQuarterly(candidate)) {
      months.push(candidate);
      quarterlies--;
    }
    candidate = addMonths(candidate, 1);
  }
  return months;
}

export type MonthCycle = 'index-futures' | 'stock-futures' | 'index-options';

const CYCLES: Record<MonthCycle, [number, number]> = {
  // TX, MTX, TMF: spot + next two calendar months + next three quarterly months.
  'index-futures': [3, 3],
  // Stock futures: spot + next calendar month + next three quarterly months.
  'stock-futures': [2, 3],
  // TXO: spot + next two calendar months + next two quarterly months.
  'index-options': [3, 2],
};

export function listedMonths(cycle: MonthCycle, contractDay: string): string[] {
  const [consecutive, quarterlies] = CYCLES[cycle];
  return monthsFrom(spotMonth(contractDay), consecutive, quarterlies);
}

/** Whether a listed month is one of the quarterly months beyond the consecutive ones (wider strike interval). */
export function isQuarterlyListing(cycle: MonthCycle, contractDay: string, yearMonth: string): boolean {
  const [consecutive] = CYCLES[cycle];
  return listedMonths(cycle, contractDay).indexOf(yearMonth) >= consecutive;
}

/** The first trading day on which a month of a cycle was listed: the day after the expiry that brought it in. */
export function listingBeginDate(cycle: MonthCycle, yearMonth: string): string {
  return beginDateOfListing(`${cycle}|${yearMonth}`);
}

const beginDateOfListing = remembered((cycleAndMonth: string): string => {
  const [cycle, yearMonth] = cycleAndMonth.split('|') as [MonthCycle, string];
  const [consecutive, quarterlies] = CYCLES[cycle];
  for (let spot = addMonths(yearMonth, -24); spot <= yearMonth; spot = addMonths(spot, 1)) {
    if (monthsFrom(spot, consecutive, quarterlies).includes(yearMonth)) {
      return nextTradingDay(monthlyLastTradingDay(addMonths(spot, -1)));
    }
  }
  return nextTradingDay(monthlyLastTradingDay(addMonths(yearMonth, -1)));
});

export interface WeeklyExpiry {
  /** The nominal expiry weekday date (a Wednesday or a Friday). */
  nominal: string;
  /** The nominal date, or the next trading day when it is a holiday. */
  lastTradingDay: string;
  /** The first trading day: the day after the expiry two weeks before. */
  beginDate: string;
  yearMonth: string;
  /** n-th Wednesday or Friday of the month (1-5). */
  weekOfMonth: number;
  weekday: 'Wed' | 'Fri';
}

/**
 * Weekly contracts list every week and expire on the second expiry weekday after listing, so on any contract day
 * the open ones expire within the next 14 days. Wednesday weeklies skip the third Wednesday, which is the monthly's.
 */
export function openWeeklyExpiries(contractDay: string, weekday: 'Wed' | 'Fri'): WeeklyExpiry[] {
  const target = weekday === 'Wed' ? WEDNESDAY : FRIDAY;
  const first = addDays(contractDay, (target - weekdayOf(contractDay) + 7) % 7);
  const expiries: WeeklyExpiry[] = [];
  for (let nominal = addDays(first, -7); nominal <= addDays(contractDay, 14); nominal = addDays(nominal, 7)) {
    const lastTradingDay = tradingDayOnOrAfter(nominal);
    const beginDate = nextTradingDay(tradingDayOnOrAfter(addDays(nominal, -14)));
    if (lastTradingDay < contractDay || beginDate > contractDay) continue;
    const weekOfMonth = Math.ceil(Number(nominal.slice(8, 10)) / 7);
    if (weekday === 'Wed' && weekOfMonth === 3) continue;
    expiries.push({ nominal, lastTradingDay, beginDate, yearMonth: yearMonthOf(nominal), weekOfMonth, weekday });
  }
  return expiries;
}

/** Contracts refresh at 07:50, 08:00, 14:45 and 17:15; from the 14:45 refresh on, the listing is the next day's. */
export const NIGHT_LISTING_MINUTE = 14 * 60 + 45;

/**
 * The trading day whose contracts are listed at an instant: the night session after 14:45 belongs to the next
 * trading day, and a holiday lists the next trading day's contracts.
 */
export function contractDayAt(epochMs: number): string {
  const date = taipeiDate(epochMs);
  if (taipeiMinuteOfDay(epochMs) >= NIGHT_LISTING_MINUTE) return nextTradingDay(date);
  return tradingDayOnOrAfter(date);
}

/** Stock listings refresh at 08:00: before that, the previous trading day's listing is current. */
export const STOCK_LISTING_MINUTE = 8 * 60;

/** The trading day whose stock, index and warrant listing is current at an instant. */
export function stockListingDayAt(epochMs: number): string {
  const date = taipeiDate(epochMs);
  if (taipeiMinuteOfDay(epochMs) < STOCK_LISTING_MINUTE) return tradingDayOnOrBefore(addDays(date, -1));
  return tradingDayOnOrBefore(date);
}

/** The exchange's contract refresh times (minutes of the Taiwan day): 07:50, 08:00, 14:45 and 17:15. */
export const CONTRACT_REFRESH_MINUTES = [7 * 60 + 50, STOCK_LISTING_MINUTE, NIGHT_LISTING_MINUTE, 17 * 60 + 15];

/** The next contract refresh time strictly after an instant. */
export function nextContractRefresh(epochMs: number): number {
  const date = taipeiDate(epochMs);
  for (const day of [date, addDays(date, 1)]) {
    for (const minute of CONTRACT_REFRESH_MINUTES) {
      const at = taipeiInstantAtMinute(day, minute);
      if (at > epochMs) return at;
    }
  }
  throw new Error('unreachable: a refresh happens every day');
}
