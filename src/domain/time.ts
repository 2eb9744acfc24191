// Taiwan wall-clock time (UTC+8, no daylight saving). Dates are 'YYYY-MM-DD' strings.

import { remembered } from './remembered.js';

export const TAIPEI_OFFSET_MS = 8 * 3600_000;
const DAY_MS = 86400_000;

/** The single source of time for everything that simulates the market. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that starts at a given instant and then runs at real speed. */
export function clockStartingAt(startMs: number): Clock {
  const offset = startMs - Date.now();
  return { now: () => Date.now() + offset };
}

/** A clock that only moves when told to: for tests. */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  now(): number {
    return this.ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

function shifted(epochMs: number): Date {
  return new Date(epochMs + TAIPEI_OFFSET_MS);
}

export function taipeiDate(epochMs: number): string {
  return shifted(epochMs).toISOString().slice(0, 10);
}

/** ISO 8601 in Taiwan time with its offset, e.g. 2026-11-23T10:00:00.000+08:00. */
export function taipeiIso(epochMs: number): string {
  return `${shifted(epochMs).toISOString().slice(0, 23)}+08:00`;
}

/** Minutes since Taiwan midnight. */
export function taipeiMinuteOfDay(epochMs: number): number {
  const d = shifted(epochMs);
  return d.getUTCHours() * 60 + d.getUTCMinutes();
}

/** The instant of a Taiwan wall-clock date and time ('HH:MM' or 'HH:MM:SS'). */
export function taipeiInstant(date: string, time = '00:00'): number {
  const withSeconds = time.length === 5 ? `${time}:00` : time;
  return Date.parse(`${date}T${withSeconds}Z`) - TAIPEI_OFFSET_MS;
}

/** The next instant after `now` at Taiwan wall-clock time `at` ('HH:MM' or 'HH:MM:SS'). */
export function nextTaipeiTime(at: string, now: number): number {
  const today = taipeiInstant(taipeiDate(now), at);
  return today > now ? today : taipeiInstant(addDays(taipeiDate(now), 1), at);
}

/** The instant of a minute of a Taiwan day (0 = midnight). */
export function taipeiInstantAtMinute(date: string, minuteOfDay: number): number {
  return taipeiInstant(date) + minuteOfDay * 60_000;
}

export function isDateString(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === value;
}

/** Days since 1970-01-01 of a date; NaN for a string that is not one. */
const dayNumberOf = remembered((date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS);

/** The date of a day number (throws a RangeError for NaN, as an invalid Date's toISOString does). */
const dateOfDayNumber = remembered((day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10));

export function addDays(date: string, days: number): string {
  return dateOfDayNumber(dayNumberOf(date) + days);
}

/** 0 = Sunday ... 6 = Saturday. */
export function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** Whole days from a to b (b - a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);
}

/** 'YYYYMM' of a date. */
export function yearMonthOf(date: string): string {
  return date.slice(0, 4) + date.slice(5, 7);
}

/** The year-month n months after 'YYYYMM'. */
export function addMonths(yearMonth: string, months: number): string {
  const index = Number(yearMonth.slice(0, 4)) * 12 + Number(yearMonth.slice(4, 6)) - 1 + months;
  return `${Math.floor(index / 12)}${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The date of the n-th given weekday (0 = Sunday) of a 'YYYYMM' month; null if the month has fewer. */
export function nthWeekdayOfMonth(yearMonth: string, weekday: number, n: number): string | null {
  const first = `${yearMonth.slice(0, 4)}-${yearMonth.slice(4, 6)}-01`;
  const offset = (weekday - weekdayOf(first) + 7) % 7;
  const date = addDays(first, offset + (n - 1) * 7);
  return yearMonthOf(date) === yearMonth ? date : null;
}
