// The streaming services of one app: the hub fed by the broker's quotes, order reports and contract events, and
// the book of subscriptions, restored from its file at start.

import type { Gateway } from '../../gateway/gateway.js';
import { type RestoreReport, SubscriptionBook } from '../../gateway/subscriptions.js';
import type { RingLimits } from './frame-ring.js';
import { StreamHub } from './hub.js';

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
  /** Stops listening to the gateway. */
  close(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    streams: StreamServices;
  }
}

export async function startStreams(gateway: Gateway, options: StreamOptions = {}): Promise<StreamServices> {
  let subscriptions: SubscriptionBook | null = null;
  const hub = new StreamHub({
    orderEventsAfter: (seq, limit) => gateway.orderEvents.after(seq, limit),
    // The official simulation delivers every account's reports without subscribe_trade; production needs it.
    delivers: (accountKey) => gateway.identity.simulation || (subscriptions?.tradeSubscribed(accountKey) ?? false),
    lastOrderSeq: gateway.orderEvents.lastSeq(),
    ring: options.ring,
    maxBufferedBytes: options.maxBufferedBytes,
    maxQueuedBytes: options.maxQueuedBytes,
    maxConnections: options.maxConnections,
    heartbeatMs: options.heartbeatMs,
  });
  subscriptions = new SubscriptionBook({
    quotes: gateway.quotes,
    accounts: gateway.accounts,
    file: options.subscriptionsFile ?? null,
    onSession: (event) => hub.publish('session', event),
  });
  const stops = [
    gateway.quotes.onMarketEvent((event) => hub.publish(event.name, event.data)),
    gateway.orderEvents.listen((event) => hub.publishOrderEvent(event)),
    gateway.contracts.onContractEvent((event) => hub.publish('contract_event', event)),
  ];
  const restored = options.restore === false ? null : await subscriptions.restore();
  if (!gateway.identity.simulation && subscriptions.tradeAccountKeys().length === 0) {
    // The bridge logs in with subscribe_trade on, as the SDK does by default: every account reports from the start.
    for (const account of await gateway.accounts.list()) await subscriptions.subscribeTrade(account);
  }
  return {
    hub,
    subscriptions,
    restored,
    close: () => {
      for (const stop of stops) stop();
    },
  };
}
