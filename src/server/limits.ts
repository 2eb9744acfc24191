// Production's call-rate limits, enforced here so that a program tested against the simulator is not paused or
// banned in production; and the daily traffic meter of the queries whose answers count as traffic.
//
// Routes opt in through their Fastify `config`: `rateGroups` names the groups a call counts in, `traffic` marks a
// query whose answer is metered. The hooks are attached to those routes only (onRoute), so other routes pay nothing.

import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { stockListingDayAt } from '../domain/listing.js';
import type { Clock } from '../domain/time.js';
import { sendError } from './errors.js';

export type RateGroup = 'market-data' | 'ticks' | 'kbars' | 'accounting' | 'orders';

export interface TrafficMeter {
  record(bytes: number): void;
  exhausted(): boolean;
}

export interface LimitsOptions {
  /** false (SJ_SIM_LIMITS=off) turns the call-rate groups off; traffic is metered either way. */
  enabled: boolean;
  clock: Clock;
  isTradingHours: (now: number) => boolean;
  traffic: TrafficMeter;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The call-rate groups a call of this route counts in. */
    rateGroups?: readonly RateGroup[];
    /** The answer counts as daily traffic; once the day's traffic is used up the route answers `empty()`. */
    traffic?: { empty: () => unknown };
  }
}

/** How long production pauses the service after a limit is broken. */
export const PAUSE_MS = 60_000;
export const TRAFFIC_HEADER = 'x-sjgate-traffic';

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

function makeGroups(isTradingHours: (now: number) => boolean): Record<RateGroup, Group> {
  return {
    'market-data': new Group(
      'market data: over 50 calls per 10 seconds (credit_enquires, short_stock_sources, snapshots, ticks, kbars)',
      POLLING_ADVICE,
      new SlidingWindow(50, 10_000),
    ),
    ticks: new Group(
      'ticks: over 10 calls during trading hours today',
      `query ticks after the close and cache them; ${POLLING_ADVICE}`,
      new TradingHoursQuota(10, isTradingHours),
    ),
    kbars: new Group(
      'kbars: over 270 calls during trading hours today',
      `query kbars after the close and cache them; ${POLLING_ADVICE}`,
      new TradingHoursQuota(270, isTradingHours),
    ),
    accounting: new Group(
      'accounting: over 25 calls per 5 seconds (list_profit_loss_detail, account_balance, list_settlements, ' +
        'list_profit_loss, list_positions, margin)',
      'keep positions from order and deal reports instead of polling',
      new SlidingWindow(25, 5_000),
    ),
    orders: new Group(
      'orders: over 250 calls per 10 seconds (place_order, update_status, update_qty, update_price, cancel_order)',
      'follow order reports (the order_event stream) instead of polling update_status',
      new SlidingWindow(250, 10_000),
    ),
  };
}

interface Refusal {
  retryAfterSeconds: number;
  message: string;
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

type HookName = 'onRequest' | 'preHandler' | 'onSend';

// Route hooks may be absent, one function or a list; their precise generic types do not matter here.
function appendHook(route: RouteOptions, name: HookName, hook: unknown): void {
  const hooks = route as unknown as Record<HookName, unknown>;
  const existing = hooks[name];
  hooks[name] = existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
}

function rateHook(groups: readonly Group[], clock: Clock) {
  return (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const refusal = admit(groups, clock.now());
    if (refusal === null) return done();
    reply.header('retry-after', String(refusal.retryAfterSeconds));
    sendError(reply, 'RATE_LIMITED', refusal.message);
  };
}

function exhaustedHook(traffic: TrafficMeter, empty: () => unknown) {
  return (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (!traffic.exhausted()) return done();
    reply.code(200).header(TRAFFIC_HEADER, 'exhausted').send(empty());
  };
}

function meterHook(traffic: TrafficMeter) {
  return (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (e: null, p: unknown) => void) => {
    if (reply.statusCode < 300 && !reply.hasHeader(TRAFFIC_HEADER)) {
      if (typeof payload === 'string') traffic.record(Buffer.byteLength(payload));
      else if (Buffer.isBuffer(payload)) traffic.record(payload.length);
    }
    done(null, payload);
  };
}

/** Applies to the routes registered after it, anywhere in the app. */
export const limitsPlugin = fp<LimitsOptions>(
  async (app: FastifyInstance, options: LimitsOptions) => {
    addLimitHooks(app, options);
  },
  { name: 'limits', fastify: '5.x', dependencies: ['errors'] },
);

function addLimitHooks(app: FastifyInstance, options: LimitsOptions): void {
  const groups = makeGroups(options.isTradingHours);
  app.addHook('onRoute', (route) => {
    const { rateGroups, traffic } = route.config ?? {};
    if (options.enabled && rateGroups && rateGroups.length > 0) {
      appendHook(
        route,
        'onRequest',
        rateHook(
          [...new Set(rateGroups)].map((name) => groups[name]),
          options.clock,
        ),
      );
    }
    if (traffic) {
      appendHook(route, 'preHandler', exhaustedHook(options.traffic, traffic.empty));
      appendHook(route, 'onSend', meterHook(options.traffic));
    }
  });
}
