// API usage: the day's metered query traffic against its limit, and the connections the gateway counts.

import { client } from '../api';
import { bytes, integer } from '../format';
import { usePolling } from '../hooks';
import { Card, ErrorLine } from './Card';

export function UsageCard() {
  const usage = usePolling(() => client.auth.usage(), 5000);
  const data = usage.data;
  const share = data && data.limit_bytes > 0 ? Math.min(1, data.bytes / data.limit_bytes) : 0;
  const level = share > 0.9 ? 'bad' : share > 0.7 ? 'warn' : 'ok';
  return (
    <Card id="usage" title="API usage" span={4}>
      <div className="usage-figure" data-testid="usage-bytes">
        <strong>{data ? bytes(data.bytes) : '…'}</strong>
        <span className="muted"> of {data ? bytes(data.limit_bytes) : '…'} today</span>
      </div>
      <div className={`bar ${level}`} aria-hidden="true" data-testid="usage-bar">
        <span style={{ width: `${(share * 100).toFixed(2)}%` }} />
      </div>
      <dl className="facts">
        <dt>Used</dt>
        <dd>{data ? `${(share * 100).toFixed(1)}%` : '…'}</dd>
        <dt>Remaining</dt>
        <dd>{data ? bytes(data.remaining_bytes) : '…'}</dd>
        <dt>Connections</dt>
        <dd data-testid="usage-connections">{data ? integer(data.connections) : '…'}</dd>
      </dl>
      <p className="hint">Ticks, kbars and snapshots count toward the daily limit; streaming does not.</p>
      <ErrorLine message={usage.error} />
    </Card>
  );
}
