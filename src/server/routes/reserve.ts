// Share and cash pre-collection (預收券款) of a stock account: what is reserved and earmarked, and the two requests.
// Not reservation orders: a share reserve sets aside shares held (they may not be sold today), an earmark sets aside
// cash for a buy. An answer of 200 is not success: a refused request answers status false with the reason in info.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { RESERVE_ROUTES } from '../../contract/paths.js';
import type { Gateway } from '../../gateway/gateway.js';
import { emptyBodyIsDefault } from '../plugins/validation.js';
import { selectorOf } from '../schemas/accounts.js';
import { StockAccountBodySchema } from '../schemas/portfolio.js';
import {
  EarmarkingResultSchema,
  EarmarkStocksDetailSchema,
  ReserveEarmarkingBodySchema,
  ReserveStockBodySchema,
  ReserveStockResultSchema,
  ReserveStocksDetailSchema,
  ReserveStocksSummarySchema,
} from '../schemas/reserve.js';
import { config, ORDER_ERRORS } from './orders.js';

const tags = ['reserve'];
// In the orders' call-rate group, with their errors (503 or 507 when a request cannot be journaled).
const RESERVE_ERRORS = ORDER_ERRORS;
const ACCOUNT = 'account_type is S (or omitted); the account is given flat or under `account`, `{}` is the default.';

export function reserveRoutes(gateway: Gateway): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const reserve = gateway.orders.reserve;

    const listings = [
      [
        RESERVE_ROUTES.stockReserveSummary,
        'Shares held and reserved today, per stock',
        ReserveStocksSummarySchema,
        'summary',
      ],
      [
        RESERVE_ROUTES.stockReserveDetail,
        "Today's share reserve requests, accepted or refused",
        ReserveStocksDetailSchema,
        'detail',
      ],
      [
        RESERVE_ROUTES.earmarkingDetail,
        "Today's cash earmark requests, accepted or refused",
        EarmarkStocksDetailSchema,
        'earmarkingDetail',
      ],
    ] as const;
    for (const [path, summary, answer, query] of listings) {
      app.post(
        path,
        {
          config,
          preValidation: emptyBodyIsDefault,
          schema: {
            tags,
            summary,
            description: `${ACCOUNT} available_share (summary) is what is held and not reserved.`,
            body: StockAccountBodySchema,
            response: { 200: answer, ...RESERVE_ERRORS },
          },
        },
        async ({ body }) => reserve[query](selectorOf(body)),
      );
    }

    app.post(
      RESERVE_ROUTES.reserveStock,
      {
        config,
        schema: {
          tags,
          summary: 'Reserve shares of a stock held (預收券): they may not be sold today',
          description:
            `${ACCOUNT} HTTP 200 is not success: status false means refused (more than the shares available), ` +
            'with the reason in info. An unknown code is a 404, a contract that is not a stock a 400.',
          body: ReserveStockBodySchema,
          response: { 200: ReserveStockResultSchema, ...RESERVE_ERRORS },
        },
      },
      async ({ body }) => {
        const { contract, share, ...account } = body;
        return reserve.reserveStock({ account: selectorOf(account), contract, share });
      },
    );

    app.post(
      RESERVE_ROUTES.reserveEarmarking,
      {
        config,
        schema: {
          tags,
          summary: 'Earmark cash for a buy of a stock (預收款): share x price leaves the buying power today',
          description:
            `${ACCOUNT} HTTP 200 is not success: status false means refused (more than the cash available), ` +
            'with the reason in info.',
          body: ReserveEarmarkingBodySchema,
          response: { 200: EarmarkingResultSchema, ...RESERVE_ERRORS },
        },
      },
      async ({ body }) => {
        const { contract, share, price, ...account } = body;
        return reserve.reserveEarmarking({ account: selectorOf(account), contract, share, price });
      },
    );
  };
}
