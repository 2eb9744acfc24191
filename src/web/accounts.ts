// The accounts of the signed-in person, which of them is the default of its type, and order reports for all of
// them: order_event carries an account's reports only after subscribe_trade.

import { client } from './api';
import type { Account } from './types';

export interface AccountView extends Account {
  isDefault: boolean;
}

export const accountKey = (account: Pick<Account, 'broker_id' | 'account_id'>) =>
  `${account.broker_id}-${account.account_id}`;

async function subscribeTrade(selector: Partial<Account>): Promise<Account> {
  const answer = await client.auth.subscribeTrade(selector);
  return answer.account;
}

/** Lists the accounts and subscribes each stock and futures account to its order reports. */
export async function loadAccounts(): Promise<AccountView[]> {
  const accounts = await client.auth.accounts();
  const defaults = new Set<string>();
  for (const type of ['S', 'F'] as const) {
    // Without ids, subscribe_trade picks the default account of the type, and says which one it is.
    if (accounts.some((a) => a.account_type === type))
      defaults.add(accountKey(await subscribeTrade({ account_type: type })));
  }
  for (const account of accounts) {
    if (account.account_type === 'H' || defaults.has(accountKey(account))) continue;
    const { account_type, broker_id, account_id } = account;
    await subscribeTrade({ account_type, broker_id, account_id });
  }
  return accounts.map((account) => ({ ...account, isDefault: defaults.has(accountKey(account)) }));
}

export const ACCOUNT_TYPE_NAMES: Record<Account['account_type'], string> = {
  S: 'Stock',
  F: 'Futures',
  H: 'International',
};
