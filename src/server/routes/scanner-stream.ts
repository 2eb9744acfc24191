// The market scanner stream (1.7.1): subscribe to a preset rule (limit approached, touched or unlocked; a fast price
// move; one large trade) or a state (trial matches, suspended stocks) over one exchange's stocks. Events come as
// `scanner` on /stream/data/scanner and the aggregate stream. A scanner is not a contract: each (scanner, exchange)
// is one of the 200 subscriptions, kept and restored like the others.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { Static } from 'typebox';
import { STREAM_ROUTES } from '../../contract/paths.js';
import { type ScannerSubscription, scannerIdOf } from '../../domain/scanner-rules.js';
import { errorResponses } from '../schemas/common.js';
import { ScannerSubscriptionBodySchema, ScannerSubscriptionResponseSchema } from '../schemas/scanner-stream.js';
import type { StreamServices } from '../sse/services.js';

const tags = ['stream'];

const EVENTS =
  'Rule events: {scanner: <rule id>, region, security_type, exchange, quote: {code, date, time, open, high, low, ' +
  'close, amount_sum, vol_sum, diff_price, ..., simtrade}, extra}; extra of limit rules {previous_best_price, ' +
  'trigger_price, limit_price}, of price-move rules {reference_time, reference_price, change_price, change_percent, ' +
  'tick_change, elapsed_ms}, of volume_burst {amount, volume, price, threshold}. State events: {scanners: ' +
  '["simtrade" | "suspend"], region, security_type, exchange, quote}.';

type Body = Static<typeof ScannerSubscriptionBodySchema>;

function subscriptionOf(body: Body): ScannerSubscription {
  return {
    scanner: scannerIdOf(body.scanner),
    region: 'TW',
    security_type: 'STK',
    exchange: body.exchange as ScannerSubscription['exchange'],
  };
}

const named = ({ scanner, exchange }: ScannerSubscription) => `${scanner} on ${exchange}`;

export function scannerStreamRoutes({ subscriptions }: StreamServices): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      STREAM_ROUTES.subscribeScanner,
      {
        schema: {
          tags,
          summary: "Stream a market scanner's signals over an exchange's stocks (scanner)",
          description:
            'scanner is a preset rule, {"kind": "preset_rule", "id": <rule>}, or a state, "simtrade" or "suspend". ' +
            'Rules: bid_near_limit_up, bid_touch_limit_up, limit_up_unlocked, ask_near_limit_down, ' +
            'ask_touch_limit_down, limit_down_unlocked, trade_price_surge, trade_price_drop, bid_price_surge, ' +
            'ask_price_drop, volume_burst; their presets are fixed. Each (scanner, exchange) is one of the 200 ' +
            `subscriptions. ${EVENTS}`,
          body: ScannerSubscriptionBodySchema,
          response: { 200: ScannerSubscriptionResponseSchema, ...errorResponses(400, 422, 429, 507) },
        },
      },
      async ({ body }) => {
        const subscription = await subscriptions.subscribeScanner(subscriptionOf(body));
        return { success: true, message: `Subscribed to the scanner ${named(subscription)}` };
      },
    );

    app.post(
      STREAM_ROUTES.unsubscribeScanner,
      {
        schema: {
          tags,
          summary: 'Stop a market scanner (same body as the subscribe)',
          description: 'success is false, naming it, when that scanner was not subscribed on that exchange.',
          body: ScannerSubscriptionBodySchema,
          response: { 200: ScannerSubscriptionResponseSchema, ...errorResponses(400, 422) },
        },
      },
      async ({ body }) => {
        const subscription = subscriptionOf(body);
        const { wasSubscribed } = await subscriptions.unsubscribeScanner(subscription);
        return wasSubscribed
          ? { success: true, message: `Unsubscribed from the scanner ${named(subscription)}` }
          : { success: false, message: `No scanner subscription of ${named(subscription)}` };
      },
    );
  };
}
