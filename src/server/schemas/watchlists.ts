// Schemas of the watchlists API: the bodies that name contracts, and the Watchlist answered.

import Type, { type Static } from 'typebox';
import type { Watchlist } from '../../gateway/gateway.js';
import { MAX_WATCHLIST_CONTRACTS, MAX_WATCHLIST_NAME } from '../../gateway/watchlists.js';
import { ContractSchema } from './contracts.js';
import { ContractRefSchema } from './market-data.js';

export const WatchlistSchema = Type.Object(
  {
    id: Type.String({ description: 'wl-<number>' }),
    person_id: Type.String({ description: 'the person of the accounts: each person sees only their own lists' }),
    name: Type.String(),
    contracts: Type.Array(ContractSchema, { description: 'in the order given, each once' }),
  },
  { title: 'Watchlist' },
);

export const WatchlistIdParam = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 40, description: 'wl-<number>, as the list was answered' }),
});

const Name = Type.String({
  minLength: 1,
  maxLength: MAX_WATCHLIST_NAME,
  pattern: '\\S',
  description: `1 to ${MAX_WATCHLIST_NAME} characters, not only spaces; spaces around it are dropped`,
});

const Contracts = Type.Array(ContractRefSchema, {
  maxItems: MAX_WATCHLIST_CONTRACTS,
  description:
    `contracts {security_type?, exchange?, code}, at most ${MAX_WATCHLIST_CONTRACTS} (a list holds at most ` +
    `${MAX_WATCHLIST_CONTRACTS}); a Contract from the contracts API is accepted as is`,
});

export const WatchlistCreateSchema = Type.Object(
  { name: Name, contracts: Type.Optional(Contracts) },
  { additionalProperties: false, title: 'WatchlistCreateRequest' },
);

export const WatchlistReplaceSchema = Type.Object(
  { contracts: Contracts, name: Type.Optional(Name) },
  { additionalProperties: false, title: 'WatchlistReplaceRequest' },
);

export const WatchlistContractsSchema = Type.Object(
  { contracts: Contracts },
  { additionalProperties: false, title: 'WatchlistContractsRequest' },
);

// Compile-time proof that the response schema and the gateway's type describe the same JSON.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const proof: Same<Static<typeof WatchlistSchema>['name'], Watchlist['name']> = true;
void proof;
