// The wire types clients read: the parts of the gateway's JSON the dashboard uses, field names as the API sends
// them. test/contract.test.ts checks at compile time that the static type of the server's TypeBox schema of each
// answer is assignable to its type here (ServerInfo, Health and Usage excepted: their schemas are inline in the
// routes), so a field renamed or retyped in a schema fails the type check. The schemas themselves still live in
// src/server/schemas/, tied to the domain's enums.

export interface ServerInfo {
  version: string;
  simulation: boolean;
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
  ts: string;
}

export interface ProductSubscription {
  security_type: string;
  exchange: string;
  code: string;
  target_code: string | null;
  quote_type: string;
  intraday_odd: boolean;
}

export interface ComboSubscription {
  contract: { legs: { code: string; target_code?: string | null }[]; combo_type: string };
  quote_type: string;
  intraday_odd: boolean;
}

export type Subscription = ProductSubscription | ComboSubscription;

export interface SubscriptionList {
  subscriptions: Subscription[];
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
