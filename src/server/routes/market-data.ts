// Market data: ticks, one-minute bars, snapshots, rankings, credit and short-sale sources, regulatory lists.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { MARKET_DATA_ROUTES } from '../../contract/paths.js';
import { emptyKbars, emptyTicks } from '../../domain/market-data.js';
import type { Gateway } from '../../gateway/gateway.js';
import { FinishedDayAnswers } from '../finished-days.js';
import { errorResponses } from '../schemas/common.js';
import {
  CreditEnquireSchema,
  DailyQuotesBodySchema,
  DailyQuotesSchema,
  KbarsBodySchema,
  KbarsSchema,
  NoticeSchema,
  PunishSchema,
  ScannerBodySchema,
  ScannerItemSchema,
  ShortStockSourceSchema,
  SnapshotSchema,
  SnapshotsBodySchema,
  StockContractsBodySchema,
  TicksBodySchema,
  TicksSchema,
} from '../schemas/market-data.js';

const tags = ['data'];
const QUERY_ERRORS = errorResponses(400, 404, 422, 429);

export function marketDataRoutes(gateway: Gateway): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const data = gateway.marketData;
    const finished = new FinishedDayAnswers(gateway.clock);

    app.post(
      MARKET_DATA_ROUTES.ticks,
      {
        config: { rateGroups: ['market-data', 'ticks'], traffic: { empty: emptyTicks } },
        schema: {
          tags,
          summary: 'Ticks of a day (AllDay, RangeTime or LastCount)',
          description:
            'Columnar ticks of one contract or combo (net prices). The day defaults to the latest trading day; ' +
            "today's ticks are those traded so far. Counts toward the daily traffic limit.",
          body: TicksBodySchema,
          response: { 200: TicksSchema, ...QUERY_ERRORS },
        },
      },
      async ({ body }, reply) => {
        const { time_start: start, time_end: end, ...query } = body;
        return finished.send(reply, `ticks ${JSON.stringify(body)}`, query.date ?? undefined, () =>
          data.ticks({
            ...query,
            ...(start == null ? {} : { time_start: start }),
            ...(end == null ? {} : { time_end: end }),
          }),
        );
      },
    );

    app.post(
      MARKET_DATA_ROUTES.kbars,
      {
        config: { rateGroups: ['market-data', 'kbars'], traffic: { empty: emptyKbars } },
        schema: {
          tags,
          summary: 'One-minute bars between two dates (at most 30 days)',
          description: 'Right-labelled bars aggregated from exactly the ticks of /data/ticks.',
          body: KbarsBodySchema,
          response: { 200: KbarsSchema, ...QUERY_ERRORS },
        },
      },
      async ({ body }, reply) =>
        finished.send(reply, `kbars ${JSON.stringify(body)}`, body.end ?? undefined, () => data.kbars(body)),
    );

    app.post(
      MARKET_DATA_ROUTES.snapshots,
      {
        config: { rateGroups: ['market-data'], traffic: { empty: () => [] } },
        schema: {
          tags,
          summary: 'Snapshots of up to 500 contracts (combos may be mixed in)',
          body: SnapshotsBodySchema,
          response: { 200: Type.Array(SnapshotSchema), ...QUERY_ERRORS },
        },
      },
      async ({ body }) => data.snapshots(body.contracts),
    );

    app.post(
      MARKET_DATA_ROUTES.scanner,
      {
        schema: {
          tags,
          summary: 'Stock rankings (ascending true = largest first)',
          body: ScannerBodySchema,
          response: { 200: Type.Array(ScannerItemSchema), ...errorResponses(400, 422) },
        },
      },
      async ({ body }) => data.scanner(body),
    );

    app.post(
      MARKET_DATA_ROUTES.creditEnquire,
      {
        config: { rateGroups: ['market-data'] },
        schema: {
          tags,
          summary: 'Margin and short balances of stocks',
          body: StockContractsBodySchema,
          response: { 200: Type.Array(CreditEnquireSchema), ...QUERY_ERRORS },
        },
      },
      async ({ body }) => data.creditEnquire(body.contracts),
    );

    app.post(
      MARKET_DATA_ROUTES.shortStockSources,
      {
        config: { rateGroups: ['market-data'] },
        schema: {
          tags,
          summary: 'Shares available to borrow for short selling',
          body: StockContractsBodySchema,
          response: { 200: Type.Array(ShortStockSourceSchema), ...QUERY_ERRORS },
        },
      },
      async ({ body }) => data.shortStockSources(body.contracts),
    );

    app.get(
      MARKET_DATA_ROUTES.regulatoryPunish,
      { schema: { tags, summary: 'Disposition stocks (columnar)', response: { 200: PunishSchema } } },
      async () => data.punish(),
    );

    app.get(
      MARKET_DATA_ROUTES.regulatoryNotice,
      { schema: { tags, summary: 'Attention stocks (columnar)', response: { 200: NoticeSchema } } },
      async () => data.notice(),
    );

    app.post(
      MARKET_DATA_ROUTES.dailyQuotes,
      {
        schema: {
          tags,
          summary: 'Daily quotes of every stock (columnar)',
          body: DailyQuotesBodySchema,
          response: { 200: DailyQuotesSchema, ...errorResponses(400, 422) },
        },
      },
      async ({ body }) => data.dailyQuotes(body.date, body.exclude ?? true),
    );
  };
}
