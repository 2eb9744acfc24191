// Daily query traffic: bytes of ticks, kbars and snapshots answers, counted against the daily limit. The count
// resets at 08:00 Taiwan time on trading days only, so a weekend or holiday still belongs to the last trading day.

import type { Usage } from '../broker/port.js';
import { nextTradingDay } from '../domain/calendar.js';
import { STOCK_LISTING_MINUTE as RESET_MINUTE, stockListingDayAt } from '../domain/listing.js';
import { type Clock, taipeiInstantAtMinute } from '../domain/time.js';

/** The trading day whose traffic an instant counts towards: the stock listing day, which also starts at 08:00. */
export const trafficDayOf = stockListingDayAt;

/** The daily query-traffic limit of the lowest tier (no API turnover in the last 30 days). */
export const DAILY_LIMIT_BYTES = 500 * 1024 * 1024;

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

  /** What usage() answers when the venue keeps no count of its own: one connection, this count. */
  usage(): Usage {
    return { connections: 1, bytes: this.used(), limit_bytes: this.limitBytes, remaining_bytes: this.remaining() };
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
