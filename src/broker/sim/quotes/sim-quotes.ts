// The simulator's live quotes: subscriptions resolved against the catalog, each reading its source off the market
// feed. Sources are shared: the Tick, BidAsk and Quote streams of one product watch one feed key and keep one
// running day, and a source stops being watched when its last subscription goes.

import type { ComboContract } from '../../../domain/contracts.js';
import { InvalidRequestError } from '../../../domain/errors.js';
import {
  isComboSubscription,
  isIndexAnalytics,
  type MarketEvent,
  type QuoteSubscription,
  subscriptionKey,
} from '../../../domain/quotes.js';
import { resolveSubscription } from '../../../domain/subscription-rules.js';
import type { SubscribeInput } from '../../port.js';
import { LISTED_SECURITIES } from '../catalog/listed-securities.js';
import type { SimContracts } from '../contracts.js';
import type { FeedUpdate, MarketFeed } from '../market/feed.js';
import type { SimMarket } from '../market/market.js';
import { Channel } from './channel.js';
import type { QuoteSource } from './day-context.js';
import { MEMBERSHIP } from './index-breadth.js';

export class SimQuotes {
  private readonly byFeedKey = new Map<string, Channel>();
  /** The channel of each subscription, by subscriptionKey. */
  private readonly subscribed = new Map<string, Channel>();
  private readonly listeners = new Set<(event: MarketEvent) => void>();
  private readonly stopFeed: () => void;
  private readonly emit = (event: MarketEvent) => {
    for (const listener of this.listeners) listener(event);
  };

  constructor(
    private readonly market: SimMarket,
    private readonly contracts: SimContracts,
    private readonly feed: MarketFeed,
  ) {
    this.stopFeed = feed.onUpdate((update) => this.onFeedUpdate(update));
  }

  resolve(input: SubscribeInput): QuoteSubscription {
    const subscription = resolveSubscription(this.contracts, input);
    if (!isComboSubscription(subscription)) checkGroupListed(subscription.code, subscription.projection?.group);
    return subscription;
  }

  subscribe(subscription: QuoteSubscription): void {
    const key = subscriptionKey(subscription);
    if (this.subscribed.has(key)) return;
    const channel = this.channelOf(subscription);
    const quoteType = subscription.quote_type;
    let stream = channel.streams.get(quoteType);
    if (!stream) {
      stream = { quoteType, lastBook: null, subscriptions: new Set<string>() };
      // A kbar stream that starts again starts with whole bars, not the one left when it stopped.
      if (quoteType === 'KBar') channel.restartBars();
    }
    stream.subscriptions.add(key);
    if (!isComboSubscription(subscription) && isIndexAnalytics(quoteType)) {
      stream.views ??= new Map();
      stream.views.set(key, subscription);
    }
    channel.streams.set(quoteType, stream);
    this.subscribed.set(key, channel);
  }

  unsubscribe(subscription: QuoteSubscription): void {
    const key = subscriptionKey(subscription);
    const channel = this.subscribed.get(key);
    if (!channel) return;
    this.subscribed.delete(key);
    const stream = channel.streams.get(subscription.quote_type);
    stream?.subscriptions.delete(key);
    stream?.views?.delete(key);
    if (stream?.subscriptions.size === 0) channel.streams.delete(subscription.quote_type);
    if (channel.streams.size > 0) return;
    for (const feedKey of channel.feedKeys) {
      this.feed.unwatch(feedKey);
      this.byFeedKey.delete(feedKey);
    }
  }

  onMarketEvent(listener: (event: MarketEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How many subscriptions are delivered now. */
  get size(): number {
    return this.subscribed.size;
  }

  /** Drops every subscription and stops listening to the feed. */
  close(): void {
    for (const [feedKey] of this.byFeedKey) this.feed.unwatch(feedKey);
    this.byFeedKey.clear();
    this.subscribed.clear();
    this.stopFeed();
  }

  private onFeedUpdate(update: FeedUpdate): void {
    const channel = this.byFeedKey.get(update.key);
    if (!channel) return;
    if (update.kind === 'trial') channel.onTrial(update);
    else channel.onTrades(update);
  }

  /** The channel a subscription reads: the one already on its source's feed keys, or a new one. */
  private channelOf(subscription: QuoteSubscription): Channel {
    const { source, feedKeys } = this.sourceOf(subscription);
    return this.byFeedKey.get(feedKeys[0]!) ?? this.open(source, feedKeys);
  }

  /** The source a subscription reads and its feed keys, watched (watching again is a no-op). */
  private sourceOf(subscription: QuoteSubscription): { source: QuoteSource; feedKeys: string[] } {
    if (isComboSubscription(subscription)) {
      const { legs, combo_type } = subscription.contract;
      const combo: ComboContract = this.contracts.createCombo(
        legs.map((leg) => ({ security_type: leg.security_type, exchange: leg.exchange, code: leg.code })),
        combo_type,
      );
      return { source: { family: 'fop', intradayOdd: false, combo }, feedKeys: [this.feed.watchCombo(combo)] };
    }
    // An alias (TXFR1) reads its month's source, as the official server subscribes by target_code: subscribed
    // together, the two share one source.
    const { security_type: type } = subscription;
    const code = subscription.target_code ?? subscription.code;
    if (type === 'IND') {
      return { source: { family: 'idx', intradayOdd: false, combo: null }, feedKeys: [this.feed.watch(code, 'board')] };
    }
    const family = type === 'FUT' || type === 'OPT' ? 'fop' : 'stk';
    if (subscription.intraday_odd) {
      return { source: { family, intradayOdd: true, combo: null }, feedKeys: [this.feed.watch(code, 'odd')] };
    }
    const feedKeys = [this.feed.watch(code, 'board'), this.feed.watch(code, 'trial')];
    if (type === 'STK') feedKeys.push(this.feed.watch(code, 'fixed'));
    return { source: { family, intradayOdd: false, combo: null }, feedKeys };
  }

  /** A new source on its feed keys: the first is its trades, the others its trial matches and fixed-price match. */
  private open(source: QuoteSource, feedKeys: string[]): Channel {
    const channel = new Channel(this.market, source, this.emit);
    for (const feedKey of feedKeys) {
      channel.feedKeys.push(feedKey);
      this.byFeedKey.set(feedKey, channel);
    }
    return channel;
  }
}

/** A projection within one industry group names a group the index has: else a 400 listing those it has. */
function checkGroupListed(indexCode: string, group: string | null | undefined): void {
  if (group === null || group === undefined) return;
  const isMember = MEMBERSHIP[indexCode] ?? (() => false);
  const groups = [...new Set(LISTED_SECURITIES.filter(isMember).map((security) => security.category))].sort();
  if (groups.includes(group)) return;
  throw new InvalidRequestError(
    `${indexCode} has no industry group ${JSON.stringify(group)}; its groups are ${groups.join(', ')}`,
  );
}
