import type { ContractRef } from './market-data.js';

export interface Contract {
  security_type: 'STK' | 'IND' | 'FUT' | 'OPT' | 'WRT';
  region: string;
  /** TSE, OTC, OES or TAIFEX */
  exchange: string;
  code: string;
  /** the real contract of a continuous-month alias (R1/R2) */
  target_code: string | null;
}

export interface StockInfoRecord {
  security_type: 'STK';
  region: string;
  /** TSE, OTC, OES or TAIFEX */
  exchange: string;
  code: string;
  /** the real contract of a continuous-month alias (R1/R2) */
  target_code: string | null;
  name: string;
  category: string;
  currency: string;
  unit: number;
  day_trade: 'Yes' | 'OnlyBuy' | 'No';
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
  /** YYYY-MM-DD */
  update_date: string;
  /** 'TW/STK': the region and security type, by which 1.7.9 reads it */
  dataset: string;
}

export interface FuturesInfoRecord {
  security_type: 'FUT';
  region: string;
  /** TSE, OTC, OES or TAIFEX */
  exchange: string;
  code: string;
  /** the real contract of a continuous-month alias (R1/R2) */
  target_code: string | null;
  name: string;
  root: string;
  /** YYYYMM */
  delivery_month: string;
  /** YYYY-MM-DD */
  delivery_date: string;
  /** YYYY-MM-DD */
  last_trading_date: string;
  /** YYYY-MM-DD */
  begin_date: string;
  underlying_kind: 'S' | 'I' | 'E' | 'C';
  underlying_code: string;
  multiplier: number;
  contract_size: number;
  size_unit: string;
  quote_ccy: string;
  tick_basis: 'fixed' | 'price' | 'premium';
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
  /** YYYY-MM-DD */
  update_date: string;
  spec_kind: 'index_fut' | 'stock_fut' | 'etf_fut' | 'commodity' | 'fx' | 'unknown';
  /** 'TW/FUT': the region and security type, by which 1.7.9 reads it */
  dataset: string;
}

export interface OptionInfoRecord extends Omit<FuturesInfoRecord, 'security_type' | 'spec_kind'> {
  security_type: 'OPT';
  spec_kind: 'index_opt' | 'stock_opt' | 'etf_opt' | 'commodity_opt' | 'unknown';
  strike_price: number;
  option_right: 'C' | 'P';
  expiry_weekday: string;
  week_of_month: number;
  strike_decimal_locator: number;
  /** 'TW/OPT': the region and security type, by which 1.7.9 reads it */
  dataset: string;
}

export interface IndexInfoRecord {
  security_type: 'IND';
  region: string;
  /** TSE, OTC, OES or TAIFEX */
  exchange: string;
  code: string;
  /** the real contract of a continuous-month alias (R1/R2) */
  target_code: string | null;
  name: string;
  reference: number;
  open_time: string;
  close_time: string;
  /** YYYY-MM-DD */
  update_date: string;
  /** 'TW/IND': the region and security type, by which 1.7.9 reads it */
  dataset: string;
}

export interface WarrantInfoRecord {
  security_type: 'WRT';
  region: string;
  /** TSE, OTC, OES or TAIFEX */
  exchange: string;
  code: string;
  /** the real contract of a continuous-month alias (R1/R2) */
  target_code: string | null;
  name: string;
  underlying_code: string;
  underlying_type: string;
  call_put: 'C' | 'P';
  financial: string;
  strike_price: number;
  /** YYYY-MM-DD */
  expiry_date: string;
  /** YYYY-MM-DD */
  last_trading_date: string;
  exercise_ratio: number;
  exercise_style: 'American' | 'European';
  /** YYYY-MM-DD */
  listing_date: string;
  /** YYYY-MM-DD */
  delisting_date: string;
  /** YYYY-MM-DD */
  exercise_start_date: string;
  /** YYYY-MM-DD */
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
  /** YYYY-MM-DD */
  update_date: string;
  /** 'TW/WRT': the region and security type, by which 1.7.9 reads it */
  dataset: string;
}

export interface ComboContract {
  /** exchange combo code; option combos have none */
  code: string | null;
  legs: Contract[];
  region: string;
  /** TSE, OTC, OES or TAIFEX */
  exchange: string;
  combo_type: 'PriceSpread' | 'TimeSpread' | 'Straddle' | 'Strangle' | 'ConversionReversal' | 'WeeklyTimeSpread';
  managed: boolean;
}

export interface TickBandRule {
  region: string;
  security_type: 'FUT' | 'OPT';
  rule: string;
  basis: 'price' | 'premium';
  bands: {
    min: number;
    max: number | null;
    tick: number;
  }[];
}

export interface Watchlist {
  /** wl-<number> */
  id: string;
  /** the person of the accounts: each person sees only their own lists */
  person_id: string;
  name: string;
  /** in the order given, each once */
  contracts: Contract[];
}

export interface WatchlistCreateRequest {
  /** 1 to 100 characters, not only spaces; spaces around it are dropped */
  name: string;
  contracts?: ContractRef[];
}

export interface WatchlistReplaceRequest {
  contracts: ContractRef[];
  /** 1 to 100 characters, not only spaces; spaces around it are dropped */
  name?: string;
}

export interface WatchlistContractsRequest {
  contracts: ContractRef[];
}

export interface ContractsRequest {
  security_type: 'STK' | 'IND' | 'FUT' | 'OPT' | 'WRT';
  region?: 'TW' | 'US' | 'HK' | 'JP';
  page?: number;
  /** default 1000 */
  page_size?: number;
}

export interface ContractList {
  contracts: Contract[];
  security_type: 'STK' | 'IND' | 'FUT' | 'OPT' | 'WRT';
  region: string;
  total: number;
  page?: number;
  page_size?: number;
  max_page?: number;
}

export interface RootName {
  root: string;
  name: string;
}

export interface WarrantUnderlying {
  underlying_code: string;
  name?: string;
  warrant_count: number;
}

export interface ComboRequest {
  legs: {
    security_type: 'STK' | 'IND' | 'FUT' | 'OPT' | 'WRT';
    exchange?: string;
    code: string;
    region?: 'TW' | 'US' | 'HK' | 'JP';
    target_code?: string | null;
    /** not allowed: a combo has no direction (400) */
    action?: unknown;
  }[];
  /** null: derived from the legs */
  combo_type?:
    | 'PriceSpread'
    | 'TimeSpread'
    | 'Straddle'
    | 'Strangle'
    | 'ConversionReversal'
    | 'WeeklyTimeSpread'
    | null;
  region?: 'TW' | 'US' | 'HK' | 'JP';
}
