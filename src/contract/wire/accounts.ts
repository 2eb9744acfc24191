export interface Account {
  account_type: 'S' | 'F' | 'H';
  person_id: string;
  broker_id: string;
  account_id: string;
  signed: boolean;
  username: string;
}

/** broker_id and account_id name the account; omitted, the default account of the type is used */
export interface AccountSelector {
  /** S, F or H; null means not given */
  account_type?: 'S' | 'F' | 'H' | null;
  /** the broker of the account; null means not given */
  broker_id?: string | null;
  /** the account; null means not given */
  account_id?: string | null;
  /** the person; "" is not given too; null means not given */
  person_id?: string | null;
  /** ignored; accepted so an Account object can be sent as is */
  signed?: boolean;
  /** ignored; accepted so an Account object can be sent as is */
  username?: string;
}

export interface AccountRequest {
  /** S, F or H; null means not given */
  account_type?: 'S' | 'F' | 'H' | null;
  /** the broker of the account; null means not given */
  broker_id?: string | null;
  /** the account; null means not given */
  account_id?: string | null;
  /** the person; "" is not given too; null means not given */
  person_id?: string | null;
  /** ignored; accepted so an Account object can be sent as is */
  signed?: boolean;
  /** ignored; accepted so an Account object can be sent as is */
  username?: string;
  account?: AccountSelector;
}

export interface SubscribeTradeResponse {
  account: Account;
  subscribe_trade: boolean;
  /** YYYYMMDDHHMMSS as a number, Taiwan time (an integer, as 1.7.9 reads it) */
  ts: number;
}

export interface CaExpireTime {
  person_id: string;
  /** ISO 8601, Taiwan time */
  expire_time: string;
}
