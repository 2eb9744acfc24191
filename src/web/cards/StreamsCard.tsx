// Streams and subscriptions: who is attached to the SSE streams, and the quote subscriptions the gateway holds for
// every client (so unsubscribing here stops them for other programs too).

import { useEffect, useState } from 'react';
import { client, messageOf } from '../api';
import { integer } from '../format';
import { usePolling, useStreamState } from '../hooks';
import type { StreamState } from '../stream';
import { marketStream } from '../stream';
import { isRequestExchange, isSecurityType, type Subscription, type SubscriptionRequest } from '../types';
import { Card, ErrorLine } from './Card';

const PAGE_STREAM_STATES: Record<StreamState, string> = {
  connecting: 'connecting…',
  live: 'live',
  retrying: 'reconnecting…',
  stopped: 'stopped',
};

function subscriptionName(subscription: Subscription): string {
  if ('contract' in subscription) return subscription.contract.legs.map((leg) => leg.code).join('/');
  const odd = subscription.intraday_odd ? ' odd' : '';
  return `${subscription.code}${subscription.target_code ? ` (${subscription.target_code})` : ''}${odd}`;
}

function subscriptionKey(subscription: Subscription): string {
  return `${subscriptionName(subscription)}:${subscription.quote_type}`;
}

const QUOTE_TYPES: readonly string[] = ['Tick', 'BidAsk', 'Quote'] satisfies SubscriptionRequest['quote_type'][];
const isQuoteType = (type: string): type is SubscriptionRequest['quote_type'] => QUOTE_TYPES.includes(type);

/**
 * The unsubscribe body: the subscription as listed, in the request's own shape. Bars
 * and index analytics are ended by their own routes, not here.
 */
function unsubscribeBody(subscription: Subscription): SubscriptionRequest {
  const { quote_type, intraday_odd } = subscription;
  if (!isQuoteType(quote_type)) throw new Error(`a ${quote_type} subscription is not ended by /stream/unsubscribe`);
  if ('contract' in subscription) {
    const legs = subscription.contract.legs.map((leg) => ({ code: leg.code }));
    return { contract: { legs, combo_type: subscription.contract.combo_type }, quote_type };
  }
  const { security_type, exchange, code } = subscription;
  return {
    ...(isSecurityType(security_type) ? { security_type } : {}),
    ...(isRequestExchange(exchange) ? { exchange } : {}),
    code,
    quote_type,
    intraday_odd,
  };
}

/** `subscribedCount` changes when the page subscribed something: the list is fetched again at once. */
export function StreamsCard({ subscribedCount }: { subscribedCount: number }) {
  const status = usePolling(() => client.stream.status(), 5000);
  const list = usePolling(() => client.stream.subscriptions(), 5000);
  const pageStream = useStreamState();
  const [actionError, setActionError] = useState<string | null>(null);
  const reloadList = list.reload;
  const reloadStatus = status.reload;
  useEffect(() => {
    if (subscribedCount > 0) reloadList();
  }, [subscribedCount, reloadList]);
  // This page's own stream counts among the clients: show it as soon as it is connected.
  useEffect(() => {
    if (pageStream === 'live') reloadStatus();
  }, [pageStream, reloadStatus]);

  async function unsubscribe(subscription: Subscription) {
    try {
      const answer = await client.stream.unsubscribe(unsubscribeBody(subscription));
      setActionError(answer.success ? null : answer.message);
    } catch (error) {
      setActionError(messageOf(error));
    }
    list.reload();
  }

  const streams = Object.entries(status.data?.streams ?? {}).filter(([, clients]) => clients > 0);
  const subscriptions = list.data?.subscriptions ?? [];
  return (
    <Card id="streams" title="Streams and subscriptions" span={6}>
      <dl className="facts">
        <dt>This page</dt>
        <dd data-testid="streams-page" title={marketStream.problem ?? undefined}>
          <span className={`status ${pageStream === 'live' ? 'ok' : 'warn'}`}>{PAGE_STREAM_STATES[pageStream]}</span>
        </dd>
        <dt>SSE clients</dt>
        <dd data-testid="streams-active">
          {status.data ? integer(status.data.active_connections) : '…'}
          {streams.length > 0 ? (
            <span className="muted"> · {streams.map(([name, clients]) => `${name} ${clients}`).join(', ')}</span>
          ) : null}
        </dd>
        <dt>Dropped</dt>
        <dd>{status.data ? integer(status.data.dropped_clients) : '…'} slow clients</dd>
        <dt>Order reports</dt>
        <dd className="mono">{list.data ? list.data.trade_accounts.join(', ') || 'none' : '…'}</dd>
      </dl>
      <h3 className="subhead">
        Quote subscriptions{' '}
        <span className="muted" data-testid="subscriptions-count">
          {list.data ? `${list.data.count} / ${list.data.limit}` : ''}
        </span>
      </h3>
      <div className="scroll short">
        <table className="table">
          <thead>
            <tr>
              <th>Code</th>
              <th>Type</th>
              <th>Exchange</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {subscriptions.map((subscription) => (
              <tr key={subscriptionKey(subscription)} data-testid={`subscription-${subscriptionKey(subscription)}`}>
                <td className="mono">{subscriptionName(subscription)}</td>
                <td>{subscription.quote_type}</td>
                <td className="muted">{'exchange' in subscription ? subscription.exchange : 'TAIFEX'}</td>
                <td className="actions">
                  <button type="button" className="small" onClick={() => void unsubscribe(subscription)}>
                    Unsubscribe
                  </button>
                </td>
              </tr>
            ))}
            {list.data && subscriptions.length === 0 ? (
              <tr>
                <td colSpan={4} className="muted">
                  No subscriptions. Add codes to the market watch.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <ErrorLine message={actionError ?? status.error ?? list.error} />
    </Card>
  );
}
