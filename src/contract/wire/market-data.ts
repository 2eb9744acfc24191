export interface ContractRef {
  /** STK, FUT, OPT, IND or WRT; resolved from the code when omitted */
  security_type?: 'STK' | 'IND' | 'FUT' | 'OPT' | 'WRT';
  /** TSE, OTC, OES or TAIFEX; may be omitted */
  exchange?: 'TSE' | 'OTC' | 'OES' | 'TAIFEX' | '';
  /** product code, e.g. 2330, TXFR1, IX0001 */
  code: string;
  /** ignored; accepted so a Contract object can be sent back as is */
  target_code?: string | null;
  /** TW; the only market served */
  region?: 'TW';
}

export interface ComboLegRef {
  /** STK, FUT, OPT, IND or WRT; resolved from the code when omitted */
  security_type?: 'STK' | 'IND' | 'FUT' | 'OPT' | 'WRT';
  /** TSE, OTC, OES or TAIFEX; may be omitted */
  exchange?: 'TSE' | 'OTC' | 'OES' | 'TAIFEX' | '';
  /** product code, e.g. 2330, TXFR1, IX0001 */
  code: string;
  /** ignored; accepted so a Contract object can be sent back as is */
  target_code?: string | null;
  /** TW; the only market served */
  region?: 'TW';
  /** not allowed: a combo has no direction (400) */
  action?: unknown;
}

export interface ComboRef {
  /** exactly 2 legs (futures or options of TAIFEX); another count is a 400 */
  legs: ComboLegRef[];
  combo_type?:
    | 'PriceSpread'
    | 'TimeSpread'
    | 'Straddle'
    | 'Strangle'
    | 'ConversionReversal'
    | 'WeeklyTimeSpread'
    | null;
  /** ignored (ComboContract field) */
  code?: string | null;
  /** ignored (ComboContract field) */
  region?: 'TW';
  /** ignored (ComboContract field) */
  exchange?: 'TAIFEX' | '';
  /** ignored (ComboContract field) */
  managed?: boolean;
}

/** a contract {security_type, exchange, code} or a combo {legs: [2 contracts], combo_type?} */
export type InstrumentRef = ContractRef | ComboRef;

export interface TicksRequest {
  contract: InstrumentRef;
  date?: string;
  /** AllDay: the whole day; RangeTime: time_start..time_end; LastCount: the last last_cnt ticks */
  query_type?: 'AllDay' | 'RangeTime' | 'LastCount';
  /** HH:MM:SS or HH:MM:SS.ffffff, Taiwan time; required with RangeTime; null is not given */
  time_start?: string | null;
  /** HH:MM:SS or HH:MM:SS.ffffff, Taiwan time; required with RangeTime; null is not given */
  time_end?: string | null;
  /** how many ticks; required with LastCount */
  last_cnt?: number;
}

/** columnar: every key holds an array of the same length; no ticks = empty arrays */
export interface Ticks {
  /** time of each trade, ISO 8601 Taiwan wall clock without offset, up to microseconds */
  datetime: string[];
  /** trade price (NTD; index points for indices; net price for combos) */
  close: number[];
  /** trade volume, lots (1,000 shares) for stocks, contracts for futures and options */
  volume: number[];
  /** best bid at the trade */
  bid_price: number[];
  /** volume at the best bid, lots (1,000 shares) for stocks, contracts for futures and options */
  bid_volume: number[];
  /** best ask at the trade */
  ask_price: number[];
  /** volume at the best ask, lots (1,000 shares) for stocks, contracts for futures and options */
  ask_volume: number[];
  /** 1 outer (buy side), 2 inner (sell side), 0 undetermined */
  tick_type: number[];
}

export interface KbarsRequest {
  contract: InstrumentRef;
  /** YYYY-MM-DD; first day; today when omitted */
  start?: string;
  /** YYYY-MM-DD; last day, inclusive; today when omitted. At most 30 days after start */
  end?: string;
}

/** columnar one-minute bars: every key holds an array of the same length */
export interface Kbars {
  datetime: string[];
  /** first trade price of the bar */
  Open: number[];
  /** highest trade price of the bar */
  High: number[];
  /** lowest trade price of the bar */
  Low: number[];
  /** last trade price of the bar */
  Close: number[];
  /** traded volume, lots (1,000 shares) for stocks, contracts for futures and options */
  Volume: number[];
  /** traded value (NTD; price x volume x unit) */
  Amount: number[];
}

export interface SnapshotsRequest {
  /** at most 500 contracts and combos, mixed freely */
  contracts: InstrumentRef[];
}

export interface Snapshot {
  /** time of the snapshot, ISO 8601 Taiwan wall clock without offset, up to microseconds */
  datetime: string;
  /** product code */
  code: string;
  /** TSE, OTC, OES or TAIFEX; '' for a combo */
  exchange: string;
  /** opening price */
  open: number;
  /** highest price of the day */
  high: number;
  /** lowest price of the day */
  low: number;
  /** last price (net price for a combo) */
  close: number;
  /** side of the last trade */
  tick_type: 'None' | 'Buy' | 'Sell';
  /** close minus the reference price */
  change_price: number;
  /** change against the reference price, percent */
  change_rate: number;
  /** LimitUp, Up, Unchanged, Down or LimitDown */
  change_type: 'LimitUp' | 'Up' | 'Unchanged' | 'Down' | 'LimitDown';
  /** volume-weighted average price of the day */
  average_price: number;
  /** volume of the last trade, lots (1,000 shares) for stocks, contracts for futures and options */
  volume: number;
  /** volume of the day, lots (1,000 shares) for stocks, contracts for futures and options */
  total_volume: number;
  /** value of the last trade, NTD */
  amount: number;
  /** value traded in the day, NTD */
  total_amount: number;
  yesterday_volume: number;
  /** best bid */
  buy_price: number;
  /** volume at the best bid, lots (1,000 shares) for stocks, contracts for futures and options */
  buy_volume: number;
  /** best ask */
  sell_price: number;
  /** volume at the best ask, lots (1,000 shares) for stocks, contracts for futures and options */
  sell_volume: number;
  /** total_volume / yesterday_volume */
  volume_ratio: number;
}

export interface ScannerRequest {
  /** what the stocks are ranked by */
  scanner_type:
    | 'ChangePercentRank'
    | 'ChangePriceRank'
    | 'DayRangeRank'
    | 'VolumeRank'
    | 'AmountRank'
    | 'TickCountRank';
  /** YYYY-MM-DD; the trading day; the latest one when omitted */
  date?: string;
  /** true: largest first; false: smallest first */
  ascending?: boolean;
  /** how many rows */
  count?: number;
}

export interface ScannerItem {
  /** trading day, YYYY-MM-DD */
  date: string;
  /** stock code */
  code: string;
  /** stock name */
  name: string;
  /** time of the last trade, ISO 8601 Taiwan wall clock without offset, up to microseconds */
  datetime: string;
  /** opening price */
  open: number;
  /** highest price of the day */
  high: number;
  /** lowest price of the day */
  low: number;
  /** last price */
  close: number;
  /** high minus low */
  price_range: number;
  /** side of the last trade: 1 inner, 2 outer, 0 undetermined (the opposite of the ticks codes) */
  tick_type: number;
  /** close minus the reference price */
  change_price: number;
  /** 1 LimitUp, 2 Up, 3 Unchanged, 4 Down, 5 LimitDown */
  change_type: number;
  /** volume-weighted average price of the day */
  average_price: number;
  /** volume of the last trade, lots */
  volume: number;
  /** volume of the day, lots */
  total_volume: number;
  /** value of the last trade, NTD */
  amount: number;
  /** value traded in the day, NTD */
  total_amount: number;
  /** total volume of the previous trading day, lots */
  yesterday_volume: number;
  /** total_volume / yesterday_volume */
  volume_ratio: number;
  /** best bid */
  buy_price: number;
  /** volume at the best bid, lots */
  buy_volume: number;
  /** best ask */
  sell_price: number;
  /** volume at the best ask, lots */
  sell_volume: number;
  /** number of trades at the bid (inner) in the day */
  bid_orders: number;
  /** volume traded at the bid (inner) in the day, lots */
  bid_volumes: number;
  /** number of trades at the ask (outer) in the day */
  ask_orders: number;
  /** volume traded at the ask (outer) in the day, lots */
  ask_volumes: number;
  /** the value ranked by scanner_type (e.g. the change percent) */
  rank_value: number;
}

export interface StockContractsRequest {
  /** stocks only: {security_type: STK, exchange: TSE or OTC, code} */
  contracts: ContractRef[];
}

export interface CreditEnquire {
  /** when the balances were updated, YYYY-MM-DD HH:MM:SS.ffffff Taiwan time */
  update_time: string;
  /** the broker's credit system the quota belongs to, e.g. ALL */
  system: string;
  /** stock code */
  stock_id: string;
  /** margin purchase balance (融資餘額), lots */
  margin_unit: number;
  /** short sale balance (融券餘額), lots */
  short_unit: number;
  /** margin loan ratio, percent (e.g. 60); 0 when not marginable */
  margin_loan_ratio: number;
  /** short sale margin ratio, percent (e.g. 90); 0 when not shortable */
  short_margin_ratio: number;
}

export interface ShortStockSource {
  /** stock code */
  code: string;
  /** shares available to borrow for short selling (借券賣出) */
  short_stock_source: number;
  /** time of the figure, ISO 8601 Taiwan wall clock without offset */
  datetime: string;
}

/** columnar: every key holds an array of the same length, one entry per stock */
export interface Punish {
  /** stock code of each disposition stock (處置股) */
  code: string[];
  /** first trading day of the measure, YYYY-MM-DD */
  start_date: string[];
  /** last trading day of the measure, YYYY-MM-DD */
  end_date: string[];
  /** when the row was published, ISO 8601 Taiwan wall clock without offset */
  updated_at: string[];
  /** match interval of the periodic call auction, e.g. '5分鐘', '20分鐘' */
  interval: string[];
  /** single-order size, lots, from which full prepayment applies; null: none */
  unit_limit: (number | null)[];
  /** a day's cumulative order size, lots, from which full prepayment applies; null: none */
  total_limit: (number | null)[];
  /** the measure as announced */
  description: string[];
  /** day of the announcement, YYYY-MM-DD */
  announced_date: string[];
}

/** columnar: every key holds an array of the same length, one entry per stock */
export interface Notice {
  /** stock code of each attention stock (注意股) */
  code: string[];
  /** when the row was published, ISO 8601 Taiwan wall clock without offset */
  updated_at: string[];
  /** closing price of the announced day, NTD */
  close: number[];
  /** the abnormal-trading criterion that was met */
  reason: string[];
  /** day of the announcement, YYYY-MM-DD */
  announced_date: string[];
}

export interface DailyQuotesRequest {
  /** YYYY-MM-DD; the trading day; the latest one when omitted */
  date?: string;
  /** leave warrants out */
  exclude?: boolean;
}

/** columnar: one entry per security that traded on the day */
export interface DailyQuotes {
  /** trading day, YYYY-MM-DD */
  Date: string[];
  /** security code */
  Code: string[];
  /** opening price */
  Open: number[];
  /** highest price */
  High: number[];
  /** lowest price */
  Low: number[];
  /** closing price */
  Close: number[];
  /** traded volume, shares */
  Volume: number[];
  /** number of trades */
  Transaction: number[];
  /** traded value, NTD */
  Amount: number[];
}

export interface IndexComponentsRequest {
  contract: ContractRef;
}

export interface BaseContract {
  security_type: string;
  region: string;
  exchange: string;
  code: string;
  target_code: string | null;
}

export interface IndexComponentEntry {
  contract: BaseContract;
  /** industry code */
  category: string;
  price: number;
  reference: number;
  price_chg: number;
  pct_chg: number;
  /** index points of the index's change this component makes */
  points: number;
  /** weight in the index at the references, parts per million */
  reference_weight_ppm: number;
  total_amount: number;
  /** share of the index's turnover, basis points */
  amount_share_bps: number;
  /** regular, reference_fallback (no trade yet) or indicative */
  price_source: string;
  /** active or suspended */
  trading_status: string;
  /** live, stale or unavailable */
  data_status: string;
  /** ISO 8601 of its last trade */
  source_at: string | null;
}

export interface IndexComponentGroup {
  category: string;
  name: string;
  item_count: number;
  equal_weight_pct_chg: number;
  weighted_pct_chg: number;
  points: number;
  reference_weight_ppm: number;
  total_amount: number;
  amount_share_bps: number;
  advance_count: number;
  decline_count: number;
  unchanged_count: number;
  /** (advances − declines) / members, basis points */
  breadth_bps: number;
}

export interface IndexComponents {
  /** ready, refreshing or degraded */
  refresh_state: string;
  contract: BaseContract;
  currency: string;
  /** YYYY-MM-DD, Taiwan */
  date: string;
  /** HH:MM:SS.ffffff, Taiwan */
  time: string;
  /** ISO 8601 */
  calculated_at: string;
  /** the trading day whose closes are the references */
  reference_date: string;
  /** opening_auction, continuous_trading, closing_auction or closed */
  market_phase: string;
  simtrade: boolean;
  classification: string;
  /** reference_market_cap */
  weight_method: string;
  total_amount: number;
  entries: IndexComponentEntry[];
  groups: IndexComponentGroup[];
}
