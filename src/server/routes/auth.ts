// Accounts, the default account, and usage.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { AUTH_ROUTES } from '../../contract/paths.js';
import type { Gateway } from '../../gateway/gateway.js';
import { AccountRequestSchema, AccountSchema, selectorOf } from '../schemas/accounts.js';
import { errorResponses } from '../schemas/common.js';

export const CaExpireTimeSchema = Type.Object({
  person_id: Type.String(),
  expire_time: Type.String({ description: 'ISO 8601, Taiwan time' }),
});

const tags = ['auth'];

export function authRoutes(gateway: Gateway): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      AUTH_ROUTES.accounts,
      { schema: { tags, summary: 'Accounts of the logged-in person', response: { 200: Type.Array(AccountSchema) } } },
      async () => gateway.accounts.list(),
    );

    app.get(
      AUTH_ROUTES.defaultAccount,
      {
        schema: {
          tags,
          summary: 'The default account of a type',
          description: 'The account used by requests of that type that omit broker_id/account_id.',
          querystring: Type.Object(
            { account_type: Type.Enum(['S', 'F', 'H'], { default: 'S' }) },
            { additionalProperties: false },
          ),
          response: { 200: AccountSchema, ...errorResponses(404, 422) },
        },
      },
      async ({ query }) => gateway.accounts.defaultAccount(query.account_type),
    );

    app.post(
      AUTH_ROUTES.defaultAccount,
      {
        schema: {
          tags,
          summary: 'Make an account the default of its type',
          description: 'Requests that omit broker_id/account_id use the default account of their type.',
          body: AccountRequestSchema,
          response: { 200: AccountSchema, ...errorResponses(400, 404, 422) },
        },
      },
      async ({ body }) => gateway.accounts.setDefault(selectorOf(body)),
    );

    app.get(
      AUTH_ROUTES.usage,
      {
        schema: {
          tags,
          summary: 'Connections and daily query traffic',
          response: {
            200: Type.Object({
              connections: Type.Integer(),
              bytes: Type.Integer(),
              limit_bytes: Type.Integer(),
              remaining_bytes: Type.Integer(),
            }),
          },
        },
      },
      async () => gateway.accounts.usage(),
    );

    app.get(
      AUTH_ROUTES.caExpireTime,
      {
        schema: {
          tags,
          summary: "When a person's signing certificate expires",
          description:
            "In production, SinoPac's answer for the certificate activated at login (SJ_CA_PATH); in simulation, a " +
            'certificate valid to the end of the year after the simulated day.',
          querystring: Type.Object(
            { person_id: Type.String({ minLength: 1, maxLength: 20 }) },
            { additionalProperties: false },
          ),
          response: {
            200: CaExpireTimeSchema,
            ...errorResponses(404, 422, 503, 504),
          },
        },
      },
      async ({ query }) => ({
        person_id: query.person_id,
        expire_time: await gateway.accounts.caExpireTime(query.person_id),
      }),
    );
  };
}
