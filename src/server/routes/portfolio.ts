// Portfolio: balance, margin, positions, realized profit and loss, settlements and trading limits of an account.
// Every query is a POST whose body names the account (`{}` or no body: the default account of the type).

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { PORTFOLIO_ROUTES } from '../../contract/paths.js';
import type { Gateway } from '../../gateway/gateway.js';
import { emptyBodyIsDefault } from '../plugins/validation.js';
import { selectorOf } from '../schemas/accounts.js';
import { errorResponses } from '../schemas/common.js';
import {
  AccountBalanceSchema,
  dateRangeOf,
  FuturesAccountBodySchema,
  MarginSchema,
  PositionDetailBodySchema,
  PositionDetailsSchema,
  PositionsBodySchema,
  PositionsSchema,
  ProfitDetailsSchema,
  ProfitLossBodySchema,
  ProfitLossDetailBodySchema,
  ProfitLossesSchema,
  ProfitLossSummaryBodySchema,
  ProfitLossSummarySchema,
  SettlementSchema,
  StockAccountBodySchema,
  TradingLimitsSchema,
} from '../schemas/portfolio.js';

const tags = ['portfolio'];
// Production counts these six queries together, 25 calls per 5 seconds (spec: "Accounting"); position_detail,
// profitloss_sum and trading_limits are not in that list.
const accounting = { rateGroups: ['accounting'] } as const;
const PORTFOLIO_ERRORS = errorResponses(400, 404, 422, 429);

export function portfolioRoutes(gateway: Gateway): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const portfolio = gateway.portfolio;

    app.post(
      PORTFOLIO_ROUTES.accountBalance,
      {
        config: accounting,
        preValidation: emptyBodyIsDefault,
        schema: {
          tags,
          summary: 'The bank balance of a stock account',
          description: 'account_type is S (or omitted). errmsg is empty when the balance could be read.',
          body: StockAccountBodySchema,
          response: { 200: AccountBalanceSchema, ...PORTFOLIO_ERRORS },
        },
      },
      async ({ body }) => portfolio.accountBalance(selectorOf(body)),
    );

    app.post(
      PORTFOLIO_ROUTES.margin,
      {
        config: accounting,
        preValidation: emptyBodyIsDefault,
        schema: {
          tags,
          summary: 'The margin account of a futures account',
          description:
            'account_type is F (or omitted): equity, initial and maintenance margin, available margin, the risk ' +
            'indicator, and the settled and open profit and loss of the day.',
          body: FuturesAccountBodySchema,
          response: { 200: MarginSchema, ...PORTFOLIO_ERRORS },
        },
      },
      async ({ body }) => portfolio.margin(selectorOf(body)),
    );

    app.post(
      PORTFOLIO_ROUTES.positionUnit,
      {
        config: accounting,
        preValidation: emptyBodyIsDefault,
        schema: {
          tags,
          summary: 'Open positions of a stock or futures account',
          description:
            'One row per code and direction (and condition for stocks), valued at the last price. unit Common ' +
            '(default) counts stocks in lots of 1,000 shares; Share counts shares, so odd lots show.',
          body: PositionsBodySchema,
          response: { 200: PositionsSchema, ...PORTFOLIO_ERRORS },
        },
      },
      async ({ body }) => portfolio.positions(selectorOf(body), body.unit ?? 'Common'),
    );

    app.post(
      PORTFOLIO_ROUTES.positionDetail,
      {
        preValidation: emptyBodyIsDefault,
        schema: {
          tags,
          summary: 'The trades that make up one position',
          description: 'detail_id is the id of a position_unit row; an unknown id is a 404.',
          body: PositionDetailBodySchema,
          response: { 200: PositionDetailsSchema, ...PORTFOLIO_ERRORS },
        },
      },
      async ({ body }) => portfolio.positionDetail(selectorOf(body), body.detail_id),
    );

    app.post(
      PORTFOLIO_ROUTES.profitLoss,
      {
        config: accounting,
        preValidation: emptyBodyIsDefault,
        schema: {
          tags,
          summary: 'Realized profit and loss between two dates',
          description:
            'One row per closing trade from begin_date to end_date (both today when omitted; a reversed range is ' +
            'a 400). unit as in position_unit.',
          body: ProfitLossBodySchema,
          response: { 200: ProfitLossesSchema, ...PORTFOLIO_ERRORS },
        },
      },
      async ({ body }) => portfolio.profitLoss(selectorOf(body), dateRangeOf(body), body.unit ?? 'Common'),
    );

    app.post(
      PORTFOLIO_ROUTES.profitLossDetail,
      {
        config: accounting,
        preValidation: emptyBodyIsDefault,
        schema: {
          tags,
          summary: 'The trades behind one realized profit and loss row',
          description: 'detail_id is the id of a profit_loss row; an unknown id is a 404.',
          body: ProfitLossDetailBodySchema,
          response: { 200: ProfitDetailsSchema, ...PORTFOLIO_ERRORS },
        },
      },
      async ({ body }) => portfolio.profitLossDetail(selectorOf(body), body.detail_id, body.unit ?? 'Common'),
    );

    app.post(
      PORTFOLIO_ROUTES.profitLossSum,
      {
        preValidation: emptyBodyIsDefault,
        schema: {
          tags,
          summary: 'Realized profit and loss between two dates, summed per code',
          description: 'begin_date and end_date are today when omitted; a reversed range is a 400.',
          body: ProfitLossSummaryBodySchema,
          response: { 200: ProfitLossSummarySchema, ...PORTFOLIO_ERRORS },
        },
      },
      async ({ body }) => portfolio.profitLossSummary(selectorOf(body), dateRangeOf(body)),
    );

    app.post(
      PORTFOLIO_ROUTES.settlements,
      {
        config: accounting,
        preValidation: emptyBodyIsDefault,
        schema: {
          tags,
          summary: 'Cash settlements of a stock account: today (T), T+1 and T+2',
          description: 'account_type is S (or omitted). amount is positive to receive, negative to pay.',
          body: StockAccountBodySchema,
          response: { 200: Type.Array(SettlementSchema), ...PORTFOLIO_ERRORS },
        },
      },
      async ({ body }) => portfolio.settlements(selectorOf(body)),
    );

    app.post(
      PORTFOLIO_ROUTES.tradingLimits,
      {
        preValidation: emptyBodyIsDefault,
        schema: {
          tags,
          summary: 'Trading, margin-purchase and short-sale limits of a stock account',
          description: 'account_type is S (or omitted): each limit with what is used and what is available.',
          body: StockAccountBodySchema,
          response: { 200: TradingLimitsSchema, ...PORTFOLIO_ERRORS },
        },
      },
      async ({ body }) => portfolio.tradingLimits(selectorOf(body)),
    );
  };
}
