// Daily query traffic: bytes of ticks, kbars and snapshots answers, counted against the daily limit. The count
// resets at 08:00 Taiwan time on trading days only, so a weekend or holiday still belongs to the last trading day.

import { isTradingDay, nextTradingDay, previousTradingDay } from '../../domain/calendar.js';
import { type Clock, taipeiDate, taipeiInstantAtMinute, taipeiMinuteOfDay } from '../../domain/time.js';

const RESET_MINUTE = 8 * 60;

/** The trading day whose traffic an instant counts towards: the latest trading day whose 08:00 is at or before it. */
export function trafficDayOf(epochMs: number): string {
  const date = taipeiDate(epochMs);
  return isTradingDay(date) && taipeiMinuteOfDay(epochMs) >= RESET_MINUTE ? date : previousTradingDay(date);
}

export class DailyTraffic {
  private bytes = 0;
  // The instants the current traffic day starts and ends; outside them the count belongs to another day.
  private start = Number.POSITIVE_INFINITY;
  private end = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    readonly limitBytes: number,
  ) {}

  record(bytes: number): void {
    this.roll();
    this.bytes += bytes;
  }

  /** Bytes counted since the last reset. */
  used(): number {
    this.roll();
    return this.bytes;
  }

  remaining(): number {
    return Math.max(0, this.limitBytes - this.used());
  }

  exhausted(): boolean {
    return this.used() >= this.limitBytes;
  }

  private roll(): void {
    const now = this.clock.now();
    if (now >= this.start && now < this.end) return;
    const day = trafficDayOf(now);
    this.start = taipeiInstantAtMinute(day, RESET_MINUTE);
    this.end = taipeiInstantAtMinute(nextTradingDay(day), RESET_MINUTE);
    this.bytes = 0;
  }
}
