export interface AgentHarness {
  /** whether protected calls need a capability now */
  enabled: boolean;
  /** SJ_AGENT_HARNESS */
  mode: 'off' | 'production' | 'all';
  capability_version: number;
  capability_header: string;
  digest_scheme: string;
  /** this daemon's audience, hex; new at every start */
  audience: string;
  max_ttl_seconds: number;
  /** how the secret was given: file, or none */
  bootstrap: string;
}

export interface MonitorCoverage {
  /** the earliest instant of the window the metrics hold */
  from_ms: number;
  to_ms: number;
  /** the whole window is held and captured */
  complete: boolean;
  /** the slots read: 5 s for the last hour, 1 min for the last day */
  resolution_ms: number;
  /** metrics start here (this start, or the saved metrics put back) */
  since_ms: number;
  /** capture.metrics */
  capturing: boolean;
}

export interface MonitorMetrics {
  window: {
    from: string;
    to: string;
    from_ms: number;
    to_ms: number;
    source: string;
    origin: string;
  };
  totals: {
    requests: number;
    errors: number;
    error_rate: number;
    per_second: number;
    /** µs */
    mean_us: number | null;
    /** µs */
    max_us: number | null;
    /** µs */
    p50_us: number | null;
    /** µs */
    p90_us: number | null;
    /** µs */
    p95_us: number | null;
    /** µs */
    p99_us: number | null;
  };
  /** endpoints in the window */
  matched: number;
  endpoints: {
    source: string;
    category: string;
    /** the HTTP method; CALL for a venue call */
    method: string;
    endpoint: string;
    requests: number;
    errors: number;
    error_rate: number;
    /** µs */
    mean_us: number | null;
    /** µs */
    max_us: number | null;
    /** µs */
    p50_us: number | null;
    /** µs */
    p90_us: number | null;
    /** µs */
    p95_us: number | null;
    /** µs */
    p99_us: number | null;
    last_seen_ms: number;
  }[];
  series: {
    bucket_ms: number;
    points: {
      start_ms: number;
      requests: number;
      errors: number;
      /** µs */
      p50_us: number | null;
      /** µs */
      p95_us: number | null;
      /** µs */
      p99_us: number | null;
    }[];
  };
  coverage: MonitorCoverage;
  persistence: {
    /** false when the monitor keeps nothing on disk */
    enabled: boolean;
    last_saved_ms: number | null;
    persistence_error: string | null;
  };
}

export interface MonitorRequestSummary {
  id: number;
  source: string;
  origin: string;
  category: string;
  method: string;
  /** the route pattern, never the URL */
  endpoint: string;
  started_ms: number;
  finished_ms: number;
  duration_us: number;
  status: number;
  outcome: 'ok' | 'client_error' | 'server_error';
  error_kind: string | null;
}

export interface MonitorRequests {
  window: {
    from: string;
    to: string;
    from_ms: number;
    to_ms: number;
    source: string;
    origin: string;
  };
  report: {
    /** capture.requests: summaries are kept only while it is on */
    capturing: boolean;
    held: number;
    capacity: number;
    oldest_ms: number | null;
    totals: {
      requests: number;
      errors: number;
      error_rate: number;
      per_second: number;
      /** µs */
      mean_us: number | null;
      /** µs */
      max_us: number | null;
      /** µs */
      p50_us: number | null;
      /** µs */
      p90_us: number | null;
      /** µs */
      p95_us: number | null;
      /** µs */
      p99_us: number | null;
    };
  };
  matched: number;
  offset: number;
  limit: number;
  items: MonitorRequestSummary[];
  coverage: MonitorCoverage;
}

export interface MonitorSubscription {
  type: 'market_data' | 'trade_account';
  id: string;
  quote_type: string | null;
  security_type: string | null;
  exchange: string | null;
  code: string | null;
  target_code: string | null;
  intraday_odd: boolean | null;
  /** the quote topic as the SDK names it */
  topic: string | null;
}

export interface MonitorSubscriptions {
  total: number;
  market_data: number;
  trade_accounts: number;
  by_type: Record<string, number>;
  matched: number;
  offset: number;
  limit: number;
  items: MonitorSubscription[];
  /** the snapshot was capped at 2,048 subscriptions */
  partial: boolean;
  /** what could not be read */
  unavailable: string[];
}

export interface MonitorStreamRow {
  kind: 'connection' | 'topic';
  id: string;
  stream: string;
  origin: string | null;
  open: boolean;
  since_ms: number;
  last_message_ms: number | null;
  messages: number;
  bytes: number;
  deliveries: number | null;
  per_second: number;
  unread_bytes: number | null;
}

export interface MonitorStreams {
  total: number;
  matched: number;
  offset: number;
  limit: number;
  /** per-topic rows are being counted */
  collecting: boolean;
  /** when per-topic counting started */
  since: string | null;
  since_ms: number | null;
  capture: boolean | 'auto';
  /** viewer sessions alive */
  viewers: number;
  items: MonitorStreamRow[];
}

export interface MonitorSettings {
  capture: {
    /** count requests and backend calls (metrics) */
    metrics: boolean;
    /** keep a summary of each request (requests) */
    requests: boolean;
    /** count stream events per topic: always, never, or "auto" while a viewer session is alive */
    streams: boolean | 'auto';
  };
  storage: {
    /** seconds between saves of the metrics, 1 to 86400 */
    flush_seconds: number;
    /** days saved metrics are kept (memory holds the last day), 1 to 90 */
    retention_days: number;
    /** MiB the saved metrics may take, 1 to 10240 */
    max_mb: number;
  };
  last_saved_ms: number | null;
  persistence_error: string | null;
}

/** any part of the settings */
export interface MonitorSettingsPatch {
  capture?: {
    /** count requests and backend calls (metrics) */
    metrics?: boolean;
    /** keep a summary of each request (requests) */
    requests?: boolean;
    /** count stream events per topic: always, never, or "auto" while a viewer session is alive */
    streams?: boolean | 'auto';
  };
  storage?: {
    /** seconds between saves of the metrics, 1 to 86400 */
    flush_seconds?: number;
    /** days saved metrics are kept (memory holds the last day), 1 to 90 */
    retention_days?: number;
    /** MiB the saved metrics may take, 1 to 10240 */
    max_mb?: number;
  };
}

export interface MonitorViewerSession {
  id: string;
  /** 15 */
  expires_in_seconds: number;
  /** 5 */
  renew_after_seconds: number;
}

export interface AgentHarnessPatch {
  enabled: boolean;
}

export interface MonitorViewerReleased {
  id: string;
  released: boolean;
}
