// Watchlists: a person's named lists of contracts, kept by the gateway across restarts.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { WATCHLIST_PATHS, WATCHLIST_ROUTES } from '../../contract/paths.js';
import type { Gateway } from '../../gateway/gateway.js';
import { MAX_WATCHLIST_CONTRACTS, MAX_WATCHLISTS } from '../../gateway/watchlists.js';
import { operationRef } from '../openapi.js';
import { errorResponses } from '../schemas/common.js';
import {
  WatchlistContractsSchema,
  WatchlistCreateSchema,
  WatchlistIdParam,
  WatchlistReplaceSchema,
  WatchlistSchema,
} from '../schemas/watchlists.js';

const tags = ['watchlist'];
const params = WatchlistIdParam;
// The id of a list just made names it in every other route (clients and API fuzzers follow these links).
const byId = { id: '$response.body#/id' };
const LINKS = {
  200: {
    GetWatchlist: { operationRef: operationRef(WATCHLIST_PATHS.watchlist, 'get'), parameters: byId },
    ReplaceContracts: { operationRef: operationRef(WATCHLIST_PATHS.watchlist, 'put'), parameters: byId },
    AddContracts: { operationRef: operationRef(WATCHLIST_PATHS.contracts, 'post'), parameters: byId },
    RemoveContracts: { operationRef: operationRef(WATCHLIST_PATHS.contracts, 'delete'), parameters: byId },
    DeleteWatchlist: { operationRef: operationRef(WATCHLIST_PATHS.watchlist, 'delete'), parameters: byId },
  },
};
const CHECKED =
  'Every contract is looked up in the catalog (404 CONTRACT_NOT_FOUND for an unknown one) and kept once, in order; ' +
  `a list holds at most ${MAX_WATCHLIST_CONTRACTS} contracts (400 beyond).`;

export function watchlistRoutes(gateway: Gateway): FastifyPluginAsync {
  const watchlists = gateway.watchlists;
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      WATCHLIST_ROUTES.watchlists,
      {
        schema: {
          tags,
          summary: "The logged-in person's watchlists",
          response: { 200: Type.Array(WatchlistSchema) },
        },
      },
      async () => watchlists.list(),
    );

    app.post(
      WATCHLIST_ROUTES.watchlists,
      {
        links: LINKS,
        schema: {
          tags,
          summary: 'Create a watchlist',
          description: `${CHECKED} A person has at most ${MAX_WATCHLISTS} watchlists (400 beyond).`,
          body: WatchlistCreateSchema,
          response: { 200: WatchlistSchema, ...errorResponses(400, 404, 422) },
        },
      },
      async ({ body }) => watchlists.create(body.name, body.contracts),
    );

    app.get(
      WATCHLIST_ROUTES.watchlist,
      {
        schema: {
          tags,
          summary: 'One watchlist',
          params,
          response: { 200: WatchlistSchema, ...errorResponses(404, 422) },
        },
      },
      async ({ params }) => watchlists.get(params.id),
    );

    app.put(
      WATCHLIST_ROUTES.watchlist,
      {
        schema: {
          tags,
          summary: "Replace a watchlist's contracts",
          description: `${CHECKED} A name renames the list.`,
          params,
          body: WatchlistReplaceSchema,
          response: { 200: WatchlistSchema, ...errorResponses(400, 404, 422) },
        },
      },
      async ({ params, body }) => watchlists.replace(params.id, body.contracts, body.name),
    );

    app.delete(
      WATCHLIST_ROUTES.watchlist,
      {
        schema: {
          tags,
          summary: 'Delete a watchlist',
          description: 'Answers the list as it was.',
          params,
          response: { 200: WatchlistSchema, ...errorResponses(404, 422) },
        },
      },
      async ({ params }) => watchlists.delete(params.id),
    );

    app.post(
      WATCHLIST_ROUTES.contracts,
      {
        schema: {
          tags,
          summary: 'Add contracts to a watchlist',
          description: `Added at the end; those already in the list stay where they are. ${CHECKED}`,
          params,
          body: WatchlistContractsSchema,
          response: { 200: WatchlistSchema, ...errorResponses(400, 404, 422) },
        },
      },
      async ({ params, body }) => watchlists.add(params.id, body.contracts),
    );

    app.delete(
      WATCHLIST_ROUTES.contracts,
      {
        schema: {
          tags,
          summary: 'Remove contracts from a watchlist',
          description:
            'The body (JSON, on DELETE) names the contracts by code, and by security_type when given. A code not in ' +
            'the list is ignored, and the catalog is not asked: a contract no longer listed can still be removed.',
          params,
          body: WatchlistContractsSchema,
          response: { 200: WatchlistSchema, ...errorResponses(400, 404, 422) },
        },
      },
      async ({ params, body }) => watchlists.remove(params.id, body.contracts),
    );
  };
}
