// Server: what the gateway is, how long it has been up, simulation or production, and its (simulated) clock.

import { useEffect, useState } from 'react';
import { client } from '../api';
import { duration, integer, modeName, wallDateTime } from '../format';
import { usePolling } from '../hooks';
import { simClock } from '../sim-clock';
import type { Health, ServerInfo } from '../types';
import { Card, ErrorLine } from './Card';

const CLOCK_MODES: Record<string, string> = {
  'always-open': 'always open',
  exchange: 'exchange hours',
};

function useSimulatedNow(): number | null {
  const [now, setNow] = useState(simClock.now);
  useEffect(() => {
    const tick = () => setNow(simClock.now());
    const timer = setInterval(tick, 1000);
    const stop = simClock.subscribe(tick);
    return () => {
      clearInterval(timer);
      stop();
    };
  }, []);
  return now;
}

export function ServerCard({ info }: { info: ServerInfo | null }) {
  const health = usePolling(() => client.server.health<Health>(), 5000);
  const now = useSimulatedNow();
  const healthy = health.data?.status === 'healthy' && health.error === null;
  const status = health.error ? 'unreachable' : (health.data?.status ?? '…');
  return (
    <Card
      id="server"
      title="Server"
      span={4}
      actions={
        <span className={`status ${healthy ? 'ok' : 'bad'}`} data-testid="server-health">
          {status}
        </span>
      }
    >
      <dl className="facts">
        <dt>Version</dt>
        <dd data-testid="server-version">{info ? (info.sjgate_version ?? info.version) : '…'}</dd>
        <dt>Uptime</dt>
        <dd data-testid="server-uptime">{health.data ? duration(health.data.uptime_seconds) : '…'}</dd>
        <dt>Mode</dt>
        <dd data-testid="server-mode">
          {info === null ? '…' : modeName(info)}
          {info?.sim_clock ? (
            <span className="muted"> · clock {CLOCK_MODES[info.sim_clock] ?? info.sim_clock}</span>
          ) : null}
        </dd>
        <dt>Market time</dt>
        <dd data-testid="server-time">{now === null ? '…' : `${wallDateTime(now)} TW`}</dd>
        <dt>Contracts</dt>
        <dd>{health.data ? integer(health.data.contract_count) : '…'}</dd>
      </dl>
      <ErrorLine message={health.error} />
    </Card>
  );
}
