// Live quote subscriptions and the market-data events they deliver (the SSE families of the official server).

import type { ComboType, Contract } from './contracts.js';
import { type ContributionRanking, type IndexProjection, projectionValue } from './index-projections.js';

/** What POST /stream/subscribe takes. */
export const QUOTE_TYPES = ['Tick', 'BidAsk', 'Quote'] as const;
/**
 * The 1.7.1 streams have their own subscribe routes: KBar, a stock's completed one-minute bars
 * (POST /stream/subscribe/kbars), and CalculatedIndex, IX0001 or IX0043 recomputed from its constituents
 * (POST /stream/subscribe/calculated_index).
 */
export type QuoteType = (typeof QUOTE_TYPES)[number] | 'KBar' | 'CalculatedIndex' | IndexAnalyticsType;

/**
 * The index analytics streams, each with its own subscribe route and SSE family: IndexContribution (the
 * components' points, ranked), IndustryContribution (the points of each industry) and IndexComponents (a
 * projection of the components or their industry groups). IX0001 and IX0043 only, like CalculatedIndex.
 */
export const INDEX_ANALYTICS_EVENTS = {
  IndexContribution: 'index_contribution',
  IndustryContribution: 'industry_contribution',
  IndexComponents: 'index_components',
} as const;
export type IndexAnalyticsType = keyof typeof INDEX_ANALYTICS_EVENTS;
export const isIndexAnalytics = (quoteType: QuoteType): quoteType is IndexAnalyticsType =>
  quoteType in INDEX_ANALYTICS_EVENTS;

/** The indices whose calculated_index stream the exchange recomputes from their constituents. */
export const CALCULATED_INDICES: readonly string[] = ['IX0001', 'IX0043'];

/** SSE event names of market data; each is also the path tail of its dedicated stream. */
export const MARKET_EVENT_NAMES = [
  'tick_stk',
  'bidask_stk',
  'quote_stk',
  'tick_fop',
  'bidask_fop',
  'quote_fop',
  'quote_idx',
  'kbar',
  'calculated_index',
  'index_contribution',
  'industry_contribution',
  'index_components',
  'scanner',
] as const;
export type MarketEventName = (typeof MARKET_EVENT_NAMES)[number];

/** A subscription to one product, as the response echoes it: the contract resolved (R1/R2 carry target_code). */
export interface ProductSubscription {
  security_type: Contract['security_type'];
  exchange: Contract['exchange'];
  code: string;
  target_code: string | null;
  quote_type: QuoteType;
  intraday_odd: boolean;
  /** IndexContribution only: which ranking of the components. */
  ranking?: ContributionRanking;
  /** IndexComponents only: what of the components or their groups. */
  projection?: IndexProjection;
}

/** A subscription to a futures combo's own book: legs resolved, combo_type derived when the request omitted it. */
export interface ComboSubscription {
  contract: { legs: Contract[]; combo_type: ComboType };
  quote_type: QuoteType;
  intraday_odd: false;
}

export type QuoteSubscription = ProductSubscription | ComboSubscription;

export const isComboSubscription = (subscription: QuoteSubscription): subscription is ComboSubscription =>
  'contract' in subscription;

/** One key per distinct subscription: subscribing twice to the same thing is the same subscription. */
export function subscriptionKey(subscription: QuoteSubscription): string {
  if (isComboSubscription(subscription)) {
    const legs = subscription.contract.legs.map((leg) => leg.target_code ?? leg.code).join('/');
    return `combo:${legs}:${subscription.contract.combo_type}:${subscription.quote_type}`;
  }
  const odd = subscription.intraday_odd ? ':odd' : '';
  const view = subscription.ranking ?? (subscription.projection ? projectionValue(subscription.projection) : null);
  return `${subscription.security_type}:${subscription.code}:${subscription.quote_type}${odd}${view ? `:${view}` : ''}`;
}

/**
 * One market-data event as it goes on the wire: `event: <name>`, `data: <JSON of data>`. Payloads follow the
 * official server: prices and amounts as decimal strings, volumes and counts as numbers, quote_idx keys in
 * PascalCase.
 */
export interface MarketEvent {
  name: MarketEventName;
  data: Record<string, unknown>;
}

/** What SDK users see as quote session events (on_event): resp_code, event_code, info, event. */
export interface SessionEvent {
  resp_code: number;
  event_code: number;
  info: string;
  event: string;
}

export const SUBSCRIPTION_OK_EVENT_CODE = 16;
export const SUBSCRIPTION_ERROR_EVENT_CODE = 4;

/** The most subscriptions a session may hold (the service's limit). */
export const MAX_SUBSCRIPTIONS = 200;
