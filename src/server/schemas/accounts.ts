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
  // An Account from /auth/accounts or from a Trade may be sent back as it is: its other two fields are ignored.
  signed: Type.Optional(Type.Boolean({ description: 'ignored; accepted so an Account object can be sent as is' })),
  username: Type.Optional(Type.String({ description: 'ignored; accepted so an Account object can be sent as is' })),
};

/** An account named in a body: `{broker_id, account_id}` is enough; omitted, the default account of the type. */
export const AccountSelectorSchema = Type.Object(selectorFields, {
  additionalProperties: false,
  title: 'AccountSelector',
  description: 'broker_id and account_id name the account; omitted, the default account of the type is used',
});

/** `{account_type?, broker_id?, account_id?, person_id?}` or `{account: {...}}`. */
export const AccountRequestSchema = Type.Object(
  { ...selectorFields, account: Type.Optional(AccountSelectorSchema) },
  { additionalProperties: false, title: 'AccountRequest' },
);

type AccountRequest = AccountSelector & { account?: AccountSelector | undefined };

/** Only the four selector fields that are present: an Account's signed and username and a query's extras go. */
export function selectorFieldsOf(fields: AccountSelector): AccountSelector {
  const selector: AccountSelector = {};
  for (const key of ['account_type', 'broker_id', 'account_id', 'person_id'] as const) {
    if (fields[key] !== undefined) selector[key] = fields[key] as never;
  }
  return selector;
}

/** The account a body names, flat or under `account` (400 when given both ways). */
export function selectorOf(body: AccountRequest | undefined): AccountSelector {
  const { account, ...rest } = body ?? {};
  const flat = selectorFieldsOf(rest);
  if (account === undefined) return flat;
  const overlap = (['broker_id', 'account_id', 'person_id'] as const).filter((k) => flat[k] !== undefined);
  if (overlap.length > 0) {
    throw new InvalidRequestError(`give the account either flat or under "account", not both (${overlap.join(', ')})`);
  }
  const nested = selectorFieldsOf(account);
  const accountType = nested.account_type ?? flat.account_type;
  return accountType === undefined ? nested : { ...nested, account_type: accountType };
}
