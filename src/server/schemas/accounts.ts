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

// The 1.7.9 CLI sends every selector field, null when not given (the default account), and an Account it embeds in
// an order has person_id "": both mean "not given". null is accepted here only, never where a value is required.
const NotGiven = (description: string) => ({ description: `${description}; null means not given` });
const selectorFields = {
  account_type: Type.Optional(Type.Union([AccountType, Type.Null()], NotGiven('S, F or H'))),
  broker_id: Type.Optional(Type.Union([Id, Type.Null()], NotGiven('the broker of the account'))),
  account_id: Type.Optional(Type.Union([Id, Type.Null()], NotGiven('the account'))),
  person_id: Type.Optional(
    Type.Union([Type.String({ maxLength: 20 }), Type.Null()], NotGiven('the person; "" is not given too')),
  ),
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

/** A selector as a body carries it: each field may be null (not given). */
export type AccountSelectorWire = { [K in keyof AccountSelector]?: AccountSelector[K] | null };
type AccountRequest = AccountSelectorWire & { account?: AccountSelectorWire | undefined };

/**
 * Only the four selector fields that are given: an Account's signed and username and a query's extras go, and so
 * do null and an empty person_id, which the 1.7.9 CLI sends for "not given".
 */
export function selectorFieldsOf(fields: AccountSelectorWire): AccountSelector {
  const selector: AccountSelector = {};
  for (const key of ['account_type', 'broker_id', 'account_id', 'person_id'] as const) {
    const value = fields[key];
    if (value !== undefined && value !== null && value !== '') selector[key] = value as never;
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
