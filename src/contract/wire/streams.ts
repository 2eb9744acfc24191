import type { Contract } from './contracts.js';
import type { ComboRef, ContractRef } from './market-data.js';

/** name the product flat (code, security_type, exchange) or under contract, not both */
export interface SubscriptionRequest {
  /** STK, FUT, OPT, IND or WRT; resolved from the code when omitted */
  security_type?: 'STK' | 'IND' | 'FUT' | 'OPT' | 'WRT';
  /** TSE, OTC, OES or TAIFEX; may be omitted */
  exchange?: 'TSE' | 'OTC' | 'OES' | 'TAIFEX' | '';
  /** product code, e.g. 2330, TXFR1, IX0001 */
  code?: string;
  /** ignored; accepted so a Contract object can be sent back as is */
  target_code?: string | null;
  /** TW; the only market served */
  region?: 'TW';
  /** the contract (a Contract object is accepted as is) or a futures combo {legs, combo_type?} */
  contract?: ContractRef | ComboRef;
  /** Tick, BidAsk or Quote (an index: Quote only) */
  quote_type: 'Tick' | 'BidAsk' | 'Quote';
  /** a stock's intraday odd-lot Tick or BidAsk (volumes in shares) */
  intraday_odd?: boolean;
}

export interface HeldIndexComponentsProjection {
  kind: string;
  target: string | null;
  metric: string;
  order: string | null;
  limit: number | null;
  group: string | null;
}

export interface ProductSubscription {
  security_type: string;
  exchange: string;
  code: string;
  /** the real contract of R1/R2 */
  target_code: string | null;
  quote_type:
    | 'Tick'
    | 'BidAsk'
    | 'Quote'
    | 'KBar'
    | 'CalculatedIndex'
    | 'IndexContribution'
    | 'IndustryContribution'
    | 'IndexComponents';
  intraday_odd: boolean;
  /** top10 (largest points), abs10 (largest |points|), positive25, negative25 */
  ranking?: 'top10' | 'abs10' | 'positive25' | 'negative25';
  projection?: HeldIndexComponentsProjection;
}

export interface ComboSubscription {
  contract: {
    legs: Contract[];
    combo_type: 'PriceSpread' | 'TimeSpread' | 'Straddle' | 'Strangle' | 'ConversionReversal' | 'WeeklyTimeSpread';
  };
  quote_type:
    | 'Tick'
    | 'BidAsk'
    | 'Quote'
    | 'KBar'
    | 'CalculatedIndex'
    | 'IndexContribution'
    | 'IndustryContribution'
    | 'IndexComponents';
  intraday_odd: boolean;
}

export type Subscription = ProductSubscription | ComboSubscription;

export interface SubscriptionResponse {
  success: boolean;
  message: string;
  subscription: Subscription;
}

export interface ScannerSubscription {
  /** the rule id or the state */
  scanner: string;
  region: string;
  security_type: string;
  exchange: string;
}

export interface SubscriptionList {
  subscriptions: Subscription[];
  /** market scanners (POST /stream/subscribe/scanner) */
  scanners: ScannerSubscription[];
  /** quote and scanner subscriptions together, as the limit counts them */
  count: number;
  /** the most subscriptions held at a time */
  limit: number;
  /** broker_id-account_id of accounts with subscribe_trade */
  trade_accounts: string[];
}

export interface StreamStatus {
  /** clients attached to any SSE stream */
  active_connections: number;
  timestamp: string;
  status: string;
  /** clients attached per stream; `data` is the aggregate /api/v1/stream/data */
  streams: {
    data: number;
    tick_stk: number;
    bidask_stk: number;
    quote_stk: number;
    tick_fop: number;
    bidask_fop: number;
    quote_fop: number;
    quote_idx: number;
    kbar: number;
    calculated_index: number;
    index_contribution: number;
    industry_contribution: number;
    index_components: number;
    scanner: number;
    order_event: number;
    contract_event: number;
  };
  subscriptions: number;
  /** clients dropped for falling too far behind since start */
  dropped_clients: number;
  /** streams refused with 503 since start: the connection cap or the memory budget was reached */
  refused_clients: number;
  /** bytes written to the clients and not yet taken by the kernel */
  queued_bytes: number;
  /** replays of what clients missed */
  replays: {
    /** clients being caught up after a reconnect with Last-Event-ID */
    running: number;
    /** of those, how many wait for the memory budget */
    waiting: number;
    /** times since start that replays waited for the memory budget */
    held_back: number;
  };
  replay_buffer: {
    events: number;
    bytes: number;
  };
}

export interface KbarSubscriptionRequest {
  /** stocks: {code} is enough */
  stocks: ContractRef[];
}

export interface CapabilitySubscriptionResponse {
  success: boolean;
  message: string;
}

export interface CalculatedIndexSubscriptionRequest {
  index: ContractRef;
}

export interface IndexContributionSubscriptionRequest {
  index: ContractRef;
  /** top10 (largest points), abs10 (largest |points|), positive25, negative25 */
  ranking: 'top10' | 'abs10' | 'positive25' | 'negative25';
}

export interface IndustryContributionSubscriptionRequest {
  index: ContractRef;
}

export interface IndexComponentsProjection {
  /** ranking, or group_metric (one value per group) */
  kind: 'ranking' | 'group_metric';
  target?: 'component' | 'group' | null;
  /** a component metric, or a group metric for groups */
  metric:
    | 'contribution'
    | 'pct_chg'
    | 'weight'
    | 'amount'
    | 'amount_share'
    | 'equal_weight_performance'
    | 'weighted_performance'
    | 'breadth';
  order?: 'desc' | 'asc' | 'abs_desc' | 'positive_desc' | 'negative_asc' | null;
  limit?: number | null;
  /** an industry code: rank within it */
  group?: string | null;
}

export interface IndexComponentsSubscriptionRequest {
  index: ContractRef;
  projection: IndexComponentsProjection;
}

export interface ScannerPresetRule {
  kind?: 'preset_rule';
  id: string;
  /** 1, the only version */
  formula_version?: number | string;
  /** price-move rules: 1000 (fixed) */
  window_ms?: number | string;
  /** price-move rules: 1 (fixed) */
  change_percent?: number | string;
  /** price-move rules: 3 (fixed) */
  minimum_tick_change?: number | string;
  /** price-move rules 1000, volume_burst 5000 (fixed) */
  cooldown_ms?: number | string;
}

export interface ScannerSubscriptionRequest {
  /** a state scanner ("simtrade", "suspend") or {kind: "preset_rule", id: <rule>} */
  scanner: string | ScannerPresetRule;
  /** TW only */
  region: 'TW';
  /** STK only: the scanner covers stocks */
  security_type: 'STK';
  /** TSE or OTC: the exchange whose stocks it scans */
  exchange: 'TSE' | 'OTC';
}
