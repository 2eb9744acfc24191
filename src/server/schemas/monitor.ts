// Schemas of the monitoring API (/api/v1/monitor): the common query, the answers, the settings and their PATCH.

import Type from 'typebox';
import { SORTS } from '../monitor/request-ring.js';
import { BOUNDS } from '../monitor/settings.js';
import { VIEWER_RENEW_SECONDS, VIEWER_TTL_SECONDS } from '../monitor/viewers.js';

export const WINDOWS = { '5m': 300_000, '15m': 900_000, '1h': 3_600_000, '6h': 21_600_000, '24h': 86_400_000 } as const;
export const QUERY_SOURCES = ['incoming', 'backend', 'gateway'] as const;
export const QUERY_ORIGINS = ['user', 'dashboard', 'background', 'all'] as const;
export const SUBSCRIPTION_TYPES = [
  'market_data',
  'trade_account',
  'Tick',
  'BidAsk',
  'Quote',
  'KBar',
  'CalculatedIndex',
  'IndexContribution',
  'IndustryContribution',
  'IndexComponents',
  'Scanner',
] as const;
export const MAX_SEARCH_BYTES = 256;

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Micros = Nullable(Type.Integer({ description: 'µs' }));

const windowFields = {
  source: Type.Optional(
    Type.Enum([...QUERY_SOURCES], {
      default: 'incoming',
      description:
        'incoming: requests clients made to sjgate; backend: calls sjgate made to its venue (the simulator or ' +
        "SinoPac's SDK); gateway: both together",
    }),
  ),
  origin: Type.Optional(
    Type.Enum([...QUERY_ORIGINS], {
      default: 'user',
      description:
        'user: ordinary clients; dashboard: requests with X-Shioaji-Activity: dashboard; background: ' +
        'X-Shioaji-Activity: background, and backend calls made outside any request; all: every origin',
    }),
  ),
  window: Type.Optional(
    Type.Enum(Object.keys(WINDOWS), { description: 'the last 5m, 15m (the default), 1h, 6h or 24h; or from and to' }),
  ),
  from: Type.Optional(
    Type.String({ maxLength: 40, description: 'ISO 8601 with a time zone, e.g. 2026-11-23T10:00:00+08:00; with to' }),
  ),
  to: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 with a time zone; after from, ≤ 24 h later' })),
  category: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[a-z_]+$',
      description: 'an area of the API (market_data, orders, ...) or a port of the venue',
    }),
  ),
  endpoint: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'a route pattern (/api/v1/data/contracts/:code), `METHOD pattern`, or a venue call (contracts.get)',
    }),
  ),
  sort: Type.Optional(
    Type.Enum([...SORTS], {
      description: 'newest, slowest or errors first; /metrics lists the busiest first when not given',
    }),
  ),
};

const page = (max: number) => ({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: max, default: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: 0 })),
});

export const WindowQuerySchema = Type.Object({ ...windowFields, ...page(1000) }, { additionalProperties: false });

const search = Type.Optional(
  Type.String({
    maxLength: MAX_SEARCH_BYTES,
    description: `a part of a code, topic or id; at most ${MAX_SEARCH_BYTES} bytes`,
  }),
);

export const SubscriptionsQuerySchema = Type.Object(
  {
    type: Type.Optional(Type.Enum([...SUBSCRIPTION_TYPES], { description: 'a kind, or a quote type' })),
    search,
    ...page(500),
  },
  { additionalProperties: false },
);

export const StreamsQuerySchema = Type.Object(
  {
    history: Type.Optional(Type.Boolean({ default: false, description: 'also the last closed connections' })),
    search,
    ...page(500),
  },
  { additionalProperties: false },
);

const WindowSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  from_ms: Type.Integer(),
  to_ms: Type.Integer(),
  source: Type.String(),
  origin: Type.String(),
});

const Quantiles = { p50_us: Micros, p90_us: Micros, p95_us: Micros, p99_us: Micros };

const TotalsSchema = Type.Object({
  requests: Type.Integer(),
  errors: Type.Integer(),
  error_rate: Type.Number(),
  per_second: Type.Number(),
  mean_us: Micros,
  max_us: Micros,
  ...Quantiles,
});

const CoverageSchema = Type.Object(
  {
    from_ms: Type.Integer({ description: 'the earliest instant of the window the metrics hold' }),
    to_ms: Type.Integer(),
    complete: Type.Boolean({ description: 'the whole window is held and captured' }),
    resolution_ms: Type.Integer({ description: 'the slots read: 5 s for the last hour, 1 min for the last day' }),
    since_ms: Type.Integer({ description: 'metrics start here (this start, or the saved metrics put back)' }),
    capturing: Type.Boolean({ description: 'capture.metrics' }),
  },
  { title: 'MonitorCoverage' },
);

const PersistenceSchema = Type.Object({
  enabled: Type.Boolean({ description: 'false when the monitor keeps nothing on disk' }),
  last_saved_ms: Nullable(Type.Integer()),
  persistence_error: Nullable(Type.String()),
});

export const MetricsResponseSchema = Type.Object(
  {
    window: WindowSchema,
    totals: TotalsSchema,
    matched: Type.Integer({ description: 'endpoints in the window' }),
    endpoints: Type.Array(
      Type.Object({
        source: Type.String(),
        category: Type.String(),
        method: Type.String({ description: 'the HTTP method; CALL for a venue call' }),
        endpoint: Type.String(),
        requests: Type.Integer(),
        errors: Type.Integer(),
        error_rate: Type.Number(),
        mean_us: Micros,
        max_us: Micros,
        ...Quantiles,
        last_seen_ms: Type.Integer(),
      }),
    ),
    series: Type.Object({
      bucket_ms: Type.Integer(),
      points: Type.Array(
        Type.Object({
          start_ms: Type.Integer(),
          requests: Type.Integer(),
          errors: Type.Integer(),
          p50_us: Micros,
          p95_us: Micros,
          p99_us: Micros,
        }),
        { maxItems: 600 },
      ),
    }),
    coverage: CoverageSchema,
    persistence: PersistenceSchema,
  },
  { title: 'MonitorMetrics' },
);

const RequestSummarySchema = Type.Object(
  {
    id: Type.Integer(),
    source: Type.String(),
    origin: Type.String(),
    category: Type.String(),
    method: Type.String(),
    endpoint: Type.String({ description: 'the route pattern, never the URL' }),
    started_ms: Type.Integer(),
    finished_ms: Type.Integer(),
    duration_us: Type.Integer(),
    status: Type.Integer(),
    outcome: Type.Enum(['ok', 'client_error', 'server_error']),
    error_kind: Nullable(Type.String()),
  },
  { title: 'MonitorRequestSummary' },
);

export const RequestsResponseSchema = Type.Object(
  {
    window: WindowSchema,
    report: Type.Object({
      capturing: Type.Boolean({ description: 'capture.requests: summaries are kept only while it is on' }),
      held: Type.Integer(),
      capacity: Type.Integer(),
      oldest_ms: Nullable(Type.Integer()),
      totals: TotalsSchema,
    }),
    matched: Type.Integer(),
    offset: Type.Integer(),
    limit: Type.Integer(),
    items: Type.Array(RequestSummarySchema),
    coverage: CoverageSchema,
  },
  { title: 'MonitorRequests' },
);

const SubscriptionItemSchema = Type.Object(
  {
    type: Type.Enum(['market_data', 'trade_account']),
    id: Type.String(),
    quote_type: Nullable(Type.String()),
    security_type: Nullable(Type.String()),
    exchange: Nullable(Type.String()),
    code: Nullable(Type.String()),
    target_code: Nullable(Type.String()),
    intraday_odd: Nullable(Type.Boolean()),
    topic: Nullable(Type.String({ description: 'the quote topic as the SDK names it' })),
  },
  { title: 'MonitorSubscription' },
);

export const SubscriptionsResponseSchema = Type.Object(
  {
    total: Type.Integer(),
    market_data: Type.Integer(),
    trade_accounts: Type.Integer(),
    by_type: Type.Record(Type.String(), Type.Integer()),
    matched: Type.Integer(),
    offset: Type.Integer(),
    limit: Type.Integer(),
    items: Type.Array(SubscriptionItemSchema),
    partial: Type.Boolean({ description: 'the snapshot was capped at 2,048 subscriptions' }),
    unavailable: Type.Array(Type.String(), { description: 'what could not be read' }),
  },
  { title: 'MonitorSubscriptions' },
);

export const StreamsResponseSchema = Type.Object(
  {
    total: Type.Integer(),
    matched: Type.Integer(),
    offset: Type.Integer(),
    limit: Type.Integer(),
    collecting: Type.Boolean({ description: 'per-topic rows are being counted' }),
    since: Nullable(Type.String({ description: 'when per-topic counting started' })),
    since_ms: Nullable(Type.Integer()),
    capture: Type.Union([Type.Boolean(), Type.Literal('auto')]),
    viewers: Type.Integer({ description: 'viewer sessions alive' }),
    items: Type.Array(
      Type.Object(
        {
          kind: Type.Enum(['connection', 'topic']),
          id: Type.String(),
          stream: Type.String(),
          origin: Nullable(Type.String()),
          open: Type.Boolean(),
          since_ms: Type.Integer(),
          last_message_ms: Nullable(Type.Integer()),
          messages: Type.Integer(),
          bytes: Type.Integer(),
          deliveries: Nullable(Type.Integer()),
          per_second: Type.Number(),
          unread_bytes: Nullable(Type.Integer()),
        },
        { title: 'MonitorStreamRow' },
      ),
    ),
  },
  { title: 'MonitorStreams' },
);

const bounded = (name: keyof typeof BOUNDS, description: string) =>
  Type.Integer({ ...BOUNDS[name], description: `${description}, ${BOUNDS[name].minimum} to ${BOUNDS[name].maximum}` });

const captureFields = {
  metrics: Type.Boolean({ description: 'count requests and backend calls (metrics)' }),
  requests: Type.Boolean({ description: 'keep a summary of each request (requests)' }),
  streams: Type.Union([Type.Boolean(), Type.Literal('auto')], {
    description: 'count stream events per topic: always, never, or "auto" while a viewer session is alive',
  }),
};
const storageFields = {
  flush_seconds: bounded('flush_seconds', 'seconds between saves of the metrics'),
  retention_days: bounded('retention_days', 'days saved metrics are kept (memory holds the last day)'),
  max_mb: bounded('max_mb', 'MiB the saved metrics may take'),
};

export const SettingsResponseSchema = Type.Object(
  {
    capture: Type.Object(captureFields),
    storage: Type.Object(storageFields),
    last_saved_ms: Nullable(Type.Integer()),
    persistence_error: Nullable(Type.String()),
  },
  { title: 'MonitorSettings' },
);

export const SettingsPatchSchema = Type.Object(
  {
    capture: Type.Optional(
      Type.Object(
        {
          metrics: Type.Optional(captureFields.metrics),
          requests: Type.Optional(captureFields.requests),
          streams: Type.Optional(captureFields.streams),
        },
        { additionalProperties: false },
      ),
    ),
    storage: Type.Optional(
      Type.Object(
        {
          flush_seconds: Type.Optional(storageFields.flush_seconds),
          retention_days: Type.Optional(storageFields.retention_days),
          max_mb: Type.Optional(storageFields.max_mb),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, title: 'MonitorSettingsPatch', description: 'any part of the settings' },
);

export const ViewerSessionSchema = Type.Object(
  {
    id: Type.String(),
    expires_in_seconds: Type.Integer({ description: `${VIEWER_TTL_SECONDS}` }),
    renew_after_seconds: Type.Integer({ description: `${VIEWER_RENEW_SECONDS}` }),
  },
  { title: 'MonitorViewerSession' },
);

export const ViewerReleasedSchema = Type.Object({ id: Type.String(), released: Type.Boolean() });

export const ViewerIdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
