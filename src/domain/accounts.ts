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
