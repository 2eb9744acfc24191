// The streams 1.7.1 added, each with its own subscribe routes: `kbar` (the completed one-minute bars of stocks, many
// per call) and `calculated_index` (IX0001 or IX0043 recomputed from its constituents). Each stock or index is one
// subscription among the 200 a session holds, kept and restored like the others.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { STREAM_ROUTES } from '../../contract/paths.js';
import type { Gateway } from '../../gateway/gateway.js';
import { errorResponses } from '../schemas/common.js';
import { ContractRefSchema } from '../schemas/market-data.js';
import type { StreamServices } from '../sse/services.js';

const tags = ['stream'];

export const KbarsSubscriptionBodySchema = Type.Object(
  { stocks: Type.Array(ContractRefSchema, { minItems: 1, maxItems: 200, description: 'stocks: {code} is enough' }) },
  { additionalProperties: false, title: 'KbarSubscriptionRequest' },
);

const CapabilityResponseSchema = Type.Object(
  { success: Type.Boolean(), message: Type.String() },
  { title: 'CapabilitySubscriptionResponse' },
);

export const IndexBodySchema = Type.Object(
  { index: ContractRefSchema },
  { additionalProperties: false, title: 'CalculatedIndexSubscriptionRequest' },
);

export function derivedStreamRoutes(gateway: Gateway, { subscriptions }: StreamServices): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const request = (contract: { code: string }) => ({ contract, quoteType: 'KBar' as const, intradayOdd: false });

    app.post(
      STREAM_ROUTES.subscribeKbars,
      {
        schema: {
          tags,
          summary: "Stream stocks' completed one-minute bars (kbar)",
          description:
            'Each bar comes on the kbar stream once its minute is over (with the first trade of a later minute, or at ' +
            'once for a trade on the minute itself, such as the 13:30 closing auction), ' +
            'equal to the bar GET /data/kbars answers for it; `time` is its start. Stocks only; each is one of ' +
            'the 200 subscriptions. Nothing is subscribed when one of them is refused.',
          body: KbarsSubscriptionBodySchema,
          response: { 200: CapabilityResponseSchema, ...errorResponses(400, 404, 422, 429, 507) },
        },
      },
      async ({ body }) => {
        // Every stock is checked before any is subscribed.
        for (const stock of body.stocks) await gateway.quotes.resolve(request(stock));
        for (const stock of body.stocks) await subscriptions.subscribe(request(stock));
        return { success: true, message: `Subscribed to the kbars of ${codes(body.stocks)}` };
      },
    );

    app.post(
      STREAM_ROUTES.unsubscribeKbars,
      {
        schema: {
          tags,
          summary: 'Stop the kbar stream of stocks',
          description: 'success is false, naming them, when some of the stocks were not subscribed.',
          body: KbarsSubscriptionBodySchema,
          response: { 200: CapabilityResponseSchema, ...errorResponses(400, 404, 422) },
        },
      },
      async ({ body }) => {
        const missing: string[] = [];
        for (const stock of body.stocks) {
          const { wasSubscribed } = await subscriptions.unsubscribe(request(stock));
          if (!wasSubscribed) missing.push(stock.code);
        }
        return missing.length === 0
          ? { success: true, message: `Unsubscribed from the kbars of ${codes(body.stocks)}` }
          : { success: false, message: `No kbar subscription of ${missing.join(', ')}` };
      },
    );

    const index = (contract: { code: string }) => ({
      contract,
      quoteType: 'CalculatedIndex' as const,
      intradayOdd: false,
    });
    app.post(
      STREAM_ROUTES.subscribeCalculatedIndex,
      {
        schema: {
          tags,
          summary: 'Stream an index recomputed from its constituents (calculated_index)',
          description:
            "IX0001 (TAIEX) or IX0043 (TPEx): one event at each recomputation, with the day's open, high, low, " +
            'turnover and the change from the reference. One of the 200 subscriptions.',
          body: IndexBodySchema,
          response: { 200: CapabilityResponseSchema, ...errorResponses(400, 404, 422, 429, 507) },
        },
      },
      async ({ body }) => {
        await subscriptions.subscribe(index(body.index));
        return { success: true, message: `Subscribed to the calculated index of ${body.index.code}` };
      },
    );

    app.post(
      STREAM_ROUTES.unsubscribeCalculatedIndex,
      {
        schema: {
          tags,
          summary: 'Stop the calculated_index stream of an index',
          body: IndexBodySchema,
          response: { 200: CapabilityResponseSchema, ...errorResponses(400, 404, 422) },
        },
      },
      async ({ body }) => {
        const { wasSubscribed } = await subscriptions.unsubscribe(index(body.index));
        return wasSubscribed
          ? { success: true, message: `Unsubscribed from the calculated index of ${body.index.code}` }
          : { success: false, message: `No calculated_index subscription of ${body.index.code}` };
      },
    );
  };
}

const codes = (stocks: { code: string }[]) => stocks.map((stock) => stock.code).join(', ');
