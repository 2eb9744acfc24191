// The Shioaji contract model (1.7 Contract V2): lightweight identities and full info objects.

export const SECURITY_TYPES = ['STK', 'IND', 'FUT', 'OPT', 'WRT'] as const;
export type SecurityType = (typeof SECURITY_TYPES)[number];

export const EXCHANGES = ['TSE', 'OTC', 'OES', 'TAIFEX'] as const;
export type Exchange = (typeof EXCHANGES)[number];

export const REGIONS = ['TW', 'US', 'HK', 'JP'] as const;
export type Region = (typeof REGIONS)[number];

export type DayTrade = 'Yes' | 'OnlyBuy' | 'No';
export type OptionRight = 'C' | 'P';
export type UnderlyingKind = 'S' | 'I' | 'E' | 'C';
export type TickBasis = 'fixed' | 'price' | 'premium';
export type FuturesSpecKind = 'index_fut' | 'stock_fut' | 'etf_fut' | 'commodity' | 'fx' | 'unknown';
export type OptionSpecKind = 'index_opt' | 'stock_opt' | 'etf_opt' | 'commodity_opt' | 'unknown';

/** The identity every order and subscription needs. */
export interface Contract {
  security_type: SecurityType;
  region: Region;
  exchange: Exchange;
  code: string;
  /** The real contract behind a continuous-month alias (R1/R2); null for everything else. */
  target_code: string | null;
}

export interface StockInfo extends Contract {
  security_type: 'STK';
  name: string;
  category: string;
  currency: string;
  unit: number;
  day_trade: DayTrade;
  reference: number;
  limit_up: number;
  limit_down: number;
  margin_trading_balance: number;
  short_selling_balance: number;
  trading_suspended: boolean;
  margin_loan_ratio: number;
  margin_quota_lots: number;
  short_margin_ratio: number;
  short_quota_lots: number;
  margin_shortable: boolean;
  sbl_shortable: boolean;
  below_ref_shortable: boolean;
  disposition_level: number;
  attention_flag: boolean;
  etf_constituent: boolean;
  settlement_type: string;
  disposition_match_interval_min: number | null;
  disposition_max_lots_single_order: number | null;
  disposition_max_lots_total_orders: number | null;
  disposition_prepay_ratio: number | null;
  update_date: string;
}

interface DerivativeInfoFields {
  name: string;
  root: string;
  delivery_month: string;
  delivery_date: string;
  last_trading_date: string;
  begin_date: string;
  underlying_kind: UnderlyingKind;
  underlying_code: string;
  multiplier: number;
  contract_size: number;
  size_unit: string;
  quote_ccy: string;
  tick_basis: TickBasis;
  tick_rule: string | null;
  tick: number;
  tick_value: number;
  decimal_locator: number;
  dynamic_banding: boolean;
  flow_group: string;
  reference: number;
  limit_up: number;
  limit_down: number;
  limit_up_2: number;
  limit_down_2: number;
  limit_up_3: number;
  limit_down_3: number;
  update_date: string;
}

export interface FuturesInfo extends Contract, DerivativeInfoFields {
  security_type: 'FUT';
  spec_kind: FuturesSpecKind;
}

export interface OptionInfo extends Contract, DerivativeInfoFields {
  security_type: 'OPT';
  spec_kind: OptionSpecKind;
  strike_price: number;
  option_right: OptionRight;
  expiry_weekday: string;
  week_of_month: number;
  strike_decimal_locator: number;
}

export interface IndexInfo extends Contract {
  security_type: 'IND';
  name: string;
  reference: number;
  open_time: string;
  close_time: string;
  update_date: string;
}

export interface WarrantInfo extends Contract {
  security_type: 'WRT';
  name: string;
  underlying_code: string;
  underlying_type: string;
  call_put: OptionRight;
  financial: string;
  strike_price: number;
  expiry_date: string;
  last_trading_date: string;
  exercise_ratio: number;
  exercise_style: 'American' | 'European';
  listing_date: string;
  delisting_date: string;
  exercise_start_date: string;
  exercise_end_date: string;
  barrier_upper: number | null;
  barrier_lower: number | null;
  residual_value: number | null;
  settlement_method: string;
  investor_restriction: string;
  issue_size: number;
  reference: number;
  limit_up: number;
  limit_down: number;
  update_date: string;
}

export type ContractInfo = StockInfo | FuturesInfo | OptionInfo | IndexInfo | WarrantInfo;

/** The identity part of any info object, in the field order of the Contract resource. */
export function contractOf(info: Contract): Contract {
  return {
    security_type: info.security_type,
    region: info.region,
    exchange: info.exchange,
    code: info.code,
    target_code: info.target_code,
  };
}

export interface RootName {
  root: string;
  name: string;
}

export interface WarrantUnderlying {
  underlying_code: string;
  name: string;
  warrant_count: number;
}

export interface TickBand {
  min: number;
  max: number | null;
  tick: number;
}

export interface TickBandRule {
  region: Region;
  security_type: 'FUT' | 'OPT';
  rule: string;
  basis: 'price' | 'premium';
  bands: TickBand[];
}

export const COMBO_TYPES = [
  'PriceSpread',
  'TimeSpread',
  'Straddle',
  'Strangle',
  'ConversionReversal',
  'WeeklyTimeSpread',
] as const;
export type ComboType = (typeof COMBO_TYPES)[number];

export interface ComboContract {
  code: string | null;
  legs: [Contract, Contract];
  region: Region;
  exchange: Exchange;
  combo_type: ComboType;
  managed: boolean;
}

/** Continuous-month futures aliases are a root and R1 (nearest month) or R2 (next month), e.g. TXFR1. */
export function isContinuousCode(code: string): boolean {
  // Anchored on a letters-only root: a June put of 2031 (TXO20000R1) also ends in R1.
  return /^[A-Z]{2,4}R[12]$/.test(code);
}

/** Published when contracts are refreshed on the exchange schedule (SSE `contract_event`). */
export interface ContractEvent {
  /** An opaque string, as the official server types it (clients parse it as one); here the refresh's sequence. */
  event_id: string;
  /** CHECK: a scheduled refresh ran. */
  action: 'CHECK';
  region: Region;
  security_type: SecurityType;
  published_at: string;
  /** Contracts were listed or delisted. */
  base_changed: boolean;
  /** Info fields (reference, limits, update_date, ...) changed. */
  info_changed: boolean;
  info_scope: 'ALL' | null;
  info_shards: string[];
}
