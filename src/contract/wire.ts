// The wire types clients read: the parts of the gateway's JSON the dashboard uses, field names as the API sends
// them. test/contract.test.ts checks at compile time that the static type of the server's TypeBox schema of each
// answer is assignable to its type here (ServerInfo, Health and Usage excepted: their schemas are inline in the
// routes), so a field renamed or retyped in a schema fails the type check. The schemas themselves still live in
// src/server/schemas/, tied to the domain's enums.

export interface ServerInfo {
  version: string;
  sjgate_version?: string;
  simulation: boolean;
  /** Absent from the official server: there, SinoPac always answers. */
  backend?: 'simulator' | 'shioaji';
  sim_clock: string | null;
  sim_time: string | null;
  protocols: string[];
}

export interface Health {
  status: string;
  version: string;
  uptime_seconds: number;
  contract_count: number;
}

export interface Usage {
  connections: number;
  bytes: number;
  limit_bytes: number;
  remaining_bytes: number;
}

export interface Account {
  account_type: 'S' | 'F' | 'H';
  person_id: string;
  broker_id: string;
  account_id: string;
  signed: boolean;
  username: string;
}

export interface SubscribeTradeAnswer {
  account: Account;
  subscribe_trade: boolean;
  /** YYYYMMDDHHMMSS, Taiwan time, as a number. */
  ts: number;
}

/**
 * KBar and CalculatedIndex: the streams of POST /stream/subscribe/kbars and /calculated_index; IndexContribution,
 * IndustryContribution and IndexComponents those of the index analytics (/stream/subscribe/index_contribution, ...).
 */
export type QuoteType =
  | 'Tick'
  | 'BidAsk'
  | 'Quote'
  | 'KBar'
  | 'CalculatedIndex'
  | 'IndexContribution'
  | 'IndustryContribution'
  | 'IndexComponents';

/** The projection an index_components subscription holds; null where its kind has none. */
export interface IndexComponentsProjection {
  kind: string;
  target: string | null;
  metric: string;
  order: string | null;
  limit: number | null;
  group: string | null;
}

/** A product subscription as the daemon echoes it: the contract resolved (R1/R2 carry their target_code). */
export interface ProductSubscription {
  security_type: string;
  exchange: string;
  code: string;
  target_code: string | null;
  quote_type: QuoteType;
  intraday_odd: boolean;
  /** IndexContribution: top10, abs10, positive25 or negative25. */
  ranking?: string;
  /** IndexComponents: what of the components or their groups. */
  projection?: IndexComponentsProjection;
}

/** A combo subscription as the daemon echoes it: the legs resolved. */
export interface ComboSubscription {
  contract: {
    /** The combo's exchange code, if the daemon says it (it does not yet). */
    code?: string | null;
    legs: { security_type: string; code: string; target_code?: string | null }[];
    combo_type: string;
  };
  quote_type: QuoteType;
  intraday_odd: boolean;
}

export type Subscription = ProductSubscription | ComboSubscription;

/** The answer of POST /stream/subscribe and /stream/unsubscribe. */
export interface SubscribeAnswer {
  success: boolean;
  message: string;
  subscription: Subscription;
}

export interface SubscriptionList {
  subscriptions: Subscription[];
  /** Market scanners: {scanner, region, security_type, exchange}. */
  scanners?: { scanner: string; region: string; security_type: string; exchange: string }[];
  /** Quote and scanner subscriptions together. */
  count: number;
  limit: number;
  trade_accounts: string[];
}

export interface StreamStatus {
  active_connections: number;
  streams: Record<string, number>;
  dropped_clients: number;
  replay_buffer: { events: number; bytes: number };
}

export type SecurityType = 'STK' | 'FUT' | 'OPT' | 'IND' | 'WRT';

/** A contract's identity, as a lookup by code and the contract list answer it. */
export interface Contract {
  security_type: SecurityType;
  region: string;
  exchange: string;
  code: string;
  target_code: string | null;
}

/** GET /data/contracts: the contracts of a security type, all of them or one page. */
export interface ContractList {
  contracts: Contract[];
  security_type: SecurityType;
  region: string;
  total: number;
  page?: number;
  page_size?: number;
  max_page?: number;
}

/** The tick size by price band of a futures or options tick rule. */
export interface TickBandRule {
  region: string;
  security_type: 'FUT' | 'OPT';
  rule: string;
  basis: 'price' | 'premium';
  bands: { min: number; max: number | null; tick: number }[];
}

export interface ContractInfo {
  security_type: SecurityType;
  exchange: string;
  code: string;
  target_code: string | null;
  name: string;
  reference: number;
  limit_up?: number;
  limit_down?: number;
}

export interface Snapshot {
  datetime: string;
  code: string;
  close: number;
  change_price: number;
  change_rate: number;
  total_volume: number;
  buy_price: number;
  sell_price: number;
}

export interface Kbars {
  datetime: string[];
  Open: number[];
  High: number[];
  Low: number[];
  Close: number[];
  Volume: number[];
}

export interface Deal {
  seq: string;
  price: number;
  quantity: number;
  ts: number;
}

export interface Trade {
  contract: { security_type: string; code: string; target_code: string | null };
  order: {
    id: string;
    action: 'Buy' | 'Sell';
    price: number;
    quantity: number;
    price_type: string;
    order_type: string;
    account: Account;
  };
  status: {
    status: string;
    msg: string;
    order_ts: number;
    deal_quantity: number;
    cancel_quantity: number;
    deals: Deal[];
    /** sjgate's: every rule a refused new order breaks, the first being msg. */
    violations?: { rule: string; op_code: string; msg: string }[];
  };
}

export interface Position {
  id: number;
  code: string;
  direction: 'Buy' | 'Sell';
  quantity: number;
  price: number;
  last_price: number;
  pnl: number;
}

export interface AppList {
  apps: string[];
}

export interface AppUploaded {
  name: string;
  files: string[];
}

export interface AppDeleted {
  deleted: string;
}

/** POST /portfolio/profitloss_sum: one row per code (stock or futures columns), and the total. */
export interface ProfitLossSummary {
  profitloss_sum: Record<string, unknown>[];
  total: Record<string, unknown>;
}

/** A person's named list of contracts (GET /api/v1/watchlist). */
export interface Watchlist {
  /** wl-<number> */
  id: string;
  person_id: string;
  name: string;
  contracts: Contract[];
}
