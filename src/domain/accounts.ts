// Brokerage accounts as Shioaji reports them.

export type AccountType = 'S' | 'F' | 'H';

export interface Account {
  account_type: AccountType;
  person_id: string;
  broker_id: string;
  account_id: string;
  signed: boolean;
  username: string;
}

/** How a request names an account: everything optional; omitted ids mean the default of the type. */
export interface AccountSelector {
  account_type?: AccountType | undefined;
  broker_id?: string | undefined;
  account_id?: string | undefined;
  person_id?: string | undefined;
}

/** `broker_id-account_id`: how the broker's books (orders, ledger, journal) key an account. */
export const accountKeyOf = (account: Pick<Account, 'broker_id' | 'account_id'>): string =>
  `${account.broker_id}-${account.account_id}`;
