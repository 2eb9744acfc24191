// The streaming services of one app: the hub fed by the broker's quotes, order reports and contract events, and
// the book of subscriptions, restored from its file at start.

import type { Broker } from '../../broker/port.js';
import type { RingLimits } from './frame-ring.js';
import { StreamHub } from './hub.js';
import { type RestoreReport, SubscriptionBook } from './subscriptions.js';

export interface StreamOptions {
  /** Where subscriptions are saved; null or omitted keeps them in memory. */
  subscriptionsFile?: string | null | undefined;
  /** Subscribe again at start to what the file holds (SJ_RESTORE_SUBSCRIPTIONS). */
  restore?: boolean | undefined;
  ring?: RingLimits | undefined;
  /** Bytes one client may leave unread (1 MB when omitted). */
  maxBufferedBytes?: number | undefined;
  /** Bytes all clients together may leave unread (64 MB when omitted). */
  maxQueuedBytes?: number | undefined;
  /** Clients on all SSE streams together (4,096 when omitted). */
  maxConnections?: number | undefined;
  heartbeatMs?: number | undefined;
}

export interface StreamServices {
  hub: StreamHub;
  subscriptions: SubscriptionBook;
  restored: RestoreReport | null;
  /** Stops listening to the broker. */
  close(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    streams: StreamServices;
  }
}

export function startStreams(broker: Broker, options: StreamOptions = {}): StreamServices {
  let subscriptions: SubscriptionBook | null = null;
  const hub = new StreamHub({
    orderEventsAfter: (seq, limit) => broker.orders.eventsAfter(seq, limit),
    delivers: (accountKey) => subscriptions?.tradeSubscribed(accountKey) ?? false,
    lastOrderSeq: broker.orders.lastEventSeq(),
    ring: options.ring,
    maxBufferedBytes: options.maxBufferedBytes,
    maxQueuedBytes: options.maxQueuedBytes,
    maxConnections: options.maxConnections,
    heartbeatMs: options.heartbeatMs,
  });
  subscriptions = new SubscriptionBook({
    quotes: broker.quotes,
    accounts: broker.accounts,
    file: options.subscriptionsFile ?? null,
    onSession: (event) => hub.publish('session', event),
  });
  const stops = [
    broker.quotes.onMarketEvent((event) => hub.publish(event.name, event.data)),
    broker.orders.onOrderEvent((event) => hub.publishOrderEvent(event)),
    broker.contracts.onContractEvent((event) => hub.publish('contract_event', event)),
  ];
  const restored = options.restore === false ? null : subscriptions.restore();
  return {
    hub,
    subscriptions,
    restored,
    close: () => {
      for (const stop of stops) stop();
    },
  };
}
