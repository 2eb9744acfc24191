// The index analytics of IX0001 and IX0043: three streams with their own subscribe routes (index_contribution, a
// ranking of the components' points; industry_contribution, the points of each industry; index_components, a
// projection of the components or their industry groups) and the whole decomposition at once
// (POST /data/index_components). Each distinct (index, ranking) or (index, projection) is one subscription among
// the 200 a session holds, kept and restored like the others.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { MARKET_DATA_ROUTES, STREAM_ROUTES } from '../../contract/paths.js';
import { projectionValue } from '../../domain/index-projections.js';
import type { ContractRef } from '../../domain/market-data.js';
import type { IndexAnalyticsType, QuoteSubscription } from '../../domain/quotes.js';
import type { Gateway } from '../../gateway/gateway.js';
import { errorResponses } from '../schemas/common.js';
import {
  IndexComponentsBodySchema,
  IndexComponentsRequestSchema,
  IndexComponentsSchema,
  IndexContributionBodySchema,
  IndustryContributionBodySchema,
} from '../schemas/index-streams.js';
import type { StreamServices } from '../sse/services.js';

const tags = ['stream'];

const CapabilityResponseSchema = Type.Object(
  { success: Type.Boolean(), message: Type.String() },
  { title: 'CapabilitySubscriptionResponse' },
);

const SUBSCRIBE_ERRORS = errorResponses(400, 404, 422, 429, 507);
const UNSUBSCRIBE_ERRORS = errorResponses(400, 404, 422);

/** How a held subscription is named in messages: `IX0001 top10`, `IX0001 rank/component/contribution/desc/10`. */
function nameOf(subscription: QuoteSubscription): string {
  if ('contract' in subscription) return '';
  const view = subscription.ranking ?? (subscription.projection ? projectionValue(subscription.projection) : null);
  return view ? `${subscription.code} ${view}` : subscription.code;
}

export function indexStreamRoutes(gateway: Gateway, { subscriptions }: StreamServices): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    /** The subscribe and unsubscribe routes of one family, from how a body names the subscription. */
    const pair = <B extends { index: ContractRef }>(
      quoteType: IndexAnalyticsType,
      family: string,
      routes: { subscribe: string; unsubscribe: string },
      schema:
        | typeof IndexContributionBodySchema
        | typeof IndustryContributionBodySchema
        | typeof IndexComponentsBodySchema,
      summary: string,
      description: string,
      extra: (body: B) => object,
    ) => {
      const input = (body: B) => ({ contract: body.index, quoteType, intradayOdd: false, ...extra(body) });
      app.post(
        routes.subscribe,
        {
          schema: {
            tags,
            summary,
            description: `${description} One of the 200 subscriptions.`,
            body: schema,
            response: { 200: CapabilityResponseSchema, ...SUBSCRIBE_ERRORS },
          },
        },
        async ({ body }) => {
          const held = await subscriptions.subscribe(input(body as B));
          return { success: true, message: `Subscribed to the ${family} of ${nameOf(held)}` };
        },
      );
      app.post(
        routes.unsubscribe,
        {
          schema: {
            tags,
            summary: `Stop a ${family} stream (same body as its subscribe)`,
            description: 'success is false, naming it, when that stream was not subscribed.',
            body: schema,
            response: { 200: CapabilityResponseSchema, ...UNSUBSCRIBE_ERRORS },
          },
        },
        async ({ body }) => {
          const { subscription, wasSubscribed } = await subscriptions.unsubscribe(input(body as B));
          return wasSubscribed
            ? { success: true, message: `Unsubscribed from the ${family} of ${nameOf(subscription)}` }
            : { success: false, message: `No ${family} subscription of ${nameOf(subscription)}` };
        },
      );
    };

    pair<{ index: ContractRef; ranking: 'top10' | 'abs10' | 'positive25' | 'negative25' }>(
      'IndexContribution',
      'index_contribution',
      { subscribe: STREAM_ROUTES.subscribeIndexContribution, unsubscribe: STREAM_ROUTES.unsubscribeIndexContribution },
      IndexContributionBodySchema,
      "Stream a ranking of the index's components by the points they add to its change (index_contribution)",
      'IX0001 (TAIEX) or IX0043 (TPEx), at each update of the index: top10 (most points), abs10 (most points either ' +
        'way), positive25, negative25, each component with its price, reference, change and points. Each ranking ' +
        'of each index is its own subscription.',
      (body) => ({ ranking: body.ranking }),
    );

    pair<{ index: ContractRef }>(
      'IndustryContribution',
      'industry_contribution',
      {
        subscribe: STREAM_ROUTES.subscribeIndustryContribution,
        unsubscribe: STREAM_ROUTES.unsubscribeIndustryContribution,
      },
      IndustryContributionBodySchema,
      "Stream the points each industry adds to the index's change (industry_contribution)",
      'IX0001 or IX0043, at each update of the index: every industry code with its points, which add up to ' +
        'index_price_chg, and the index_close they decompose.',
      () => ({}),
    );

    pair<{ index: ContractRef; projection: Record<string, unknown> }>(
      'IndexComponents',
      'index_components',
      { subscribe: STREAM_ROUTES.subscribeIndexComponents, unsubscribe: STREAM_ROUTES.unsubscribeIndexComponents },
      IndexComponentsBodySchema,
      'Stream a projection of the index components or their industry groups (index_components)',
      'IX0001 or IX0043, at each update of the index, each event a full replacement: a ranking of components ' +
        '(entries) or of groups, or one metric of every group (unit and groups). Only the pairings SinoPac serves ' +
        'are accepted; another is a 400 listing them. Each projection of each index is its own subscription.',
      (body) => ({ projection: body.projection }),
    );

    app.post(
      MARKET_DATA_ROUTES.indexComponents,
      {
        config: { rateGroups: ['market-data'] },
        schema: {
          tags: ['data'],
          summary: 'The components of IX0001 or IX0043 now: weights, points, turnover and industry groups',
          description:
            'Every component with its price, reference, change, the index points it adds (they add up to the ' +
            "index's change), its weight at the references (ppm) and share of turnover (bps); every industry group " +
            'with its points, performance, weight, turnover and breadth. Other contracts are a 400.',
          body: IndexComponentsRequestSchema,
          response: { 200: IndexComponentsSchema, ...errorResponses(400, 404, 422, 429) },
        },
      },
      async ({ body }) => gateway.marketData.indexComponents(body.contract),
    );
  };
}
