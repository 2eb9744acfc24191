// Monitoring (/api/v1/monitor): the gateway's own metrics of requests and backend calls, the latest request
// summaries, the logical subscriptions, the physical stream connections and topics, the settings, and the viewer
// sessions that turn per-topic stream counting on. Reads only: what is measured is collected by
// plugins/request-metrics.ts and kept by monitor/. docs/monitoring.md says what each number means.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { Static } from 'typebox';
import { MONITOR_ROUTES } from '../../contract/paths.js';
import { DomainError } from '../../domain/errors.js';
import { isComboSubscription } from '../../domain/quotes.js';
import { scannerKey } from '../../domain/scanner-rules.js';
import { topicOf } from '../../gateway/subscriptions.js';
import type { Monitor } from '../monitor/monitor.js';
import { REQUEST_RING_SIZE, type Sort } from '../monitor/request-ring.js';
import { type MetricFilter, ORIGINS, type Origin, type Source } from '../monitor/series.js';
import { MAX_VIEWERS, VIEWER_TTL_SECONDS } from '../monitor/viewers.js';
import { errorResponses } from '../schemas/common.js';
import {
  MAX_SEARCH_BYTES,
  MetricsResponseSchema,
  RequestsResponseSchema,
  SettingsPatchSchema,
  SettingsResponseSchema,
  StreamsQuerySchema,
  StreamsResponseSchema,
  SubscriptionsQuerySchema,
  SubscriptionsResponseSchema,
  ViewerIdParam,
  ViewerReleasedSchema,
  ViewerSessionSchema,
  WINDOWS,
  WindowQuerySchema,
} from '../schemas/monitor.js';
import type { StreamServices } from '../sse/services.js';

const tags = ['monitor'];
/** The most subscriptions one snapshot reads. */
export const SUBSCRIPTION_SNAPSHOT_CAP = 2_048;
/** A time with a zone: 2026-11-23T10:00:00+08:00, ...Z, with optional seconds and fraction. */
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

type WindowQuery = Static<typeof WindowQuerySchema>;

/** A 422 about one query parameter, in the envelope's shape of a validation failure. */
function invalidQuery(field: string, message: string): DomainError {
  return new DomainError('VALIDATION_FAILED', `invalid request (1 problem): query.${field} ${message}`, [
    { loc: ['query', field], msg: message, type: 'value_error' },
  ]);
}

function instantOf(field: 'from' | 'to', value: string): number {
  const at = ISO_WITH_ZONE.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) {
    throw invalidQuery(
      field,
      `must be an ISO 8601 time with a time zone, e.g. 2026-11-23T10:00:00+08:00 or 2026-11-23T02:00:00Z (got '${value.slice(0, 40)}')`,
    );
  }
  return at;
}

/** The window [from, to) and the filter a query asks for. */
function windowOf(query: WindowQuery, now: number) {
  if (query.window !== undefined && (query.from !== undefined || query.to !== undefined)) {
    throw invalidQuery('window', 'give either window or from and to, not both');
  }
  let from: number;
  let to: number;
  if (query.from !== undefined || query.to !== undefined) {
    if (query.from === undefined) throw invalidQuery('from', 'is required with to');
    if (query.to === undefined) throw invalidQuery('to', 'is required with from');
    from = instantOf('from', query.from);
    to = instantOf('to', query.to);
    if (to <= from) throw invalidQuery('to', 'must be after from');
    if (to - from > WINDOWS['24h']) throw invalidQuery('to', 'must be at most 24 h after from (the metrics kept)');
  } else {
    to = now;
    from = now - WINDOWS[(query.window ?? '15m') as keyof typeof WINDOWS];
  }
  const source = query.source ?? 'incoming';
  const origin = query.origin ?? 'user';
  const filter: MetricFilter = {
    sources: new Set<Source>(source === 'gateway' ? ['incoming', 'backend'] : [source]),
    origins: new Set<Origin>(origin === 'all' ? ORIGINS : [origin]),
    category: query.category,
    endpoint: query.endpoint,
  };
  const window = {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    from_ms: from,
    to_ms: to,
    source,
    origin,
  };
  return { from, to, filter, window };
}

function searchOf(search: string | undefined): string | undefined {
  if (search === undefined || search === '') return undefined;
  if (Buffer.byteLength(search) > MAX_SEARCH_BYTES) {
    throw invalidQuery('search', `must be at most ${MAX_SEARCH_BYTES} bytes (UTF-8)`);
  }
  return search.toLowerCase();
}

export function monitorRoutes(monitor: Monitor, { subscriptions }: StreamServices): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    const coverageOf = (from: number, to: number, retainedFrom: number, resolution: number) => {
      const now = monitor.now();
      const capturing = monitor.storage.current.capture.metrics;
      const coveredFrom = Math.max(from, retainedFrom, monitor.since);
      return {
        from_ms: Math.min(coveredFrom, to),
        to_ms: Math.min(to, now),
        complete: capturing && coveredFrom <= from,
        resolution_ms: resolution,
        since_ms: monitor.since,
        capturing,
      };
    };

    app.get(
      MONITOR_ROUTES.metrics,
      {
        schema: {
          tags,
          summary: 'Counts, errors and latency quantiles per endpoint, and their time series',
          description:
            'Over a window (the last 15 minutes unless window or from and to say otherwise), of one source and ' +
            'origin. Latencies in µs from log-linear histograms (within 12.5 %). The series has at most 600 ' +
            'points; coverage says what part of the window the metrics hold. sort: newest (last seen), slowest ' +
            '(p95), errors; without it, busiest first.',
          querystring: WindowQuerySchema,
          response: { 200: MetricsResponseSchema, ...errorResponses(422) },
        },
      },
      async ({ query }) => {
        const now = monitor.now();
        const { from, to, filter, window } = windowOf(query, now);
        const answer = monitor.series.query(from, to, now, filter);
        const order: Record<Sort | 'busiest', (a: Row, b: Row) => number> = {
          busiest: (a, b) => b.requests - a.requests,
          newest: (a, b) => b.last_seen_ms - a.last_seen_ms || b.requests - a.requests,
          slowest: (a, b) => (b.p95_us ?? 0) - (a.p95_us ?? 0),
          errors: (a, b) => b.errors - a.errors || b.requests - a.requests,
        };
        type Row = (typeof answer.endpoints)[number];
        const endpoints = answer.endpoints.sort(order[query.sort ?? 'busiest']);
        const offset = query.offset ?? 0;
        return {
          window,
          totals: answer.totals,
          matched: endpoints.length,
          endpoints: endpoints.slice(offset, offset + (query.limit ?? 100)),
          series: answer.series,
          coverage: coverageOf(from, to, answer.retained_from_ms, answer.resolution_ms),
          persistence: {
            enabled: monitor.storage.files !== null,
            last_saved_ms: monitor.storage.lastSavedMs,
            persistence_error: monitor.storage.persistenceError,
          },
        };
      },
    );

    app.get(
      MONITOR_ROUTES.requests,
      {
        schema: {
          tags,
          summary: 'A report and the summaries of the latest requests',
          description:
            `Each summary: method, route pattern, source, origin, times, duration, status and outcome; never a ` +
            `URL, query string, header or body. Summaries are kept only while capture.requests is on (PATCH ` +
            `settings), the latest ${REQUEST_RING_SIZE}; the report's totals come from the metrics and are ` +
            'always there.',
          querystring: WindowQuerySchema,
          response: { 200: RequestsResponseSchema, ...errorResponses(422) },
        },
      },
      async ({ query }) => {
        const now = monitor.now();
        const { from, to, filter, window } = windowOf(query, now);
        const metrics = monitor.series.query(from, to, now, filter);
        const offset = query.offset ?? 0;
        const limit = query.limit ?? 100;
        const page = monitor.requests.query(from, to, filter, query.sort ?? 'newest', offset, limit);
        return {
          window,
          report: {
            capturing: monitor.storage.current.capture.requests,
            held: monitor.requests.held,
            capacity: monitor.requests.size,
            oldest_ms: page.oldest_ms,
            totals: metrics.totals,
          },
          matched: page.matched,
          offset,
          limit,
          items: page.items,
          coverage: coverageOf(from, to, metrics.retained_from_ms, metrics.resolution_ms),
        };
      },
    );

    app.get(
      MONITOR_ROUTES.subscriptions,
      {
        schema: {
          tags,
          summary: 'The logical subscriptions: quotes and accounts with order reports',
          description:
            `What the gateway holds for every client, from a snapshot of at most ${SUBSCRIPTION_SNAPSHOT_CAP} ` +
            '(partial says when more were held). type filters by kind (market_data, trade_account) or quote type; ' +
            'search by a part of a code, topic or account.',
          querystring: SubscriptionsQuerySchema,
          response: { 200: SubscriptionsResponseSchema, ...errorResponses(422) },
        },
      },
      async ({ query }) => {
        const search = searchOf(query.search);
        const quotes = subscriptions.list().map((subscription) => {
          const topic = topicOf(subscription);
          if (isComboSubscription(subscription)) {
            const code = subscription.contract.legs.map((leg) => leg.code).join('/');
            return item('market_data', topic, subscription.quote_type, 'FOP', 'TAIFEX', code, null, false, topic);
          }
          const { security_type, exchange, code, target_code, intraday_odd, quote_type } = subscription;
          return item(
            'market_data',
            topic,
            quote_type,
            security_type,
            exchange,
            code,
            target_code,
            intraday_odd,
            topic,
          );
        });
        // Each (scanner, exchange) is one of the 200 too: a market_data row of quote_type Scanner, coded by its rule.
        const scanners = subscriptions
          .listScanners()
          .map((scanner) =>
            item(
              'market_data',
              scannerKey(scanner),
              'Scanner',
              'STK',
              scanner.exchange,
              scanner.scanner,
              null,
              false,
              null,
            ),
          );
        const accounts = subscriptions
          .tradeAccountKeys()
          .map((key) => item('trade_account', key, null, null, null, null, null, null, null));
        const all = [...quotes, ...scanners, ...accounts];
        const snapshot = all.slice(0, SUBSCRIPTION_SNAPSHOT_CAP);
        const byType: Record<string, number> = {};
        for (const row of snapshot) {
          const type = row.quote_type ?? 'trade_account';
          byType[type] = (byType[type] ?? 0) + 1;
        }
        const matched = snapshot.filter(
          (row) =>
            (query.type === undefined || row.type === query.type || row.quote_type === query.type) &&
            (search === undefined ||
              [row.id, row.code, row.target_code].some((text) => text?.toLowerCase().includes(search))),
        );
        const offset = query.offset ?? 0;
        const limit = query.limit ?? 100;
        return {
          total: all.length,
          market_data: quotes.length + scanners.length,
          trade_accounts: accounts.length,
          by_type: byType,
          matched: matched.length,
          offset,
          limit,
          items: matched.slice(offset, offset + limit),
          partial: all.length > SUBSCRIPTION_SNAPSHOT_CAP,
          unavailable: [],
        };
      },
    );

    app.get(
      MONITOR_ROUTES.streams,
      {
        schema: {
          tags,
          summary: 'The SSE connections and the topics they carry',
          description:
            'One row per open connection (stream, origin, messages and bytes sent, rate, bytes unread) and, while ' +
            'per-topic counting runs (collecting), one per topic (event family and code) with the events ' +
            'published and copies delivered. capture.streams "auto" counts only while a viewer session is alive ' +
            '(POST streams/sessions). history=true adds the last 256 closed connections.',
          querystring: StreamsQuerySchema,
          response: { 200: StreamsResponseSchema, ...errorResponses(422) },
        },
      },
      async ({ query }) => {
        monitor.viewers.sweep();
        const search = searchOf(query.search);
        const rows = monitor.streams.rows(query.history ?? false);
        const matched =
          search === undefined ? rows : rows.filter((row) => `${row.id}\n${row.stream}`.toLowerCase().includes(search));
        const offset = query.offset ?? 0;
        const limit = query.limit ?? 100;
        const since = monitor.streams.since;
        return {
          total: rows.length,
          matched: matched.length,
          offset,
          limit,
          collecting: monitor.streams.collecting,
          since: since === null ? null : new Date(since).toISOString(),
          since_ms: since,
          capture: monitor.storage.current.capture.streams,
          viewers: monitor.viewers.alive,
          items: matched.slice(offset, offset + limit),
        };
      },
    );

    const settingsAnswer = () => ({
      ...monitor.storage.current,
      last_saved_ms: monitor.storage.lastSavedMs,
      persistence_error: monitor.storage.persistenceError,
    });

    app.get(
      MONITOR_ROUTES.settings,
      {
        schema: {
          tags,
          summary: "The monitor's settings, and whether they and the metrics could be saved",
          response: { 200: SettingsResponseSchema },
        },
      },
      async () => settingsAnswer(),
    );

    app.patch(
      MONITOR_ROUTES.settings,
      {
        schema: {
          tags,
          summary: "Change any part of the monitor's settings",
          description:
            'A deep-partial body: what it leaves out stays. Saved in the data home and kept across restarts; ' +
            'persistence_error says when they could not be saved. An unknown field or a value out of its ' +
            'bounds is a 422 and changes nothing.',
          body: SettingsPatchSchema,
          response: { 200: SettingsResponseSchema, ...errorResponses(400, 415, 422) },
        },
      },
      async ({ body }) => {
        monitor.update(body);
        return settingsAnswer();
      },
    );

    app.post(
      MONITOR_ROUTES.streamSessions,
      {
        schema: {
          tags,
          summary: 'Open a stream viewer session',
          description:
            `While one is alive, per-topic stream counting runs (capture.streams "auto"). Renew it (PUT) every ` +
            `renew_after_seconds; one not renewed for ${VIEWER_TTL_SECONDS} s expires. At most ${MAX_VIEWERS} ` +
            '(429 beyond, with Retry-After).',
          response: { 200: ViewerSessionSchema, ...errorResponses(429) },
        },
      },
      async (_request, reply) => {
        try {
          return monitor.viewers.open();
        } catch (error) {
          reply.header('retry-after', String(VIEWER_TTL_SECONDS));
          throw error;
        }
      },
    );

    app.put(
      MONITOR_ROUTES.streamSession,
      {
        schema: {
          tags,
          summary: 'Renew a stream viewer session',
          description: 'A session that expired or was released is a 404: open a new one.',
          params: ViewerIdParam,
          response: { 200: ViewerSessionSchema, ...errorResponses(404, 422) },
        },
      },
      async ({ params }) => monitor.viewers.renew(params.id),
    );

    app.delete(
      MONITOR_ROUTES.streamSession,
      {
        schema: {
          tags,
          summary: 'Release a stream viewer session',
          params: ViewerIdParam,
          response: { 200: ViewerReleasedSchema, ...errorResponses(404, 422) },
        },
      },
      async ({ params }) => monitor.viewers.release(params.id),
    );
  };
}

function item(
  type: 'market_data' | 'trade_account',
  id: string,
  quote_type: string | null,
  security_type: string | null,
  exchange: string | null,
  code: string | null,
  target_code: string | null,
  intraday_odd: boolean | null,
  topic: string | null,
) {
  return { type, id, quote_type, security_type, exchange, code, target_code, intraday_odd, topic };
}
