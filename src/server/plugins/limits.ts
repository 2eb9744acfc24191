// The HTTP side of production's call-rate limits (the counting is the gateway's RateGovernor): a refused call is a
// 429 with Retry-After; and of the daily traffic meter of the queries whose answers count as traffic.
//
// Routes opt in through their Fastify `config`: `rateGroups` names the groups a call counts in, `traffic` marks a
// query whose answer is metered. The hooks are attached to those routes only (onRoute), so other routes pay nothing.

import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../../domain/time.js';
import type { RateGovernor, RateGroup } from '../../gateway/rate-governor.js';
import { sendError } from './errors.js';

export interface TrafficMeter {
  record(bytes: number): void;
  exhausted(): boolean;
}

export interface LimitsOptions {
  /** false (SJ_SIM_LIMITS=off) turns the call-rate groups off; traffic is metered either way. */
  enabled: boolean;
  clock: Clock;
  /** The gateway's call counts, which this plugin asks before a rate-limited route runs. */
  governor: RateGovernor;
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

export const TRAFFIC_HEADER = 'x-sjgate-traffic';

type HookName = 'onRequest' | 'preHandler' | 'onSend';

// Route hooks may be absent, one function or a list; their precise generic types do not matter here.
function appendHook(route: RouteOptions, name: HookName, hook: unknown): void {
  const hooks = route as unknown as Record<HookName, unknown>;
  const existing = hooks[name];
  hooks[name] = existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
}

function rateHook(governor: RateGovernor, groups: readonly RateGroup[], clock: Clock) {
  return (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const refusal = governor.admit(groups, clock.now());
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
  app.addHook('onRoute', (route) => {
    const { rateGroups, traffic } = route.config ?? {};
    if (options.enabled && rateGroups && rateGroups.length > 0) {
      appendHook(route, 'onRequest', rateHook(options.governor, rateGroups, options.clock));
    }
    if (traffic) {
      appendHook(route, 'preHandler', exhaustedHook(options.traffic, traffic.empty));
      appendHook(route, 'onSend', meterHook(options.traffic));
    }
  });
}
