// Production's call-rate limits, which every venue answers to: a program tested against the simulator must not be
// paused or banned in production. Each group counts the calls of its operations; a call over a group's limit pauses
// that group for a minute, as production pauses the service.

import { stockListingDayAt } from '../domain/listing.js';

export type RateGroup = 'market-data' | 'ticks' | 'kbars' | 'accounting' | 'orders';

/** How long production pauses the service after a limit is broken. */
export const PAUSE_MS = 60_000;
interface CallCounter {
  /** True when one more call now would go over the limit. */
  full(now: number): boolean;
  count(now: number): void;
}

/** At most `limit` calls in any `windowMs`: a ring of the last `limit` call times. */
class SlidingWindow implements CallCounter {
  private readonly times: number[] = [];
  private oldest = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  full(now: number): boolean {
    return this.times.length === this.limit && this.times[this.oldest]! > now - this.windowMs;
  }

  count(now: number): void {
    if (this.times.length < this.limit) {
      this.times.push(now);
      return;
    }
    this.times[this.oldest] = now;
    this.oldest = (this.oldest + 1) % this.limit;
  }
}

/** At most `limit` calls during trading hours per trading day; calls outside trading hours are free. */
class TradingHoursQuota implements CallCounter {
  private day = '';
  private calls = 0;

  constructor(
    private readonly limit: number,
    private readonly isTradingHours: (now: number) => boolean,
  ) {}

  full(now: number): boolean {
    return this.isTradingHours(now) && this.callsOf(now) >= this.limit;
  }

  count(now: number): void {
    if (!this.isTradingHours(now)) return;
    this.calls = this.callsOf(now) + 1;
  }

  private callsOf(now: number): number {
    // daily counts restart with the trading day, at the 08:00 stock refresh
    const day = stockListingDayAt(now);
    if (day !== this.day) {
      this.day = day;
      this.calls = 0;
    }
    return this.calls;
  }
}

class Group {
  pausedUntil = Number.NEGATIVE_INFINITY;

  constructor(
    /** Names the group, its limit and the operations that share it, for the refusal. */
    readonly limit: string,
    readonly advice: string,
    readonly counter: CallCounter,
  ) {}
}

const POLLING_ADVICE = 'use quote subscriptions instead of polling';

/** What the governor needs of the venue: its trading hours, and whether it is the simulator and never closes. */
export interface RateVenue {
  venue: 'simulator' | 'shioaji';
  simClock: string | null;
  isStockTradingHours(at: number): boolean;
}

/** When a program may query a day's ticks or bars freely: after the close, which an always-open simulator lacks. */
function afterTheClose(venue: RateVenue, what: string): string {
  if (venue.simClock !== 'always-open') return `query ${what} after the close and cache them; ${POLLING_ADVICE}`;
  return `the always-open simulator has no close, so the quota holds all day: cache ${what}; ${POLLING_ADVICE}`;
}

/** How to turn the limits off, where they can be: only the simulator's (SinoPac keeps its own). */
function turnOff(venue: RateVenue): string {
  return venue.venue === 'simulator' ? '; SJ_SIM_LIMITS=off turns these limits off in simulation' : '';
}

function makeGroups(venue: RateVenue): Record<RateGroup, Group> {
  const isTradingHours = (now: number) => venue.isStockTradingHours(now);
  return {
    'market-data': new Group(
      'market data: over 50 calls per 10 seconds (credit_enquires, short_stock_sources, snapshots, ticks, kbars)',
      POLLING_ADVICE + turnOff(venue),
      new SlidingWindow(50, 10_000),
    ),
    ticks: new Group(
      'ticks: over 10 calls during trading hours today',
      afterTheClose(venue, 'ticks') + turnOff(venue),
      new TradingHoursQuota(10, isTradingHours),
    ),
    kbars: new Group(
      'kbars: over 270 calls during trading hours today',
      afterTheClose(venue, 'kbars') + turnOff(venue),
      new TradingHoursQuota(270, isTradingHours),
    ),
    accounting: new Group(
      'accounting: over 25 calls per 5 seconds (list_profit_loss_detail, account_balance, list_settlements, ' +
        'list_profit_loss, list_positions, margin)',
      `keep positions from order and deal reports instead of polling${turnOff(venue)}`,
      new SlidingWindow(25, 5_000),
    ),
    orders: new Group(
      'orders: over 250 calls per 10 seconds (place_order, update_status, update_qty, update_price, cancel_order)',
      `follow order reports (the order_event stream) instead of polling update_status${turnOff(venue)}`,
      new SlidingWindow(250, 10_000),
    ),
  };
}

function refusalOf(group: Group, now: number, breach: boolean): Refusal {
  const seconds = Math.max(1, Math.ceil((group.pausedUntil - now) / 1000));
  const paused = breach ? `paused for ${seconds} s` : `still paused for ${seconds} s`;
  return {
    retryAfterSeconds: seconds,
    message: `${group.limit}; ${paused}, production would pause this service the same way; ${group.advice}`,
  };
}

/** Counts a call in every group, or refuses it without counting it anywhere. */
function admit(groups: readonly Group[], now: number): Refusal | null {
  const paused = groups.find((g) => g.pausedUntil > now);
  if (paused) return refusalOf(paused, now, false);
  const over = groups.filter((g) => g.counter.full(now));
  for (const g of over) g.pausedUntil = now + PAUSE_MS;
  if (over[0]) return refusalOf(over[0], now, true);
  for (const g of groups) g.counter.count(now);
  return null;
}

export interface Refusal {
  retryAfterSeconds: number;
  message: string;
}

export class RateGovernor {
  private readonly groups: Record<RateGroup, Group>;

  /** `venue.isStockTradingHours`: whether stocks trade at an instant, for the daily quotas that count only then. */
  constructor(venue: RateVenue) {
    this.groups = makeGroups(venue);
  }

  /** Counts a call in every group it belongs to, or refuses it without counting it anywhere. */
  admit(names: readonly RateGroup[], now: number): Refusal | null {
    return admit(
      [...new Set(names)].map((name) => this.groups[name]),
      now,
    );
  }
}
