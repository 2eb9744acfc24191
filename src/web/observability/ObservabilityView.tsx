// The observability view: the gateway's own traffic from /api/v1/monitor. Request rates and latency quantiles over a
// window, errors by endpoint, the subscriptions with a search, and the live streams (counted per topic only while
// this view holds a viewer session). Its requests carry X-Shioaji-Activity: dashboard, so they are not counted as
// the user's traffic unless asked for (origin).

import { useEffect, useState } from 'react';
import { client } from '../api';
import { Card, EmptyRow, ErrorLine } from '../cards/Card';
import { integer } from '../format';
import { usePolling } from '../hooks';
import { LiveStreamsCard } from './LiveStreamsCard';
import { latency, percent } from './monitor-api';
import { LatencyLines, RequestBars } from './SeriesChart';
import { SubscriptionsCard } from './SubscriptionsCard';

const WINDOWS = ['5m', '15m', '1h', '6h', '24h'] as const;
const ORIGINS = [
  ['user', 'Users'],
  ['dashboard', 'Dashboard'],
  ['all', 'All'],
] as const;
const SOURCES = [
  ['incoming', 'Incoming'],
  ['backend', 'Backend'],
  ['gateway', 'Both'],
] as const;

function Segmented<T extends string>({
  label,
  value,
  choices,
  onChange,
  testId,
}: {
  label: string;
  value: T;
  choices: readonly (readonly [T, string])[];
  onChange: (value: T) => void;
  testId: string;
}) {
  return (
    <fieldset className="segmented compact" aria-label={label} data-testid={testId}>
      {choices.map(([choice, name]) => (
        <button key={choice} type="button" aria-pressed={value === choice} onClick={() => onChange(choice)}>
          {name}
        </button>
      ))}
    </fieldset>
  );
}

export function ObservabilityView() {
  const [span, setSpan] = useState<(typeof WINDOWS)[number]>('15m');
  const [origin, setOrigin] = useState<(typeof ORIGINS)[number][0]>('user');
  const [source, setSource] = useState<(typeof SOURCES)[number][0]>('incoming');
  const choice = `${span} ${origin} ${source}`;
  const metrics = usePolling(() => client.monitor.metrics({ window: span, origin, source, limit: 1000 }), 5000);
  const data = metrics.data;
  const reload = metrics.reload;
  // A new choice is shown at once, not at the next poll.
  useEffect(() => {
    if (choice) reload();
  }, [choice, reload]);
  const byErrors = [...(data?.endpoints ?? [])].sort((a, b) => b.errors - a.errors || b.requests - a.requests);
  return (
    <main className="grid" data-testid="observability">
      <div className="span-12 toolbar">
        <Segmented
          label="Window"
          value={span}
          choices={WINDOWS.map((w) => [w, w] as const)}
          onChange={setSpan}
          testId="obs-window"
        />
        <Segmented label="Origin" value={origin} choices={ORIGINS} onChange={setOrigin} testId="obs-origin" />
        <Segmented label="Source" value={source} choices={SOURCES} onChange={setSource} testId="obs-source" />
        {data && !data.coverage.complete ? (
          <span className="muted" data-testid="obs-coverage">
            {data.coverage.capturing
              ? `metrics since ${new Date(data.coverage.from_ms).toLocaleTimeString()}`
              : 'metrics capture is off'}
          </span>
        ) : null}
      </div>
      <Card id="obs-rates" title="Request rate" span={6}>
        <dl className="facts">
          <dt>Requests</dt>
          <dd data-testid="obs-requests">{data ? integer(data.totals.requests) : '…'}</dd>
          <dt>Per second</dt>
          <dd data-testid="obs-rate">{data ? data.totals.per_second.toFixed(2) : '…'}</dd>
          <dt>Errors</dt>
          <dd data-testid="obs-errors">
            {data ? `${integer(data.totals.errors)} (${percent(data.totals.error_rate)})` : '…'}
          </dd>
        </dl>
        <RequestBars points={data?.series.points ?? []} testId="obs-rate-chart" />
        <p className="hint">
          {data ? `One bar per ${data.series.bucket_ms / 1000} s; errors in red.` : ''}
          {data?.persistence.persistence_error ? ` Not saved: ${data.persistence.persistence_error}` : ''}
        </p>
      </Card>
      <Card id="obs-latency" title="Latency" span={6}>
        <dl className="facts">
          <dt>p50</dt>
          <dd data-testid="obs-p50">{data ? latency(data.totals.p50_us) : '…'}</dd>
          <dt>p95</dt>
          <dd data-testid="obs-p95">{data ? latency(data.totals.p95_us) : '…'}</dd>
          <dt>p99</dt>
          <dd data-testid="obs-p99">{data ? latency(data.totals.p99_us) : '…'}</dd>
        </dl>
        <LatencyLines points={data?.series.points ?? []} testId="obs-latency-chart" />
        <p className="hint">
          <span className="legend line-p50">p50</span> <span className="legend line-p95">p95</span>{' '}
          <span className="legend line-p99">p99</span>, from the time to answer each request.
        </p>
      </Card>
      <Card id="obs-endpoints" title="Endpoints by errors" span={12}>
        <div className="scroll">
          <table className="table" data-testid="obs-endpoints-table">
            <thead>
              <tr>
                <th>Endpoint</th>
                <th>Area</th>
                <th className="num">Requests</th>
                <th className="num">Errors</th>
                <th className="num">Error rate</th>
                <th className="num">p50</th>
                <th className="num">p95</th>
                <th className="num">p99</th>
              </tr>
            </thead>
            <tbody>
              {byErrors.map((row) => (
                <tr
                  key={`${row.source} ${row.method} ${row.endpoint}`}
                  data-testid={`obs-endpoint-${row.method} ${row.endpoint}`}
                >
                  <td className="mono">
                    {row.method} {row.endpoint}
                  </td>
                  <td className="muted">{row.category}</td>
                  <td className="num">{integer(row.requests)}</td>
                  <td className={`num ${row.errors > 0 ? 'up' : ''}`}>{integer(row.errors)}</td>
                  <td className="num">{percent(row.error_rate)}</td>
                  <td className="num">{latency(row.p50_us)}</td>
                  <td className="num">{latency(row.p95_us)}</td>
                  <td className="num">{latency(row.p99_us)}</td>
                </tr>
              ))}
              {data && byErrors.length === 0 ? <EmptyRow columns={8}>No requests in this window.</EmptyRow> : null}
            </tbody>
          </table>
        </div>
        <ErrorLine message={metrics.error} />
      </Card>
      <SubscriptionsCard />
      <LiveStreamsCard />
    </main>
  );
}
