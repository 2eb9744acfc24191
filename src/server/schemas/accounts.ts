// Account schemas, and the account selector in both of its body forms (flat, or nested under `account`).

import Type from 'typebox';
import type { AccountSelector } from '../../domain/accounts.js';
import { InvalidRequestError } from '../../domain/errors.js';

const AccountType = Type.Enum(['S', 'F', 'H']);
const Id = Type.String({ minLength: 1, maxLength: 20 });

export const AccountSchema = Type.Object(
  {
    account_type: AccountType,
    person_id: Type.String(),
    broker_id: Type.String(),
    account_id: Type.String(),
    signed: Type.Boolean(),
    username: Type.String(),
  },
  { title: 'Account' },
);

const selectorFields = {
  account_type: Type.Optional(AccountType),
  broker_id: Type.Optional(Id),
  account_id: Type.Optional(Id),
  person_id: Type.Optional(Id),
};

/** `{account_type?, broker_id?, account_id?, person_id?}` or `{account: {...}}`. */
export const AccountRequestSchema = Type.Object(
  {
    ...selectorFields,
    account: Type.Optional(Type.Object(selectorFields, { additionalProperties: false })),
  },
  { additionalProperties: false, title: 'AccountRequest' },
);

type AccountRequest = AccountSelector & { account?: AccountSelector | undefined };

export function selectorOf(body: AccountRequest | undefined): AccountSelector {
  const { account, ...flat } = body ?? {};
  if (account === undefined) return flat;
  const overlap = (['broker_id', 'account_id', 'person_id'] as const).filter((k) => flat[k] !== undefined);
  if (overlap.length > 0) {
    throw new InvalidRequestError(`give the account either flat or under "account", not both (${overlap.join(', ')})`);
  }
  return { ...account, account_type: account.account_type ?? flat.account_type };
}
