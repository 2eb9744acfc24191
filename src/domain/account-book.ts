// A person's brokerage accounts: the default of each type, and how a request's selector names one. Every venue
// answers the same way: the simulator with its made-up accounts, the bridge with the ones SinoPac's login returned.

import type { Account, AccountSelector, AccountType } from './accounts.js';
import { InvalidRequestError, NotFoundError } from './errors.js';
import { taipeiDate } from './time.js';

const label = (a: Account) => `${a.broker_id}-${a.account_id} (${a.account_type})`;

/**
 * When the simulated signing certificate of a person expires: the last second of the year after the simulated
 * day, so it is always valid and its expiry moves only once a year, as a real certificate's does at renewal.
 */
export function simulatedCaExpiry(now: number): string {
  const year = Number(taipeiDate(now).slice(0, 4)) + 1;
  return `${year}-12-31T23:59:59.000+08:00`;
}

export class AccountBook {
  private accounts: Account[] = [];
  private readonly defaults = new Map<AccountType, Account>();

  constructor(accounts: Account[] = []) {
    this.replace(accounts);
  }

  /** Takes a new list (after a login), keeping each chosen default that is still in it. */
  replace(accounts: Account[]): void {
    this.accounts = accounts.map((a) => ({ ...a }));
    for (const [type, chosen] of this.defaults) {
      const kept = this.accounts.find((a) => a.broker_id === chosen.broker_id && a.account_id === chosen.account_id);
      if (kept) this.defaults.set(type, kept);
      else this.defaults.delete(type);
    }
    for (const a of this.accounts) if (!this.defaults.has(a.account_type)) this.defaults.set(a.account_type, a);
  }

  list(): Account[] {
    return this.accounts.map((a) => ({ ...a }));
  }

  defaultAccount(type: AccountType): Account {
    const found = this.defaults.get(type);
    if (!found) throw new NotFoundError('ACCOUNT_NOT_FOUND', `there is no ${type} account`);
    return found;
  }

  resolve(selector: AccountSelector): Account {
    const { account_type: type, broker_id: brokerId, account_id: accountId } = selector;
    if (brokerId === undefined && accountId === undefined) return this.defaultAccount(type ?? 'S');
    if (brokerId === undefined || accountId === undefined) {
      throw new InvalidRequestError('an account is named by both broker_id and account_id; give both or neither');
    }
    const found = this.accounts.find(
      (a) =>
        a.broker_id === brokerId &&
        a.account_id === accountId &&
        (type === undefined || a.account_type === type) &&
        (selector.person_id === undefined || a.person_id === selector.person_id),
    );
    if (!found) {
      throw new NotFoundError(
        'ACCOUNT_NOT_FOUND',
        `no account ${brokerId}-${accountId}; accounts: ${this.accounts.map(label).join(', ')}`,
      );
    }
    return found;
  }

  /** The person a certificate is asked for must be the accounts' person. */
  requirePerson(personId: string): void {
    if (this.accounts.some((a) => a.person_id === personId)) return;
    const known = [...new Set(this.accounts.map((a) => a.person_id))].join(', ');
    throw new NotFoundError('ACCOUNT_NOT_FOUND', `no certificate for person ${personId}; the accounts are ${known}'s`);
  }

  setDefault(selector: AccountSelector): Account {
    if (selector.broker_id === undefined || selector.account_id === undefined) {
      throw new InvalidRequestError('broker_id and account_id name the account that becomes the default');
    }
    const account = this.resolve(selector);
    this.defaults.set(account.account_type, account);
    return { ...account };
  }
}
