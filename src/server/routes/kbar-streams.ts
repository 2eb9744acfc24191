// The kbar stream of 1.7.1: the completed one-minute bars of stocks, many per call, on the `kbar` SSE family. Each
// stock is one subscription among the 200 a session holds, kept and restored like the others.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { STREAM_ROUTES } from '../../contract/paths.js';
import type { Gateway } from '../../gateway/gateway.js';
import { errorResponses } from '../schemas/common.js';
import { ContractRefSchema } from '../schemas/market-data.js';
import type { StreamServices } from '../sse/services.js';

const tags = ['stream'];

const KbarsBodySchema = Type.Object(
  { stocks: Type.Array(ContractRefSchema, { minItems: 1, maxItems: 200, description: 'stocks: {code} is enough' }) },
  { additionalProperties: false, title: 'KbarSubscriptionRequest' },
);

const CapabilityResponseSchema = Type.Object(
  { success: Type.Boolean(), message: Type.String() },
  { title: 'CapabilitySubscriptionResponse' },
);

export function kbarStreamRoutes(gateway: Gateway, { subscriptions }: StreamServices): FastifyPluginAsync {
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
            'Each bar comes on the kbar stream once its minute is over (with the first trade of a later minute), ' +
            'equal to the bar GET /data/kbars answers for it; `time` is its start. Stocks only; each is one of ' +
            'the 200 subscriptions. Nothing is subscribed when one of them is refused.',
          body: KbarsBodySchema,
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
          body: KbarsBodySchema,
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
  };
}

const codes = (stocks: { code: string }[]) => stocks.map((stock) => stock.code).join(', ');
