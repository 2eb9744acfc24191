// The simulated brokerage accounts: one stock (S) and one futures (F) account, signed, for one person.

import type { Account, AccountSelector, AccountType } from '../../domain/accounts.js';
import { InvalidRequestError, NotFoundError } from '../../domain/errors.js';
import { hashKeys } from './random.js';

export const DEMO_PERSON_ID = 'A123456789';
const STOCK_BROKER_ID = '9A95';
const FUTURES_BROKER_ID = 'F002000';

/** A Taiwan-ID-shaped person id (letter, 1 or 2, eight digits) that depends only on the API key. */
export function personIdFor(apiKey: string | null): string {
  if (apiKey === null) return DEMO_PERSON_ID;
  const hash = hashKeys('person', apiKey);
  const letter = String.fromCharCode(65 + (hash % 26));
  const digits = String(hashKeys('digits', apiKey) % 100_000_000).padStart(8, '0');
  return `${letter}${1 + (hash % 2)}${digits}`;
}

const label = (a: Account) => `${a.broker_id}-${a.account_id} (${a.account_type})`;

export class SimAccounts {
  private readonly accounts: Account[];
  private readonly defaults = new Map<AccountType, Account>();
  constructor(apiKey: string | null) {
    const personId = personIdFor(apiKey);
    const accountNumber = (kind: string) => String(1_000_000 + (hashKeys(kind, personId) % 9_000_000));
    const account = (account_type: AccountType, broker_id: string): Account => ({
      account_type,
      person_id: personId,
      broker_id,
      account_id: accountNumber(account_type),
      signed: true,
      username: 'sjgate 模擬帳戶',
    });
    this.accounts = [account('S', STOCK_BROKER_ID), account('F', FUTURES_BROKER_ID)];
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

  setDefault(selector: AccountSelector): Account {
    if (selector.broker_id === undefined || selector.account_id === undefined) {
      throw new InvalidRequestError('broker_id and account_id name the account that becomes the default');
    }
    const account = this.resolve(selector);
    this.defaults.set(account.account_type, account);
    return { ...account };
  }
}
