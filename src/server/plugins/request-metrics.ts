// Collects the monitor's metrics of every request to the API (/api/v1): when it started, how long it took, the route
// pattern it matched (never the URL: no path values, no query string), its status and, for an error, the envelope's
// kind; and who sent it: `X-Shioaji-Activity: dashboard` (or `background`) marks the dashboard's own traffic, anything
// else is a user's. The requests in flight are counted by origin (the gateway's VenueCalls), which gives the calls to the
// venue made meanwhile their origin.
// Pages, docs and static files are not measured.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { API_PREFIX, SSE_PATHS } from '../../contract/paths.js';
import type { Monitor } from '../monitor/monitor.js';
import type { Origin } from '../monitor/series.js';
import { originOfActivity } from '../monitor/stream-stats.js';

export interface RequestMetricsOptions {
  monitor: Monitor;
}

export interface Measured {
  startedMs: number;
  /** The route's pattern: Fastify's routeOptions builds a new object at each read, so it is read once. */
  pattern: string | undefined;
  origin: Origin;
  errorKind: string | null;
  /** Ends its count among the requests in flight (the origin of venue calls made meanwhile). */
  end: (() => void) | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The plugin's measure of this request (null for one it does not measure): a field, not a WeakMap entry. */
    sjgateMeasured: Measured | null;
  }
}

const ERROR_KIND = /"error":"([A-Z_]{1,40})"/;

/** The area of the API a route belongs to, from its pattern. */
export function categoryOf(pattern: string | undefined): string {
  if (pattern === undefined) return 'unmatched';
  const path = pattern.slice(API_PREFIX.length);
  if (path.startsWith('/data/contracts')) return 'contracts';
  if (path.startsWith('/data/')) return 'market_data';
  const area = path.split('/')[1] ?? '';
  const areas: Record<string, string> = {
    order: 'orders',
    portfolio: 'portfolio',
    stream: 'streams',
    auth: 'auth',
    watchlist: 'watchlists',
    apps: 'apps',
    monitor: 'monitor',
    agent: 'agent',
    info: 'server',
    health: 'server',
  };
  return areas[area] ?? 'other';
}

/** Records one answered request of the API in the monitor: the plugin's onResponse and the fast lane call it. */
export function reportAnswered(
  monitor: Monitor,
  measured: Measured,
  method: string,
  status: number,
  durationUs: number,
): void {
  const { pattern } = measured;
  monitor.answered({
    startedMs: measured.startedMs,
    durationUs,
    origin: measured.origin,
    category: categoryOf(pattern),
    method,
    endpoint: pattern ?? '(unmatched)',
    status,
    errorKind: measured.errorKind,
  });
}

const API_PATHS = `${API_PREFIX}/`;
const isApi = (url: string) => url.startsWith(API_PATHS) || url === API_PREFIX;

export const requestMetricsPlugin = fp<RequestMetricsOptions>(
  async (app: FastifyInstance, { monitor }: RequestMetricsOptions) => {
    const { venueCalls } = monitor;
    // Every request gets the field in its shape from the start; entries of a WeakMap per request cost the garbage
    // collector more (ephemerons) on the hottest paths.
    app.decorateRequest('sjgateMeasured', null);
    app.addHook('onRequest', function measureRequest(request, reply, done) {
      if (!isApi(request.url)) return done();
      const origin = originOfActivity(request.headers['x-shioaji-activity'] as string | undefined);
      // An event stream lasts as long as its client: it is not counted in flight (nor measured as a request; the
      // monitor's streams show it). Any other request stops counting when answered, or at the latest when its
      // response closes: the response's 'close' comes when it is sent and when its connection closes first (a client
      // that gave up, a route that took the reply over and never reaches onResponse). `on`, not `once`: `end` may run
      // twice, and once's wrapper is two more objects per request.
      const pattern = request.routeOptions.url;
      const stream =
        (pattern?.startsWith(SSE_PATHS.data) ?? false) ||
        (request.headers.accept?.includes('text/event-stream') ?? false);
      const end = stream ? null : venueCalls.begin(origin);
      if (end) reply.raw.on('close', end);
      request.sjgateMeasured = { startedMs: monitor.now(), pattern, origin, errorKind: null, end };
      done();
    });
    app.addHook('onSend', function readErrorKind(request, reply, payload, done) {
      const entry = request.sjgateMeasured;
      if (entry && reply.statusCode >= 400 && typeof payload === 'string') {
        entry.errorKind = ERROR_KIND.exec(payload.slice(0, 200))?.[1] ?? null;
      }
      done(null, payload);
    });
    app.addHook('onResponse', function reportRequest(request, reply, done) {
      const entry = request.sjgateMeasured;
      if (entry) {
        entry.end?.();
        reportAnswered(monitor, entry, request.method, reply.statusCode, Math.round(reply.elapsedTime * 1000));
      }
      done();
    });
  },
  { name: 'request-metrics', fastify: '5.x' },
);
