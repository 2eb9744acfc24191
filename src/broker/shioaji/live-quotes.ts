// Quote subscriptions at SinoPac through the bridge. The gateway keeps the list and its limit; this side asks the SDK
// to start and stop streams, gives them all back to a new session, and passes each quote on as SinoPac sent it.

import {
  isComboSubscription,
  MARKET_EVENT_NAMES,
  type MarketEvent,
  type MarketEventName,
  type QuoteSubscription,
  subscriptionKey,
} from '../../domain/quotes.js';
import { type ScannerSubscription, scannerKey } from '../../domain/scanner-rules.js';
import { isTrading, sessionDayAt, tradingSession } from '../../domain/sessions.js';
import { resolveSubscription, type SubscribableContracts } from '../../domain/subscription-rules.js';
import type { QuoteFeedPort, SubscribeInput } from '../port.js';
import type { BridgeSession } from './session.js';
import type { UpstreamCall } from './upstream.js';

export class LiveQuotes implements QuoteFeedPort {
  private readonly active = new Map<string, QuoteSubscription>();
  /** Scanner subscriptions (a rule or state on an exchange), by scannerKey. */
  private readonly scanners = new Map<string, ScannerSubscription>();
  private readonly listeners = new Set<(event: MarketEvent) => void>();

  constructor(
    private readonly call: UpstreamCall,
    private readonly contracts: () => SubscribableContracts,
    private readonly log: (line: string) => void,
    session: BridgeSession,
  ) {
    session.onEvent((event) => {
      if (event.event !== 'quote') return;
      const name = event.data.name as MarketEventName;
      if (!MARKET_EVENT_NAMES.includes(name)) return;
      const quote: MarketEvent = { name, data: event.data.data as Record<string, unknown> };
      for (const listener of this.listeners) listener(quote);
    });
    session.onReconnected(() => this.restore());
  }

  async resolve(input: SubscribeInput): Promise<QuoteSubscription> {
    return resolveSubscription(this.contracts(), input);
  }

  /** SinoPac streams by the month an alias names: an alias and its month share one stream, started once. */
  async subscribe(subscription: QuoteSubscription): Promise<void> {
    const key = subscriptionKey(subscription);
    if (this.active.has(key)) return;
    if (this.sharing(subscription).length === 0) await this.call('subscribe', streamOf(subscription));
    this.active.set(key, subscription);
  }

  async unsubscribe(subscription: QuoteSubscription): Promise<void> {
    const key = subscriptionKey(subscription);
    if (!this.active.has(key)) return;
    if (this.sharing(subscription).length === 1) await this.call('unsubscribe', streamOf(subscription));
    this.active.delete(key);
  }

  /** The held subscriptions on the same SinoPac stream as this one. */
  private sharing(subscription: QuoteSubscription): QuoteSubscription[] {
    const stream = JSON.stringify(streamOf(subscription));
    return [...this.active.values()].filter((held) => JSON.stringify(streamOf(held)) === stream);
  }

  /** One SDK subscribe_scanner per (scanner, exchange); the sidecar builds the SDK's preset from its id. */
  async subscribeScanner(subscription: ScannerSubscription): Promise<void> {
    const key = scannerKey(subscription);
    if (this.scanners.has(key)) return;
    await this.call('subscribe_scanner', { ...subscription });
    this.scanners.set(key, subscription);
  }

  async unsubscribeScanner(subscription: ScannerSubscription): Promise<void> {
    const key = scannerKey(subscription);
    if (!this.scanners.has(key)) return;
    await this.call('unsubscribe_scanner', { ...subscription });
    this.scanners.delete(key);
  }

  onMarketEvent(listener: (event: MarketEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether a held subscription's market is open now, so its silence means a dead session. */
  expectsQuotes(now: number): boolean {
    for (const subscription of this.active.values()) {
      const type = isComboSubscription(subscription) ? 'FUT' : subscription.security_type;
      const market = type === 'FUT' || type === 'OPT' ? 'futures' : 'stock';
      if (isTrading(tradingSession('exchange', market, sessionDayAt(market, now)), now)) return true;
    }
    return false;
  }

  private async restore(): Promise<void> {
    const streams = new Map([...this.active.values()].map((held) => [JSON.stringify(streamOf(held)), held]));
    for (const [stream, subscription] of streams) {
      await this.call('subscribe', streamOf(subscription)).catch((error: Error) => {
        this.log(`bridge: could not subscribe ${stream} again: ${error.message}`);
      });
    }
    for (const [key, subscription] of this.scanners) {
      await this.call('subscribe_scanner', { ...subscription }).catch((error: Error) => {
        this.log(`bridge: could not subscribe ${key} again: ${error.message}`);
      });
    }
  }
}

/** The sidecar's subscribe params: a product by code (an alias by the month it names), or a combo by its legs. */
function streamOf(subscription: QuoteSubscription) {
  if (isComboSubscription(subscription)) {
    const { legs, combo_type } = subscription.contract;
    return {
      legs: legs.map((leg) => ({
        security_type: leg.security_type,
        exchange: leg.exchange,
        code: leg.target_code ?? leg.code,
      })),
      combo_type,
      quote_type: subscription.quote_type,
      intraday_odd: false,
    };
  }
  return {
    security_type: subscription.security_type,
    exchange: subscription.exchange,
    code: subscription.target_code ?? subscription.code,
    quote_type: subscription.quote_type,
    intraday_odd: subscription.intraday_odd,
    // The index analytics: the SDK's ranking= or projection= keyword.
    ...(subscription.ranking ? { ranking: subscription.ranking } : {}),
    ...(subscription.projection ? { projection: subscription.projection } : {}),
  };
}
