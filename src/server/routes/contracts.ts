// Contracts API: lookup, info, listings by type and product, combos and tick-band rules.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { API_PREFIX, CONTRACT_ROUTES, ORDER_PATHS } from '../../contract/paths.js';
import type { Contract, ContractInfo, SecurityType } from '../../domain/contracts.js';
import { InvalidRequestError } from '../../domain/errors.js';
import { MAX_ORDER_PRICE } from '../../domain/order-rules.js';
import type { Gateway } from '../../gateway/gateway.js';
import { jsonOnce } from '../json-cache.js';
import { ListingCache } from '../listing-cache.js';
import { postOperationRef } from '../openapi.js';
import { type FastLane, type KeptAnswer, keptAnswer } from '../plugins/fast-lane.js';
import { CodeParam, errorResponses } from '../schemas/common.js';
import {
  ComboContractSchema,
  ComboRequestSchema,
  ContractListSchema,
  ContractSchema,
  FuturesInfoRecordSchema,
  IndexInfoRecordSchema,
  infoRecordOf,
  OptionInfoRecordSchema,
  RegionSchema,
  RootNameSchema,
  SecurityTypeSchema,
  StockInfoRecordSchema,
  TickBandRuleSchema,
  WarrantInfoRecordSchema,
  WarrantUnderlyingSchema,
} from '../schemas/contracts.js';

const tags = ['contracts'];
const DateQuery = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const MonthQuery = Type.String({ pattern: '^\\d{6}$', description: 'YYYYMM' });
const Right = Type.Enum(['C', 'P']);
const Strike = Type.Number({ minimum: 0, maximum: MAX_ORDER_PRICE });
const MAX_PAGE = 1_000_000;
const LookupQuery = Type.Object({
  security_type: Type.Optional(SecurityTypeSchema),
  region: Type.Optional(RegionSchema),
  exchange: Type.Optional(
    Type.Enum(['TSE', 'OTC', 'OES', 'TAIFEX'], {
      description: 'only a contract listed on this exchange is found; another is a 404',
    }),
  ),
});
const RegionQuery = Type.Object({ region: Type.Optional(RegionSchema) });
const PageSize = Type.Integer({ minimum: 1, maximum: 100_000, description: 'default 1000' });

/** The POST form of the listing: page -1 is every contract. */
export const ContractsRequestSchema = Type.Object(
  {
    security_type: SecurityTypeSchema,
    region: Type.Optional(RegionSchema),
    page: Type.Optional(Type.Integer({ minimum: -1, maximum: MAX_PAGE })),
    page_size: Type.Optional(PageSize),
  },
  { additionalProperties: false },
);

const DEFAULT_PAGE_SIZE = 1000;
const JSON_TYPE = 'application/json; charset=utf-8';

/** Unpaged when neither page nor page_size is given; page_size alone means page 1. */
function pageOf(contracts: Contract[], securityType: SecurityType, region: string, page?: number, pageSize?: number) {
  const total = contracts.length;
  if (page === undefined && pageSize === undefined) return { contracts, security_type: securityType, region, total };
  const size = pageSize ?? DEFAULT_PAGE_SIZE;
  const current = page ?? 1;
  return {
    contracts: contracts.slice((current - 1) * size, current * size),
    security_type: securityType,
    region,
    total,
    page: current,
    page_size: size,
    max_page: Math.max(1, Math.ceil(total / size)),
  };
}

/** `lane` answers a repeated info lookup before Fastify does (plugins/fast-lane.ts). */
export function contractsRoutes(gateway: Gateway, lane: FastLane): FastifyPluginAsync {
  const contracts = gateway.contracts;
  // The catalog's info objects are immutable for a listing day: each gets its record (with dataset) once.
  const records = new WeakMap<object, object>();
  const recordOf = (info: ContractInfo): object => {
    let record = records.get(info);
    if (record === undefined) {
      record = infoRecordOf(info);
      records.set(info, record);
    }
    return record;
  };
  // The info answers by URL (code and query) for the current listing: a repeated lookup skips the venue call.
  const infoAnswers = new ListingCache<KeptAnswer>(() => contracts.listing());
  lane.keep(`${API_PREFIX}${CONTRACT_ROUTES.contractInfo}`, (url) => infoAnswers.get(url));
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      CONTRACT_ROUTES.contracts,
      {
        // a listed Contract is accepted as is wherever a contract is named (clients and API fuzzers follow this)
        links: {
          200: {
            PlaceOrder: {
              operationRef: postOperationRef(ORDER_PATHS.placeOrder),
              requestBody: { contract: '$response.body#/contracts/0' },
              description: 'order the first contract of the page',
            },
          },
        },
        schema: {
          tags,
          summary: 'List the contracts of one security type',
          description: 'Without page and page_size every contract is returned; with either, one page (1-based).',
          querystring: Type.Object({
            security_type: SecurityTypeSchema,
            region: Type.Optional(RegionSchema),
            page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE })),
            page_size: Type.Optional(PageSize),
          }),
          response: { 200: ContractListSchema, ...errorResponses(422) },
        },
      },
      async ({ query }) => {
        const region = query.region ?? 'TW';
        return pageOf(
          await contracts.list(query.security_type, region),
          query.security_type,
          region,
          query.page,
          query.page_size,
        );
      },
    );

    app.post(
      CONTRACT_ROUTES.contracts,
      {
        schema: {
          tags,
          summary: 'List contracts (pre-1.7 form)',
          description: 'The POST form of old clients. page -1 returns every contract.',
          body: ContractsRequestSchema,
          response: { 200: ContractListSchema, ...errorResponses(400, 422) },
        },
      },
      async ({ body }) => {
        const region = body.region ?? 'TW';
        const page = body.page === -1 ? undefined : body.page;
        if (page === 0) throw new InvalidRequestError('page starts at 1 (or is -1 for every contract)');
        const pageSize = body.page === -1 ? undefined : body.page_size;
        return pageOf(await contracts.list(body.security_type, region), body.security_type, region, page, pageSize);
      },
    );

    app.get(
      CONTRACT_ROUTES.contract,
      {
        schema: {
          tags,
          summary: 'Look up one contract',
          description: 'security_type restricts the search; without it the type is detected from the code.',
          params: CodeParam,
          querystring: LookupQuery,
          response: { 200: ContractSchema, ...errorResponses(404, 422) },
        },
      },
      async ({ params, query }) =>
        contracts.get(params.code, {
          securityType: query.security_type,
          region: query.region,
          exchange: query.exchange,
        }),
    );

    app.get(
      CONTRACT_ROUTES.contractInfo,
      {
        // The route sends prepared bytes, so the union response schema only documents: no serializer is compiled.
        serializerCompiler: () => (data) => JSON.stringify(data),
        schema: {
          tags,
          summary: 'Full info of one contract',
          description: 'StockInfo, FuturesInfo, OptionInfo or IndexInfo; warrants are read with the warrant listing.',
          params: CodeParam,
          querystring: LookupQuery,
          response: {
            200: Type.Union([
              StockInfoRecordSchema,
              FuturesInfoRecordSchema,
              OptionInfoRecordSchema,
              IndexInfoRecordSchema,
            ]),
            ...errorResponses(400, 404, 422),
          },
        },
      },
      // The hottest read of the API: prepared bytes with a JSON content type are sent as is, skipping the union
      // serializer (the schema still documents the response); each info object is serialized once, and its bytes
      // are kept by URL until the listing changes. Refusals (unknown codes) are not kept.
      async ({ params, query, url }, reply) => {
        const cached = infoAnswers.get(url);
        if (cached !== undefined) return reply.type(JSON_TYPE).send(cached.body as never);
        const listing = infoAnswers.current();
        const info = await contracts.info(params.code, {
          securityType: query.security_type,
          region: query.region,
          exchange: query.exchange,
        });
        const answer = jsonOnce(recordOf(info));
        infoAnswers.set(url, keptAnswer(answer, JSON_TYPE), listing);
        return reply.type(JSON_TYPE).send(answer as never);
      },
    );

    app.get(
      CONTRACT_ROUTES.futuresRoots,
      {
        schema: {
          tags,
          summary: 'Futures products',
          querystring: RegionQuery,
          response: { 200: Type.Array(RootNameSchema), ...errorResponses(422) },
        },
      },
      async ({ query }) => contracts.futuresRoots(query.region),
    );

    app.get(
      CONTRACT_ROUTES.futures,
      {
        schema: {
          tags,
          summary: 'Futures of a product or of an underlying',
          description:
            'Give root or underlying_code (not both); neither lists every futures. Lists specific months and the ' +
            'R1/R2 continuous aliases, which carry target_code.',
          querystring: Type.Object({
            root: Type.Optional(Type.String({ minLength: 1, maxLength: 10 })),
            underlying_code: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
            delivery_month: Type.Optional(MonthQuery),
            region: Type.Optional(RegionSchema),
          }),
          response: { 200: Type.Array(FuturesInfoRecordSchema), ...errorResponses(400, 404, 422) },
        },
      },
      async ({ query }) =>
        (
          await contracts.futures({
            root: query.root,
            underlyingCode: query.underlying_code,
            deliveryMonth: query.delivery_month,
            region: query.region,
          })
        ).map(infoRecordOf),
    );

    app.get(
      CONTRACT_ROUTES.optionsRoots,
      {
        schema: {
          tags,
          summary: 'Option products',
          querystring: RegionQuery,
          response: { 200: Type.Array(RootNameSchema), ...errorResponses(422) },
        },
      },
      async ({ query }) => contracts.optionRoots(query.region),
    );

    app.get(
      CONTRACT_ROUTES.options,
      {
        schema: {
          tags,
          summary: 'Options of a product, filtered',
          description:
            'root TXO returns the whole TXO family (monthly and weekly series); a weekly root (TX1, TXU, ...) only ' +
            'its series. expiry_weekday Wed or Fri selects by expiry weekday.',
          querystring: Type.Object({
            root: Type.String({ minLength: 1, maxLength: 10 }),
            delivery_month: Type.Optional(MonthQuery),
            option_right: Type.Optional(Right),
            strike_min: Type.Optional(Strike),
            strike_max: Type.Optional(Strike),
            expiry_weekday: Type.Optional(
              Type.String({ pattern: '^([Mm]on|[Tt]ue|[Ww]ed|[Tt]hu|[Ff]ri)([a-z]{0,6})$', maxLength: 9 }),
            ),
            region: Type.Optional(RegionSchema),
          }),
          response: { 200: Type.Array(OptionInfoRecordSchema), ...errorResponses(404, 422) },
        },
      },
      async ({ query }) =>
        (
          await contracts.options({
            root: query.root,
            deliveryMonth: query.delivery_month,
            optionRight: query.option_right,
            strikeMin: query.strike_min,
            strikeMax: query.strike_max,
            expiryWeekday: query.expiry_weekday,
            region: query.region,
          })
        ).map(infoRecordOf),
    );

    app.get(
      CONTRACT_ROUTES.warrantUnderlyings,
      {
        schema: {
          tags,
          summary: 'Stocks that have warrants',
          querystring: Type.Object({
            include_name: Type.Optional(Type.Boolean({ default: false })),
            region: Type.Optional(RegionSchema),
          }),
          response: { 200: Type.Array(WarrantUnderlyingSchema), ...errorResponses(422) },
        },
      },
      async ({ query }) =>
        (await contracts.warrantUnderlyings(query.region)).map(({ underlying_code, name, warrant_count }) =>
          query.include_name ? { underlying_code, name, warrant_count } : { underlying_code, warrant_count },
        ),
    );

    app.get(
      CONTRACT_ROUTES.warrants,
      {
        schema: {
          tags,
          summary: 'Warrants on an underlying, filtered',
          querystring: Type.Object({
            underlying_code: Type.String({ minLength: 1, maxLength: 20 }),
            code: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
            call_put: Type.Optional(Right),
            strike_min: Type.Optional(Strike),
            strike_max: Type.Optional(Strike),
            expiry_from: Type.Optional(DateQuery),
            expiry_to: Type.Optional(DateQuery),
            region: Type.Optional(RegionSchema),
          }),
          response: { 200: Type.Array(WarrantInfoRecordSchema), ...errorResponses(404, 422) },
        },
      },
      async ({ query }) =>
        (
          await contracts.warrants({
            underlyingCode: query.underlying_code,
            code: query.code,
            callPut: query.call_put,
            strikeMin: query.strike_min,
            strikeMax: query.strike_max,
            expiryFrom: query.expiry_from,
            expiryTo: query.expiry_to,
            region: query.region,
          })
        ).map(infoRecordOf),
    );

    app.post(
      CONTRACT_ROUTES.combo,
      {
        schema: {
          tags,
          summary: 'Create a combo contract from two legs',
          description:
            'Legs in the exchange order: time spreads [near, far]; call price spreads [higher, lower strike]; put ' +
            'price spreads [lower, higher]; straddles, strangles and conversions [call, put]. combo_type is required ' +
            'where the legs are ambiguous (Straddle vs ConversionReversal). Legs carry no action and are never R1/R2.',
          body: ComboRequestSchema,
          response: { 200: ComboContractSchema, ...errorResponses(400, 404, 422) },
        },
      },
      async ({ body }) => contracts.createCombo(body.legs, body.combo_type ?? undefined),
    );

    app.get(
      CONTRACT_ROUTES.comboFutures,
      {
        schema: {
          tags,
          summary: 'Every valid futures time-spread combo of a product',
          querystring: Type.Object({
            root: Type.String({ minLength: 1, maxLength: 10 }),
            region: Type.Optional(RegionSchema),
          }),
          response: { 200: Type.Array(ComboContractSchema), ...errorResponses(404, 422) },
        },
      },
      async ({ query }) => contracts.futuresCombos(query.root, query.region),
    );

    app.get(
      CONTRACT_ROUTES.tickBands,
      {
        schema: {
          tags,
          summary: 'A tick-band rule (the tick_rule of a product)',
          description: "Products with tick_basis 'fixed' have no rule (400): use their tick field.",
          params: Type.Object({ rule: Type.String({ minLength: 1, maxLength: 20 }) }),
          querystring: Type.Object({
            security_type: Type.Enum(['FUT', 'OPT']),
            region: Type.Optional(RegionSchema),
          }),
          response: { 200: TickBandRuleSchema, ...errorResponses(400, 404, 422) },
        },
      },
      async ({ params, query }) => contracts.tickBandRule(params.rule, query.security_type, query.region),
    );
  };
}
