// The monitor of one app: the metrics of requests and backend calls, the latest request summaries, the stream
// statistics and the viewer sessions that turn them on, under the settings kept in the data home. The plugin
// (plugins/request-metrics.ts) feeds it; routes/monitor.ts reads it.

import type { ErrorKind } from '../../domain/errors.js';
import { type VenueCall, VenueCalls } from '../../gateway/venue-calls.js';
import { STATUS_OF_KIND } from '../plugins/errors.js';
import type { StreamHub } from '../sse/hub.js';
import { outcomeOf, RequestRing } from './request-ring.js';
import { MetricSeries, type Observation, type Origin, type Source } from './series.js';
import { type MonitorFiles, MonitorStorage, type SettingsPatch } from './settings.js';
import { originOfActivity, StreamStats } from './stream-stats.js';
import { ViewerSessions } from './viewers.js';

export interface MonitorOptions {
  /** Where settings and metrics are kept; in memory only when null. */
  files: MonitorFiles | null;
  /** Epoch ms; the wall clock unless a test gives its own. */
  now?: (() => number) | undefined;
  /** Whether timers run (the viewers' sweep, the periodic save); tests drive them by hand. */
  timers?: boolean | undefined;
  /** Where the gateway measures its calls to the venue (GatewayOptions.venueCalls); none are counted without. */
  venueCalls?: VenueCalls | undefined;
}

/** What the plugin reports of an answered request. */
export interface AnsweredRequest {
  startedMs: number;
  durationUs: number;
  origin: Origin;
  category: string;
  method: string;
  endpoint: string;
  status: number;
  errorKind: string | null;
}

export class Monitor {
  readonly now: () => number;
  readonly series = new MetricSeries();
  readonly requests = new RequestRing();
  readonly storage: MonitorStorage;
  readonly viewers: ViewerSessions;
  readonly streams: StreamStats;
  /** Epoch ms the metrics start from: this start, or the earliest saved minute put back. */
  readonly since: number;
  private readonly timers: NodeJS.Timeout[] = [];
  private flushTimer: NodeJS.Timeout | undefined;

  /** The gateway's calls to the venue, and the requests in flight that give them their origin. */
  readonly venueCalls: VenueCalls;

  constructor(
    hub: StreamHub,
    private readonly options: MonitorOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.venueCalls = options.venueCalls ?? new VenueCalls();
    this.storage = new MonitorStorage(options.files, this.now);
    this.viewers = new ViewerSessions(this.now);
    this.streams = new StreamStats(hub, this.now);
    const start = this.now();
    const earliest = this.series.load(this.storage.readMetrics(), start);
    this.since = earliest === null ? start : Math.min(earliest, start);
    this.viewers.onChange(() => this.applyStreamCapture());
    this.applySettings();
    if (options.timers !== false) {
      const sweep = setInterval(() => this.viewers.sweep(), 1000);
      sweep.unref();
      this.timers.push(sweep);
    }
  }

  update(patch: SettingsPatch) {
    const settings = this.storage.update(patch);
    this.applySettings();
    return settings;
  }

  /** Records an answered request: always in the metrics (when captured), and as a summary when requests are. */
  answered(request: AnsweredRequest, source: Source = 'incoming'): void {
    const { capture } = this.storage.current;
    const error = request.status >= 400;
    if (capture.metrics) this.series.add(observationOf(request, source, error));
    if (capture.requests) {
      this.requests.add({
        source,
        origin: request.origin,
        category: request.category,
        method: request.method,
        endpoint: request.endpoint,
        started_ms: request.startedMs,
        duration_us: request.durationUs,
        status: request.status,
        outcome: outcomeOf(request.status),
        error_kind: request.errorKind,
      });
    }
  }

  /** Writes the metrics of the last day now (also every flush_seconds, and at close). */
  flush(): void {
    if (this.options.files) this.storage.writeMetrics(this.series.save(this.now()));
  }

  close(): void {
    for (const timer of this.timers) clearInterval(timer);
    clearInterval(this.flushTimer);
    this.venueCalls.listen(null);
    this.streams.close();
    this.flush();
  }

  private applySettings(): void {
    const { capture, storage } = this.storage.current;
    this.venueCalls.listen(capture.metrics || capture.requests ? (call) => this.calledVenue(call) : null);
    this.applyStreamCapture();
    clearInterval(this.flushTimer);
    if (this.options.timers !== false && this.options.files) {
      this.flushTimer = setInterval(() => this.flush(), storage.flush_seconds * 1000);
      this.flushTimer.unref();
    }
  }

  private applyStreamCapture(): void {
    const { streams } = this.storage.current.capture;
    this.streams.collect(streams === 'auto' ? this.viewers.alive > 0 : streams);
  }

  private calledVenue(call: VenueCall): void {
    const finished = this.now();
    const status = call.failure === null ? 200 : (STATUS_OF_KIND[call.failure as ErrorKind] ?? 500);
    this.answered(
      {
        startedMs: finished - Math.round(call.durationUs / 1000),
        durationUs: call.durationUs,
        // Several origins in flight at once: the call is counted as the user's (see docs/monitoring.md).
        origin: call.tag === null ? 'background' : call.tag === 'mixed' ? 'user' : originOfActivity(call.tag),
        category: call.port,
        method: 'CALL',
        endpoint: call.endpoint,
        status,
        errorKind: call.failure,
      },
      'backend',
    );
  }
}

function observationOf(request: AnsweredRequest, source: Observation['source'], error: boolean): Observation {
  return {
    at: request.startedMs,
    source,
    origin: request.origin,
    category: request.category,
    method: request.method,
    endpoint: request.endpoint,
    durationUs: request.durationUs,
    error,
  };
}
