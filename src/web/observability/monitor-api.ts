// The monitoring API as the observability view reads it: the answers' wire types under the names the view uses, and
// the stream viewer session the view holds while it is open, renewed as the gateway asks and released when the view closes.

import { useEffect, useState } from 'react';
import { ApiError, client } from '../api';
import type {
  MonitorMetrics,
  MonitorStreamRow,
  MonitorStreams,
  MonitorSubscription,
  MonitorSubscriptions,
  MonitorViewerSession,
} from '../types';

type Micros = number | null;

export type Metrics = MonitorMetrics;
export type EndpointRow = MonitorMetrics['endpoints'][number];
export type Quantiles = Pick<EndpointRow, 'p50_us' | 'p95_us' | 'p99_us'>;
export type StreamRow = MonitorStreamRow;
export type { MonitorStreams, MonitorSubscription, MonitorSubscriptions };

/** Latency in µs as text: µs below 1 ms, ms below 10 s. */
export function latency(us: Micros): string {
  if (us === null) return '—';
  if (us < 1000) return `${us} µs`;
  if (us < 10_000_000) return `${(us / 1000).toFixed(us < 10_000 ? 2 : 1)} ms`;
  return `${(us / 1_000_000).toFixed(1)} s`;
}

export const percent = (fraction: number): string =>
  `${(fraction * 100).toFixed(fraction > 0 && fraction < 0.01 ? 2 : 1)}%`;

/**
 * Holds a stream viewer session while the component is mounted: opens it, renews it every renew_after_seconds (a new
 * one when the gateway forgot it), and releases it when the component goes or the page is closed. Returns its id,
 * and an error message when none could be held.
 */
export function useViewerSession(): { id: string | null; error: string | null } {
  const [id, setId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current: string | null = null;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = (seconds: number, then: () => Promise<void>) => {
      if (!stopped) timer = setTimeout(() => void then(), seconds * 1000);
    };
    const hold = (session: MonitorViewerSession) => {
      current = session.id;
      setId(session.id);
      setError(null);
      schedule(session.renew_after_seconds, renew);
    };
    const open = async (): Promise<void> => {
      try {
        hold(await client.monitor.openSession());
      } catch (failure) {
        setError(failure instanceof Error ? failure.message : String(failure));
        schedule(5, open);
      }
    };
    const renew = async (): Promise<void> => {
      if (current === null) return open();
      try {
        hold(await client.monitor.renewSession(current));
      } catch (failure) {
        // Expired (the tab slept): open a new one. Anything else: try again shortly.
        if (failure instanceof ApiError && failure.status === 404) return open();
        schedule(5, renew);
      }
    };
    const release = () => {
      if (current === null) return;
      // keepalive: the request outlives the page being closed.
      void client.monitor.closeSession(current, { keepalive: true }).catch(() => undefined);
      current = null;
    };
    void open();
    window.addEventListener('pagehide', release);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('pagehide', release);
      release();
    };
  }, []);
  return { id, error };
}
