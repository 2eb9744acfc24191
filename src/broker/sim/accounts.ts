// The simulated brokerage accounts: one stock (S) and one futures (F) account, signed, for one person.

import { AccountBook } from '../../domain/account-book.js';
import type { Account, AccountType } from '../../domain/accounts.js';
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

export class SimAccounts extends AccountBook {
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
    super([account('S', STOCK_BROKER_ID), account('F', FUTURES_BROKER_ID)]);
  }
}
