// Streams: quote subscriptions, report subscriptions per account, the SSE streams and their status.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import Type, { type Static } from 'typebox';
import { AUTH_ROUTES, SSE_ROUTES, STREAM_PATHS, STREAM_ROUTES, streamDataRoute } from '../../contract/paths.js';
import { InvalidRequestError } from '../../domain/errors.js';
import { MAX_SUBSCRIPTIONS } from '../../domain/quotes.js';
import { TAIPEI_OFFSET_MS } from '../../domain/time.js';
import type { Gateway, SubscribeInput } from '../../gateway/gateway.js';
import { AccountRequestSchema, selectorOf } from '../schemas/accounts.js';
import { errorResponses } from '../schemas/common.js';
import { RegionSchema, SecurityTypeSchema } from '../schemas/contracts.js';
import {
  EventStreamResponse,
  StreamQuerySchema,
  StreamStatusSchema,
  SubscribeBodySchema,
  SubscribeTradeResponseSchema,
  SubscriptionListSchema,
  SubscriptionResponseSchema,
} from '../schemas/streams.js';
import { DEDICATED_STREAMS, type StreamFamily } from '../sse/families.js';
import { parseEventId } from '../sse/hub.js';
import type { StreamServices } from '../sse/services.js';

const RECEIVERS_TEXT = 'Market data receivers are available for tick, bidask, quote, and order event data';
const tags = ['stream'];

export function streamRoutes(gateway: Gateway, { hub, subscriptions }: StreamServices): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      STREAM_ROUTES.subscribe,
      {
        schema: {
          tags,
          summary: 'Subscribe to live quotes of a product or a futures combo',
          description:
            `Events go to the SSE streams (tick_stk, bidask_fop, quote_idx, ...). Subscribing twice is one ` +
            `subscription. At most ${MAX_SUBSCRIPTIONS} are held (429 beyond). An index takes Quote only; an ` +
            "option combo has no quotes; intraday_odd is for a stock's Tick or BidAsk. A session event (code 16) " +
            'acknowledges it on the streams.',
          body: SubscribeBodySchema,
          response: { 200: SubscriptionResponseSchema, ...errorResponses(400, 404, 422, 429, 507) },
        },
      },
      async ({ body }) => ({
        success: true,
        message: 'Subscription successful',
        subscription: await subscriptions.subscribe(subscribeInputOf(body)),
      }),
    );

    app.post(
      STREAM_ROUTES.unsubscribe,
      {
        schema: {
          tags,
          summary: 'Stop a subscription (same body as the subscribe)',
          description: 'success is false, with the reason in message, when the body names nothing subscribed.',
          body: SubscribeBodySchema,
          response: { 200: SubscriptionResponseSchema, ...errorResponses(400, 404, 422, 507) },
        },
      },
      async ({ body }) => {
        const { subscription, wasSubscribed } = await subscriptions.unsubscribe(subscribeInputOf(body));
        const message = wasSubscribed
          ? 'Unsubscription successful'
          : `Not subscribed to this contract and quote_type; GET ${STREAM_PATHS.subscriptions} lists what is`;
        return { success: wasSubscribed, message, subscription };
      },
    );

    app.get(
      STREAM_ROUTES.subscriptions,
      {
        schema: {
          tags,
          summary: 'Quote subscriptions held by the gateway, and accounts with subscribe_trade',
          response: { 200: SubscriptionListSchema },
        },
      },
      async () => {
        const list = subscriptions.list();
        const scanners = subscriptions.listScanners();
        return {
          subscriptions: list,
          scanners,
          count: list.length + scanners.length,
          limit: MAX_SUBSCRIPTIONS,
          trade_accounts: subscriptions.tradeAccountKeys(),
        };
      },
    );

    for (const subscribe of [true, false]) {
      app.post(
        subscribe ? AUTH_ROUTES.subscribeTrade : AUTH_ROUTES.unsubscribeTrade,
        {
          schema: {
            tags: ['auth'],
            summary: subscribe
              ? 'Deliver order and deal reports of an account on order_event'
              : 'Stop delivering order and deal reports of an account',
            description: 'Omitted ids mean the default account of account_type (S when omitted).',
            body: AccountRequestSchema,
            response: { 200: SubscribeTradeResponseSchema, ...errorResponses(400, 404, 422) },
          },
        },
        async ({ body }) => {
          const selector = selectorOf(body);
          const account = await (subscribe
            ? subscriptions.subscribeTrade(selector)
            : subscriptions.unsubscribeTrade(selector));
          return { account, subscribe_trade: subscribe, ts: compactTaipeiTime(gateway.clock.now()) };
        },
      );
    }

    app.get(
      STREAM_ROUTES.status,
      {
        schema: { tags, summary: 'Clients attached to the SSE streams', response: { 200: StreamStatusSchema } },
      },
      async () => ({
        ...hub.status(),
        timestamp: new Date().toISOString(),
        status: 'healthy',
        subscriptions: subscriptions.list().length,
      }),
    );

    app.get(
      STREAM_ROUTES.receivers,
      {
        schema: {
          tags,
          summary: 'Which stream receivers exist (plain text)',
          produces: ['text/plain'],
          response: { 200: Type.String() },
        },
      },
      async (_request, reply) => reply.type('text/plain; charset=utf-8').send(RECEIVERS_TEXT),
    );

    app.get(
      SSE_ROUTES.data,
      {
        schema: {
          tags,
          summary: 'Every stream on one connection (SSE)',
          description:
            'Events tick_stk, bidask_stk, quote_stk, tick_fop, bidask_fop, quote_fop, quote_idx, order_event, ' +
            'session, contract_event, heartbeat (every 30 s) and <family>_gap. Each message has an id; reconnect ' +
            'with Last-Event-ID (or ?last_event_id=) to get what was missed: every order event, and market data ' +
            'still in the replay buffer. region and security_type filter contract_event only.',
          querystring: Type.Object(
            {
              ...StreamQuerySchema.properties,
              region: Type.Optional(RegionSchema),
              security_type: Type.Optional(SecurityTypeSchema),
            },
            { additionalProperties: false },
          ),
          response: { 200: EventStreamResponse, ...errorResponses(400, 422, 503) },
        },
      },
      (request, reply) => {
        const { region, security_type: securityType } = request.query;
        const accept =
          region === undefined && securityType === undefined
            ? undefined
            : (family: StreamFamily, data: unknown) =>
                family !== 'contract_event' || contractEventMatches(data, region, securityType);
        hub.attach(reply, 'data', cursorOf(request, request.query.last_event_id), accept);
      },
    );

    for (const stream of DEDICATED_STREAMS) {
      app.get(
        streamDataRoute(stream),
        {
          schema: {
            tags,
            summary: `${stream} events (SSE)`,
            description:
              stream === 'order_event'
                ? 'Order and deal reports {state, data: {<state>: {...}}} of accounts with subscribe_trade. Each ' +
                  'message has an id; reconnecting with Last-Event-ID delivers every report missed, exactly once.'
                : `Events named ${stream} of the subscriptions, and session events. Each message has an id; ` +
                  `reconnecting with Last-Event-ID replays what the buffer still holds (${stream}_gap says what not).`,
            querystring: StreamQuerySchema,
            response: { 200: EventStreamResponse, ...errorResponses(400, 422, 503) },
          },
        },
        (request, reply) => {
          hub.attach(reply, stream, cursorOf(request, request.query.last_event_id));
        },
      );
    }

    app.get(
      SSE_ROUTES.contractEvent,
      {
        schema: {
          tags,
          summary: 'Contract refresh events (SSE)',
          description:
            'event: contract_event, data {event_id, action, region, security_type, published_at, base_changed, ' +
            'info_changed, info_scope, info_shards}, one per security type at each refresh (07:50, 08:00, 14:45, ' +
            '17:15 Taiwan time); id is the event_id. A heartbeat event every 30 s.',
          querystring: Type.Object({
            region: Type.Optional(RegionSchema),
            security_type: Type.Optional(SecurityTypeSchema),
          }),
          response: { 200: EventStreamResponse, ...errorResponses(422, 503) },
        },
      },
      (request, reply) => {
        const { region, security_type: securityType } = request.query;
        const connection = hub.open(reply, 'contract_event');
        const stop = gateway.contracts.onContractEvent((event) => {
          if (contractEventMatches(event, region, securityType)) {
            connection.send('contract_event', event, event.event_id);
          }
        });
        connection.onClose(stop);
      },
    );
  };
}

type SubscribeBody = Static<typeof SubscribeBodySchema>;

/** The body's two forms as one input: the product flat, or under `contract` (400 when both or neither). */
function subscribeInputOf(body: SubscribeBody): SubscribeInput {
  const { contract, quote_type: quoteType, intraday_odd: intradayOdd = false, ...flat } = body;
  if (contract !== undefined && flat.code !== undefined) {
    throw new InvalidRequestError(
      'name the contract either flat (code, security_type, exchange) or under "contract", not both',
    );
  }
  if (contract === undefined && flat.code === undefined) {
    throw new InvalidRequestError('name the contract: give code (with security_type and exchange) or contract');
  }
  if (contract !== undefined) return { contract, quoteType, intradayOdd };
  const { security_type, exchange, code } = flat;
  return { contract: { security_type, exchange, code: code as string }, quoteType, intradayOdd };
}

/** Last-Event-ID from the header (what EventSource sends) or the query. */
function cursorOf(request: FastifyRequest, fromQuery: string | undefined) {
  const header = request.headers['last-event-id'];
  return parseEventId(typeof header === 'string' && header !== '' ? header : fromQuery);
}

function contractEventMatches(event: unknown, region: string | undefined, securityType: string | undefined): boolean {
  const { region: eventRegion, security_type: eventType } = event as { region: string; security_type: string };
  return (region === undefined || eventRegion === region) && (securityType === undefined || eventType === securityType);
}

/** YYYYMMDDHHMMSS in Taiwan time as a number, as subscribe_trade's ts. */
function compactTaipeiTime(epochMs: number): number {
  return Number(new Date(epochMs + TAIPEI_OFFSET_MS).toISOString().slice(0, 19).replace(/\D/g, ''));
}
