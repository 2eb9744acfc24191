// Schemas of the streaming API: the subscribe body in both of its forms, subscriptions, the stream status.

import Type from 'typebox';
import { SSE_PATHS } from '../../contract/paths.js';
import { INDEX_ANALYTICS_EVENTS, QUOTE_TYPES } from '../../domain/quotes.js';
import { STREAM_NAMES } from '../sse/families.js';
import { AccountSchema } from './accounts.js';
import { ComboTypeSchema, ContractSchema } from './contracts.js';
import { ContributionRankingSchema, HeldProjectionSchema } from './index-streams.js';
import { ComboRefSchema, ContractRefSchema, contractRefFields } from './market-data.js';
import { HeldScannerSchema } from './scanner-stream.js';

const INDEX_ANALYTICS_TYPES = Object.keys(INDEX_ANALYTICS_EVENTS) as (keyof typeof INDEX_ANALYTICS_EVENTS)[];

const QuoteTypeSchema = Type.Enum([...QUOTE_TYPES], { description: 'Tick, BidAsk or Quote (an index: Quote only)' });
/** What a held subscription may be: the three above, or a stream of the 1.7.1 subscribe routes. */
const HeldQuoteTypeSchema = Type.Enum([...QUOTE_TYPES, 'KBar', 'CalculatedIndex', ...INDEX_ANALYTICS_TYPES], {
  description:
    'Tick, BidAsk, Quote; KBar (POST /stream/subscribe/kbars), CalculatedIndex (POST /stream/subscribe/calculated_index) ' +
    'or an index analytics stream (IndexContribution, IndustryContribution, IndexComponents)',
});

/** Flat `{security_type, exchange, code, quote_type, intraday_odd}` or `{contract: {...} | {legs, combo_type}, quote_type}`. */
export const SubscribeBodySchema = Type.Object(
  {
    ...contractRefFields,
    code: Type.Optional(contractRefFields.code),
    contract: Type.Optional(
      Type.Union([ContractRefSchema, ComboRefSchema], {
        description: 'the contract (a Contract object is accepted as is) or a futures combo {legs, combo_type?}',
      }),
    ),
    quote_type: QuoteTypeSchema,
    intraday_odd: Type.Optional(
      Type.Boolean({ default: false, description: "a stock's intraday odd-lot Tick or BidAsk (volumes in shares)" }),
    ),
  },
  {
    additionalProperties: false,
    title: 'SubscriptionRequest',
    description: 'name the product flat (code, security_type, exchange) or under contract, not both',
  },
);

const ProductSubscriptionSchema = Type.Object(
  {
    security_type: Type.String(),
    exchange: Type.String(),
    code: Type.String(),
    target_code: Type.Union([Type.String(), Type.Null()], { description: 'the real contract of R1/R2' }),
    quote_type: HeldQuoteTypeSchema,
    intraday_odd: Type.Boolean(),
    ranking: Type.Optional(ContributionRankingSchema),
    projection: Type.Optional(HeldProjectionSchema),
  },
  { title: 'ProductSubscription' },
);

const ComboSubscriptionSchema = Type.Object(
  {
    contract: Type.Object({ legs: Type.Array(ContractSchema), combo_type: ComboTypeSchema }),
    quote_type: HeldQuoteTypeSchema,
    intraday_odd: Type.Boolean(),
  },
  { title: 'ComboSubscription' },
);

export const SubscriptionSchema = Type.Union([ProductSubscriptionSchema, ComboSubscriptionSchema], {
  title: 'Subscription',
});

export const SubscriptionResponseSchema = Type.Object(
  { success: Type.Boolean(), message: Type.String(), subscription: SubscriptionSchema },
  { title: 'SubscriptionResponse' },
);

export const SubscriptionListSchema = Type.Object(
  {
    subscriptions: Type.Array(SubscriptionSchema),
    scanners: Type.Array(HeldScannerSchema, { description: 'market scanners (POST /stream/subscribe/scanner)' }),
    count: Type.Integer({ description: 'quote and scanner subscriptions together, as the limit counts them' }),
    limit: Type.Integer({ description: 'the most subscriptions held at a time' }),
    trade_accounts: Type.Array(Type.String(), { description: 'broker_id-account_id of accounts with subscribe_trade' }),
  },
  { title: 'SubscriptionList' },
);

export const StreamStatusSchema = Type.Object(
  {
    active_connections: Type.Integer({ description: 'clients attached to any SSE stream' }),
    timestamp: Type.String(),
    status: Type.String(),
    streams: Type.Object(
      Object.fromEntries(STREAM_NAMES.map((name) => [name, Type.Integer()])) as Record<
        (typeof STREAM_NAMES)[number],
        Type.TInteger
      >,
      { description: `clients attached per stream; \`data\` is the aggregate ${SSE_PATHS.data}` },
    ),
    subscriptions: Type.Integer(),
    dropped_clients: Type.Integer({ description: 'clients dropped for falling too far behind since start' }),
    refused_clients: Type.Integer({
      description: 'streams refused with 503 since start: the connection cap or the memory budget was reached',
    }),
    queued_bytes: Type.Integer({ description: 'bytes written to the clients and not yet taken by the kernel' }),
    replays: Type.Object(
      {
        running: Type.Integer({ description: 'clients being caught up after a reconnect with Last-Event-ID' }),
        waiting: Type.Integer({ description: 'of those, how many wait for the memory budget' }),
        held_back: Type.Integer({ description: 'times since start that replays waited for the memory budget' }),
      },
      { description: 'replays of what clients missed' },
    ),
    replay_buffer: Type.Object({ events: Type.Integer(), bytes: Type.Integer() }),
  },
  { title: 'StreamStatus' },
);

export const SubscribeTradeResponseSchema = Type.Object(
  {
    account: AccountSchema,
    subscribe_trade: Type.Boolean(),
    ts: Type.Integer({ description: 'YYYYMMDDHHMMSS as a number, Taiwan time (an integer, as 1.7.9 reads it)' }),
  },
  { title: 'SubscribeTradeResponse' },
);

export const StreamQuerySchema = Type.Object(
  {
    last_event_id: Type.Optional(
      Type.String({ maxLength: 64, description: 'resume after this id, for clients that cannot send Last-Event-ID' }),
    ),
  },
  { additionalProperties: false },
);

/**
 * The 200 of an SSE route: an endless text/event-stream. As OpenAPI 3.0 reads an event-stream schema, it describes
 * one event as a client parses it: the event name, its data (JSON text), and the id to resume after it.
 */
export const EventStreamResponse = {
  description: 'server-sent events, until the client disconnects',
  content: {
    'text/event-stream': {
      schema: Type.Object(
        {
          event: Type.String({ description: 'tick_stk, order_event, heartbeat, ...' }),
          data: Type.String({ description: 'the payload, JSON' }),
          id: Type.Optional(Type.String({ description: 'resume after it with Last-Event-ID' })),
          retry: Type.Optional(Type.Integer({ description: 'reconnect delay, ms' })),
        },
        { title: 'ServerSentEvent' },
      ),
    },
  },
};
