export interface Account {
  account_type: 'S' | 'F' | 'H';
  person_id: string;
  broker_id: string;
  account_id: string;
  signed: boolean;
  username: string;
}

/** The fields that name an account; omitted, the default account of the type is used. */
export interface AccountFields<Type> {
  /** the type of account the query is about (the default account of that type when no ids are given) */
  account_type?: Type;
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

/**
 * A body naming an account: `{}` (or no body) means the default account of the type; broker_id and account_id (flat
 * or under `account`) name another.
 */
export interface AccountQuery<Type> extends AccountFields<Type> {
  /** the account nested instead of flat; an Account from /auth/accounts may be sent as is */
  account?: AccountFields<Type>;
}

/** broker_id and account_id name the account; omitted, the default account of the type is used */
export type AccountSelector = AccountFields<'S' | 'F' | 'H' | null>;

export type AccountRequest = AccountQuery<'S' | 'F' | 'H' | null>;

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
