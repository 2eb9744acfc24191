// Orders: place, cancel, update price and quantity, and the trade listings. A rejected order is HTTP 200 with a
// Failed Trade (status.msg says why); only malformed requests are 4xx.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { ORDER_PATHS, ORDER_ROUTES } from '../../contract/paths.js';
import { TRADE_PAGES } from '../../contract/wire.js';
import { InvalidRequestError } from '../../domain/errors.js';
import type { Gateway } from '../../gateway/gateway.js';
import { postOperationRef } from '../openapi.js';
import { emptyBodyIsDefault } from '../plugins/validation.js';
import { errorResponses } from '../schemas/common.js';
import {
  ComboTradeSchema,
  IdempotencyHeadersSchema,
  isValidIdempotencyKey,
  orderTermsOf,
  PlaceComboOrderBodySchema,
  PlaceOrderBodySchema,
  TradeIdBodySchema,
  TradeSchema,
  TradesBodySchema,
  TradesPageBodySchema,
  tradesPageOf,
  tradesSelectorOf,
  UpdatePriceBodySchema,
  UpdateQtyBodySchema,
} from '../schemas/orders.js';

const tags = ['order'];
export const config = { rateGroups: ['orders'] } as const;
// A change that cannot be journaled is 503, or 507 when the disk is full: nothing of it is kept.
export const ORDER_ERRORS = errorResponses(400, 404, 422, 429, 503, 507);

/**
 * A link of the OpenAPI document from a placed order to an operation on it, so that clients and API fuzzers can
 * follow place_order with cancel_order and the updates (the trade id is order.id of the answer).
 */
function onThePlacedTrade(path: (typeof ORDER_PATHS)[keyof typeof ORDER_PATHS], description: string) {
  return {
    operationRef: postOperationRef(path),
    requestBody: { trade_id: '$response.body#/order/id' },
    description,
  };
}

/** The Idempotency-Key header, if any; 400 unless it is 1 to 128 visible ASCII characters. */
function idempotencyKeyOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isValidIdempotencyKey(value)) {
    throw new InvalidRequestError('the Idempotency-Key header must be 1 to 128 visible ASCII characters');
  }
  return value;
}

export function orderRoutes(gateway: Gateway): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      ORDER_ROUTES.placeOrder,
      {
        config,
        links: {
          200: {
            CancelOrder: onThePlacedTrade(ORDER_PATHS.cancelOrder, 'cancel the order just placed'),
            UpdatePrice: onThePlacedTrade(ORDER_PATHS.updatePrice, 'change the price of the order just placed'),
            UpdateQty: onThePlacedTrade(ORDER_PATHS.updateQty, 'reduce the quantity of the order just placed'),
          },
        },
        schema: {
          tags,
          summary: 'Place a stock, futures or options order',
          description:
            'Exactly one of stock_order and futures_order; the other is absent or null (1.7.9 sends it null). ' +
            '`{code}` alone names the contract; a continuous alias ' +
            '(TXFR1) is resolved to its month in target_code. An order the exchange or the broker refuses is HTTP ' +
            '200 with status Failed and the reason in status.msg. timeout 0 returns at once with status Inactive and ' +
            'empty ids; the ids arrive in the order events. A retry with the same Idempotency-Key returns the first ' +
            'Trade instead of placing a second order; a different order under a key already used is a 422.',
          headers: IdempotencyHeadersSchema,
          body: PlaceOrderBodySchema,
          response: { 200: TradeSchema, ...ORDER_ERRORS },
        },
        preValidation: unusedOrderIsAbsent,
      },
      async ({ body, headers }) => {
        const idempotencyKey = idempotencyKeyOf(headers['idempotency-key']);
        const { contract, stock_order: stock, futures_order: futures } = body;
        if ((stock === undefined) === (futures === undefined)) {
          throw new InvalidRequestError(
            stock === undefined
              ? 'give one of stock_order (stocks) or futures_order (futures and options); the body has neither'
              : 'give one of stock_order (stocks) or futures_order (futures and options), not both',
          );
        }
        return gateway.orders.place({
          contract,
          ...(stock === undefined ? {} : { stockOrder: orderTermsOf(stock, 'stock_order') }),
          ...(futures === undefined ? {} : { futuresOrder: orderTermsOf(futures, 'futures_order') }),
          wait: body.timeout !== 0,
          ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
        });
      },
    );

    app.post(
      ORDER_ROUTES.cancelOrder,
      {
        config,
        schema: {
          tags,
          summary: 'Cancel what is left of an order',
          description:
            'Returns the Trade: Cancelled with cancel_quantity once the remainder is gone. An order that cannot be ' +
            'cancelled any more (filled, cancelled, failed) comes back unchanged with the reason in status.msg.',
          body: TradeIdBodySchema,
          response: { 200: TradeSchema, ...ORDER_ERRORS },
        },
      },
      async ({ body }) => gateway.orders.cancel(body.trade_id),
    );

    app.post(
      ORDER_ROUTES.updatePrice,
      {
        config,
        schema: {
          tags,
          summary: "Change a working limit order's price",
          description: 'The new price passes the same tick and limit rules as a new order; a refusal is in status.msg.',
          body: UpdatePriceBodySchema,
          response: { 200: TradeSchema, ...ORDER_ERRORS },
        },
      },
      async ({ body }) => gateway.orders.updatePrice(body.trade_id, body.price),
    );

    app.post(
      ORDER_ROUTES.updateQty,
      {
        config,
        schema: {
          tags,
          summary: 'Reduce a working order by a quantity',
          description:
            'quantity is how many to cancel (reduce by), from 1 to what is still open; the order keeps its price ' +
            'and queue position, and cancel_quantity grows by it.',
          body: UpdateQtyBodySchema,
          response: { 200: TradeSchema, ...ORDER_ERRORS },
        },
      },
      async ({ body }) => gateway.orders.updateQty(body.trade_id, body.quantity),
    );

    app.post(
      ORDER_ROUTES.placeComboOrder,
      {
        config,
        links: {
          200: {
            CancelComboOrder: onThePlacedTrade(ORDER_PATHS.cancelComboOrder, 'cancel the combo order just placed'),
          },
        },
        schema: {
          tags,
          summary: 'Place a combo order: two TAIFEX legs at a net price',
          description:
            'Legs without action take their direction from order.action (buying a spread buys the far month and ' +
            'sells the near one); the legacy form gives every leg its action. price is the net price as the ' +
            "combo's quotes show it. Both legs fill together. Option combos take LMT with IOC or FOK only. The " +
            'official simulation refuses combos; sjgate trades them.',
          body: PlaceComboOrderBodySchema,
          response: { 200: ComboTradeSchema, ...ORDER_ERRORS },
        },
      },
      async ({ body }) => {
        const { combo_contract: combo, order } = body;
        const { combo_type: comboType, ...fields } = order;
        return gateway.orders.placeCombo({
          legs: combo.legs,
          comboType: combo.combo_type ?? comboType ?? undefined,
          order: orderTermsOf(fields, 'order'),
          wait: body.timeout !== 0,
        });
      },
    );

    app.post(
      ORDER_ROUTES.cancelComboOrder,
      {
        config,
        schema: {
          tags,
          summary: 'Cancel what is left of a combo order',
          body: TradeIdBodySchema,
          response: { 200: ComboTradeSchema, ...ORDER_ERRORS },
        },
      },
      async ({ body }) => gateway.orders.cancelCombo(body.trade_id),
    );

    app.post(
      ORDER_ROUTES.comboTrades,
      {
        config,
        preValidation: emptyBodyIsDefault,
        schema: {
          tags,
          summary: 'The combo trades of an account, or of every account',
          body: TradesBodySchema,
          response: { 200: Type.Array(ComboTradeSchema), ...ORDER_ERRORS },
        },
      },
      async ({ body }) => gateway.orders.comboTrades(tradesSelectorOf(body)),
    );

    app.post(
      ORDER_ROUTES.trades,
      {
        config,
        // A POST without a body lists every account, as `{}` does.
        preValidation: emptyBodyIsDefault,
        schema: {
          tags,
          summary: 'The trades of an account, or of every account: today, or older ones a page at a time',
          description:
            "Oldest first. Without paging fields: today's trades and the working orders, as the official server " +
            'answers. With any of limit, cursor, begin_date and end_date: the trades of the journal placed in that ' +
            `range of Taiwan days (all history by default), at most limit (1 to ${TRADE_PAGES.maxLimit}, ` +
            `${TRADE_PAGES.defaultLimit} by default) per page; the X-Next-Cursor response header is the cursor of the ` +
            'next page and is absent on the last one (a page may hold fewer trades than limit before the end: combo ' +
            'orders are listed by combotrades). The account is given flat or under `account`; `{}` lists every ' +
            'account, `{account_type: "S"}` the trades of that type.',
          body: TradesPageBodySchema,
          response: {
            200: Type.Array(TradeSchema, {
              headers: {
                [TRADE_PAGES.nextCursorHeader]: {
                  type: 'string',
                  description: 'paging: the cursor of the next page; absent on the last page and without paging',
                },
              },
            }),
            ...ORDER_ERRORS,
          },
        },
      },
      async ({ body }, reply) => {
        const page = tradesPageOf(body);
        // Written by the route's serializer, trade by trade (src/server/trade-json.ts): sent as it is.
        const sendJson = (json: Buffer) => reply.type('application/json; charset=utf-8').send(json as never);
        if (page === undefined) return sendJson(await gateway.orders.todaysTradesJson(tradesSelectorOf(body)));
        const { json, nextCursor } = await gateway.orders.tradesPage(tradesSelectorOf(body), page);
        if (nextCursor !== null) reply.header(TRADE_PAGES.nextCursorHeader, nextCursor);
        return sendJson(json);
      },
    );

    app.post(
      ORDER_ROUTES.updateStatus,
      {
        config,
        preValidation: emptyBodyIsDefault,
        schema: {
          tags,
          summary:
            'Read the orders back from the exchange, then list the trades of an account (in simulation: as trades)',
          description:
            "Oldest first: today's trades and the working orders. The account is given flat or under `account`; " +
            '`{}` lists every account, `{account_type: "S"}` the trades of that type.',
          body: TradesBodySchema,
          response: { 200: Type.Array(TradeSchema), ...ORDER_ERRORS },
        },
      },
      async ({ body }) => gateway.orders.updateStatus(tradesSelectorOf(body)),
    );
  };
}

/**
 * 1.7.9 sends the order kind it does not use as null: that is the same as leaving it out. It is dropped before
 * validation, so a null stock_order is accepted where it means nothing, and the schema's errors stay about the order
 * that was given. Both null is still "neither" (400).
 */
async function unusedOrderIsAbsent(request: FastifyRequest): Promise<void> {
  const body = request.body as Record<string, unknown> | null | undefined;
  if (body === null || typeof body !== 'object') return;
  for (const key of ['stock_order', 'futures_order']) if (body[key] === null) delete body[key];
}
