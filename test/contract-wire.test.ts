// The wire types of src/contract/wire/ are the server's TypeBox schemas, written out: at compile time (tsc -p
// tsconfig.test.json) each is checked to be exactly the static type of its schema, both ways, so a field added,
// dropped, renamed or retyped on either side breaks the build of this file. At run time, every wire type is shown to
// be checked here (itself or through the type that holds it), and every named schema of the OpenAPI document to have
// its wire type, so neither side can grow a type the other lacks.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type * as Wire from '../src/contract/wire.js';
import type { AgentHarnessPatchSchema, AgentHarnessStateSchema } from '../src/server/routes/agent-harness.js';
import type { CaExpireTimeSchema } from '../src/server/routes/auth.js';
import type { ContractsRequestSchema } from '../src/server/routes/contracts.js';
import type { IndexBodySchema, KbarsSubscriptionBodySchema } from '../src/server/routes/derived-streams.js';
import type * as Accounts from '../src/server/schemas/accounts.js';
import type * as Apps from '../src/server/schemas/apps.js';
import type * as Contracts from '../src/server/schemas/contracts.js';
import type * as IndexStreams from '../src/server/schemas/index-streams.js';
import type * as MarketData from '../src/server/schemas/market-data.js';
import type * as Monitor from '../src/server/schemas/monitor.js';
import type * as Orders from '../src/server/schemas/orders.js';
import type * as Portfolio from '../src/server/schemas/portfolio.js';
import type * as Reserve from '../src/server/schemas/reserve.js';
import type * as ScannerStream from '../src/server/schemas/scanner-stream.js';
import type * as Streams from '../src/server/schemas/streams.js';
import type * as Watchlists from '../src/server/schemas/watchlists.js';
import { REPO_ROOT } from './helpers/import-graph.js';
import { appOver, removeDir, tempDir } from './server/apps-fixtures.js';

/** 'same' when every value of one is a value of the other; else which side allows more. */
type Verdict<Schema, Wire> = [Schema] extends [Wire]
  ? [Wire] extends [Schema]
    ? 'same'
    : 'the wire type allows more than the schema'
  : 'the schema allows more than the wire type';

/** Each wire type with the schema it is written from. */
interface Pairs {
  Account: [typeof Accounts.AccountSchema, Wire.Account];
  AccountSelector: [typeof Accounts.AccountSelectorSchema, Wire.AccountSelector];
  AccountRequest: [typeof Accounts.AccountRequestSchema, Wire.AccountRequest];
  SubscribeTradeResponse: [typeof Streams.SubscribeTradeResponseSchema, Wire.SubscribeTradeResponse];
  StockAccountRequest: [typeof Portfolio.StockAccountBodySchema, Wire.StockAccountRequest];
  FuturesAccountRequest: [typeof Portfolio.FuturesAccountBodySchema, Wire.FuturesAccountRequest];
  AccountBalance: [typeof Portfolio.AccountBalanceSchema, Wire.AccountBalance];
  Margin: [typeof Portfolio.MarginSchema, Wire.Margin];
  Settlement: [typeof Portfolio.SettlementSchema, Wire.Settlement];
  TradingLimits: [typeof Portfolio.TradingLimitsSchema, Wire.TradingLimits];
  Contract: [typeof Contracts.ContractSchema, Wire.Contract];
  StockInfoRecord: [typeof Contracts.StockInfoRecordSchema, Wire.StockInfoRecord];
  FuturesInfoRecord: [typeof Contracts.FuturesInfoRecordSchema, Wire.FuturesInfoRecord];
  OptionInfoRecord: [typeof Contracts.OptionInfoRecordSchema, Wire.OptionInfoRecord];
  IndexInfoRecord: [typeof Contracts.IndexInfoRecordSchema, Wire.IndexInfoRecord];
  WarrantInfoRecord: [typeof Contracts.WarrantInfoRecordSchema, Wire.WarrantInfoRecord];
  ComboContract: [typeof Contracts.ComboContractSchema, Wire.ComboContract];
  ComboRequest: [typeof Contracts.ComboRequestSchema, Wire.ComboRequest];
  ContractList: [typeof Contracts.ContractListSchema, Wire.ContractList];
  RootName: [typeof Contracts.RootNameSchema, Wire.RootName];
  WarrantUnderlying: [typeof Contracts.WarrantUnderlyingSchema, Wire.WarrantUnderlying];
  TickBandRule: [typeof Contracts.TickBandRuleSchema, Wire.TickBandRule];
  Watchlist: [typeof Watchlists.WatchlistSchema, Wire.Watchlist];
  WatchlistCreateRequest: [typeof Watchlists.WatchlistCreateSchema, Wire.WatchlistCreateRequest];
  WatchlistReplaceRequest: [typeof Watchlists.WatchlistReplaceSchema, Wire.WatchlistReplaceRequest];
  WatchlistContractsRequest: [typeof Watchlists.WatchlistContractsSchema, Wire.WatchlistContractsRequest];
  ContractRef: [typeof MarketData.ContractRefSchema, Wire.ContractRef];
  ComboRef: [typeof MarketData.ComboRefSchema, Wire.ComboRef];
  InstrumentRef: [typeof MarketData.InstrumentRefSchema, Wire.InstrumentRef];
  TicksRequest: [typeof MarketData.TicksBodySchema, Wire.TicksRequest];
  Ticks: [typeof MarketData.TicksSchema, Wire.Ticks];
  KbarsRequest: [typeof MarketData.KbarsBodySchema, Wire.KbarsRequest];
  Kbars: [typeof MarketData.KbarsSchema, Wire.Kbars];
  SnapshotsRequest: [typeof MarketData.SnapshotsBodySchema, Wire.SnapshotsRequest];
  Snapshot: [typeof MarketData.SnapshotSchema, Wire.Snapshot];
  ScannerRequest: [typeof MarketData.ScannerBodySchema, Wire.ScannerRequest];
  ScannerItem: [typeof MarketData.ScannerItemSchema, Wire.ScannerItem];
  StockContractsRequest: [typeof MarketData.StockContractsBodySchema, Wire.StockContractsRequest];
  CreditEnquire: [typeof MarketData.CreditEnquireSchema, Wire.CreditEnquire];
  ShortStockSource: [typeof MarketData.ShortStockSourceSchema, Wire.ShortStockSource];
  Punish: [typeof MarketData.PunishSchema, Wire.Punish];
  Notice: [typeof MarketData.NoticeSchema, Wire.Notice];
  DailyQuotesRequest: [typeof MarketData.DailyQuotesBodySchema, Wire.DailyQuotesRequest];
  DailyQuotes: [typeof MarketData.DailyQuotesSchema, Wire.DailyQuotes];
  IndexComponentsRequest: [typeof IndexStreams.IndexComponentsRequestSchema, Wire.IndexComponentsRequest];
  IndexComponents: [typeof IndexStreams.IndexComponentsSchema, Wire.IndexComponents];
  HeldIndexComponentsProjection: [typeof IndexStreams.HeldProjectionSchema, Wire.HeldIndexComponentsProjection];
  IndexComponentsProjection: [typeof IndexStreams.ProjectionSchema, Wire.IndexComponentsProjection];
  IndexComponentsSubscriptionRequest: [
    typeof IndexStreams.IndexComponentsBodySchema,
    Wire.IndexComponentsSubscriptionRequest,
  ];
  IndexContributionSubscriptionRequest: [
    typeof IndexStreams.IndexContributionBodySchema,
    Wire.IndexContributionSubscriptionRequest,
  ];
  IndustryContributionSubscriptionRequest: [
    typeof IndexStreams.IndustryContributionBodySchema,
    Wire.IndustryContributionSubscriptionRequest,
  ];
  KbarSubscriptionRequest: [typeof KbarsSubscriptionBodySchema, Wire.KbarSubscriptionRequest];
  CalculatedIndexSubscriptionRequest: [typeof IndexBodySchema, Wire.CalculatedIndexSubscriptionRequest];
  CapabilitySubscriptionResponse: [
    typeof ScannerStream.ScannerSubscriptionResponseSchema,
    Wire.CapabilitySubscriptionResponse,
  ];
  ScannerSubscription: [typeof ScannerStream.HeldScannerSchema, Wire.ScannerSubscription];
  ScannerSubscriptionRequest: [typeof ScannerStream.ScannerSubscriptionBodySchema, Wire.ScannerSubscriptionRequest];
  AgentHarness: [typeof AgentHarnessStateSchema, Wire.AgentHarness];
  AgentHarnessPatch: [typeof AgentHarnessPatchSchema, Wire.AgentHarnessPatch];
  CaExpireTime: [typeof CaExpireTimeSchema, Wire.CaExpireTime];
  ContractsRequest: [typeof ContractsRequestSchema, Wire.ContractsRequest];
  MonitorMetrics: [typeof Monitor.MetricsResponseSchema, Wire.MonitorMetrics];
  MonitorRequests: [typeof Monitor.RequestsResponseSchema, Wire.MonitorRequests];
  MonitorSubscriptions: [typeof Monitor.SubscriptionsResponseSchema, Wire.MonitorSubscriptions];
  MonitorStreams: [typeof Monitor.StreamsResponseSchema, Wire.MonitorStreams];
  MonitorSettings: [typeof Monitor.SettingsResponseSchema, Wire.MonitorSettings];
  MonitorSettingsPatch: [typeof Monitor.SettingsPatchSchema, Wire.MonitorSettingsPatch];
  MonitorViewerSession: [typeof Monitor.ViewerSessionSchema, Wire.MonitorViewerSession];
  MonitorViewerReleased: [typeof Monitor.ViewerReleasedSchema, Wire.MonitorViewerReleased];
  StockOrder: [typeof Orders.StockOrderSchema, Wire.StockOrder];
  FuturesOrder: [typeof Orders.FuturesOrderSchema, Wire.FuturesOrder];
  PlaceOrderRequest: [typeof Orders.PlaceOrderBodySchema, Wire.PlaceOrderRequest];
  StockTrade: [typeof Orders.StockTradeSchema, Wire.StockTrade];
  FuturesTrade: [typeof Orders.FuturesTradeSchema, Wire.FuturesTrade];
  Trade: [typeof Orders.TradeSchema, Wire.Trade];
  TradeIdRequest: [typeof Orders.TradeIdBodySchema, Wire.TradeIdRequest];
  UpdatePriceRequest: [typeof Orders.UpdatePriceBodySchema, Wire.UpdatePriceRequest];
  UpdateQtyRequest: [typeof Orders.UpdateQtyBodySchema, Wire.UpdateQtyRequest];
  PlaceComboOrderRequest: [typeof Orders.PlaceComboOrderBodySchema, Wire.PlaceComboOrderRequest];
  ComboTrade: [typeof Orders.ComboTradeSchema, Wire.ComboTrade];
  TradesRequest: [typeof Orders.TradesBodySchema, Wire.TradesRequest];
  TradesPageRequest: [typeof Orders.TradesPageBodySchema, Wire.TradesPageRequest];
  PositionsRequest: [typeof Portfolio.PositionsBodySchema, Wire.PositionsRequest];
  Positions: [typeof Portfolio.PositionsSchema, Wire.Positions];
  StockPosition: [typeof Portfolio.StockPositionSchema, Wire.StockPosition];
  FuturePosition: [typeof Portfolio.FuturePositionSchema, Wire.FuturePosition];
  PositionDetailRequest: [typeof Portfolio.PositionDetailBodySchema, Wire.PositionDetailRequest];
  PositionDetails: [typeof Portfolio.PositionDetailsSchema, Wire.PositionDetails];
  StockPositionDetail: [typeof Portfolio.StockPositionDetailSchema, Wire.StockPositionDetail];
  FuturePositionDetail: [typeof Portfolio.FuturePositionDetailSchema, Wire.FuturePositionDetail];
  ProfitLossRequest: [typeof Portfolio.ProfitLossBodySchema, Wire.ProfitLossRequest];
  ProfitLosses: [typeof Portfolio.ProfitLossesSchema, Wire.ProfitLosses];
  StockProfitLoss: [typeof Portfolio.StockProfitLossSchema, Wire.StockProfitLoss];
  FutureProfitLoss: [typeof Portfolio.FutureProfitLossSchema, Wire.FutureProfitLoss];
  ProfitLossDetailRequest: [typeof Portfolio.ProfitLossDetailBodySchema, Wire.ProfitLossDetailRequest];
  ProfitLossDetails: [typeof Portfolio.ProfitDetailsSchema, Wire.ProfitLossDetails];
  StockProfitDetail: [typeof Portfolio.StockProfitDetailSchema, Wire.StockProfitDetail];
  FutureProfitDetail: [typeof Portfolio.FutureProfitDetailSchema, Wire.FutureProfitDetail];
  ProfitLossSummaryRequest: [typeof Portfolio.ProfitLossSummaryBodySchema, Wire.ProfitLossSummaryRequest];
  ProfitLossSummary: [typeof Portfolio.ProfitLossSummarySchema, Wire.ProfitLossSummary];
  StockProfitLossSummary: [typeof Portfolio.StockProfitLossSummarySchema, Wire.StockProfitLossSummary];
  FutureProfitLossSummary: [typeof Portfolio.FutureProfitLossSummarySchema, Wire.FutureProfitLossSummary];
  ProfitLossTotal: [typeof Portfolio.ProfitLossTotalSchema, Wire.ProfitLossTotal];
  ReserveStocksSummary: [typeof Reserve.ReserveStocksSummarySchema, Wire.ReserveStocksSummary];
  ReserveStocksDetail: [typeof Reserve.ReserveStocksDetailSchema, Wire.ReserveStocksDetail];
  EarmarkStocksDetail: [typeof Reserve.EarmarkStocksDetailSchema, Wire.EarmarkStocksDetail];
  ReserveStockRequest: [typeof Reserve.ReserveStockBodySchema, Wire.ReserveStockRequest];
  ReserveOrderResp: [typeof Reserve.ReserveStockResultSchema, Wire.ReserveOrderResp];
  ReserveEarmarkingRequest: [typeof Reserve.ReserveEarmarkingBodySchema, Wire.ReserveEarmarkingRequest];
  EarmarkingOrderResp: [typeof Reserve.EarmarkingResultSchema, Wire.EarmarkingOrderResp];
  SubscriptionRequest: [typeof Streams.SubscribeBodySchema, Wire.SubscriptionRequest];
  Subscription: [typeof Streams.SubscriptionSchema, Wire.Subscription];
  SubscriptionResponse: [typeof Streams.SubscriptionResponseSchema, Wire.SubscriptionResponse];
  SubscriptionList: [typeof Streams.SubscriptionListSchema, Wire.SubscriptionList];
  StreamStatus: [typeof Streams.StreamStatusSchema, Wire.StreamStatus];
  AppList: [typeof Apps.AppListResponse, Wire.AppList];
  AppUploadResult: [typeof Apps.AppUploadResponse, Wire.AppUploadResult];
  AppDeleted: [typeof Apps.AppDeleteResponse, Wire.AppDeleted];
}

type StaticOf<Schema> = Schema extends TSchema ? Static<Schema> : never;
type VerdictOf<Name extends keyof Pairs> = Verdict<StaticOf<Pairs[Name][0]>, Pairs[Name][1]>;

/**
 * The pairs whose types differ, each with how: `{}` is not one when any is, and tsc names the missing property (the
 * wire type that drifted) and the verdict.
 */
type Drifted = { [Name in keyof Pairs as VerdictOf<Name> extends 'same' ? never : Name]: VerdictOf<Name> };
export const DRIFTED_WIRE_TYPES: Drifted = {};

/** The names of Pairs, at run time: `satisfies` keeps the list and the interface the same set. */
const CHECKED = Object.keys({
  Account: 1,
  AccountSelector: 1,
  AccountRequest: 1,
  SubscribeTradeResponse: 1,
  StockAccountRequest: 1,
  FuturesAccountRequest: 1,
  AccountBalance: 1,
  Margin: 1,
  Settlement: 1,
  TradingLimits: 1,
  Contract: 1,
  StockInfoRecord: 1,
  FuturesInfoRecord: 1,
  OptionInfoRecord: 1,
  IndexInfoRecord: 1,
  WarrantInfoRecord: 1,
  ComboContract: 1,
  ComboRequest: 1,
  ContractList: 1,
  RootName: 1,
  WarrantUnderlying: 1,
  TickBandRule: 1,
  Watchlist: 1,
  WatchlistCreateRequest: 1,
  WatchlistReplaceRequest: 1,
  WatchlistContractsRequest: 1,
  ContractRef: 1,
  ComboRef: 1,
  InstrumentRef: 1,
  TicksRequest: 1,
  Ticks: 1,
  KbarsRequest: 1,
  Kbars: 1,
  SnapshotsRequest: 1,
  Snapshot: 1,
  ScannerRequest: 1,
  ScannerItem: 1,
  StockContractsRequest: 1,
  CreditEnquire: 1,
  ShortStockSource: 1,
  Punish: 1,
  Notice: 1,
  DailyQuotesRequest: 1,
  DailyQuotes: 1,
  IndexComponentsRequest: 1,
  IndexComponents: 1,
  HeldIndexComponentsProjection: 1,
  IndexComponentsProjection: 1,
  IndexComponentsSubscriptionRequest: 1,
  IndexContributionSubscriptionRequest: 1,
  IndustryContributionSubscriptionRequest: 1,
  KbarSubscriptionRequest: 1,
  CalculatedIndexSubscriptionRequest: 1,
  CapabilitySubscriptionResponse: 1,
  ScannerSubscription: 1,
  ScannerSubscriptionRequest: 1,
  AgentHarness: 1,
  AgentHarnessPatch: 1,
  CaExpireTime: 1,
  ContractsRequest: 1,
  MonitorMetrics: 1,
  MonitorRequests: 1,
  MonitorSubscriptions: 1,
  MonitorStreams: 1,
  MonitorSettings: 1,
  MonitorSettingsPatch: 1,
  MonitorViewerSession: 1,
  MonitorViewerReleased: 1,
  StockOrder: 1,
  FuturesOrder: 1,
  PlaceOrderRequest: 1,
  StockTrade: 1,
  FuturesTrade: 1,
  Trade: 1,
  TradeIdRequest: 1,
  UpdatePriceRequest: 1,
  UpdateQtyRequest: 1,
  PlaceComboOrderRequest: 1,
  ComboTrade: 1,
  TradesRequest: 1,
  TradesPageRequest: 1,
  PositionsRequest: 1,
  Positions: 1,
  StockPosition: 1,
  FuturePosition: 1,
  PositionDetailRequest: 1,
  PositionDetails: 1,
  StockPositionDetail: 1,
  FuturePositionDetail: 1,
  ProfitLossRequest: 1,
  ProfitLosses: 1,
  StockProfitLoss: 1,
  FutureProfitLoss: 1,
  ProfitLossDetailRequest: 1,
  ProfitLossDetails: 1,
  StockProfitDetail: 1,
  FutureProfitDetail: 1,
  ProfitLossSummaryRequest: 1,
  ProfitLossSummary: 1,
  StockProfitLossSummary: 1,
  FutureProfitLossSummary: 1,
  ProfitLossTotal: 1,
  ReserveStocksSummary: 1,
  ReserveStocksDetail: 1,
  EarmarkStocksDetail: 1,
  ReserveStockRequest: 1,
  ReserveOrderResp: 1,
  ReserveEarmarkingRequest: 1,
  EarmarkingOrderResp: 1,
  SubscriptionRequest: 1,
  Subscription: 1,
  SubscriptionResponse: 1,
  SubscriptionList: 1,
  StreamStatus: 1,
  AppList: 1,
  AppUploadResult: 1,
  AppDeleted: 1,
} satisfies Record<keyof Pairs, 1>);

/** Types checked through the type that holds or names them (their schemas are not exported on their own). */
const HELD: Record<string, keyof Pairs> = {
  AccountFields: 'AccountSelector',
  AccountQuery: 'AccountRequest',
  ComboLegRef: 'ComboRef',
  BaseContract: 'IndexComponents',
  IndexComponentEntry: 'IndexComponents',
  IndexComponentGroup: 'IndexComponents',
  MonitorCoverage: 'MonitorMetrics',
  MonitorRequestSummary: 'MonitorRequests',
  MonitorSubscription: 'MonitorSubscriptions',
  MonitorStreamRow: 'MonitorStreams',
  TradeContract: 'Trade',
  StockTradeOrder: 'StockTrade',
  FuturesTradeOrder: 'FuturesTrade',
  Deal: 'StockTrade',
  RuleViolation: 'StockTrade',
  TradeStatus: 'StockTrade',
  ComboOrderLeg: 'PlaceComboOrderRequest',
  ComboOrderContract: 'PlaceComboOrderRequest',
  ComboOrder: 'PlaceComboOrderRequest',
  ComboTradeLeg: 'ComboTrade',
  ComboTradeOrder: 'ComboTrade',
  ComboTradeStatus: 'ComboTrade',
  ProductSubscription: 'Subscription',
  ComboSubscription: 'Subscription',
  ScannerPresetRule: 'ScannerSubscriptionRequest',
};

/** Titles of the document that are no JSON body of a route. */
const NOT_WIRE: Record<string, string> = {
  sjgate: "the document's own title",
  ErrorEnvelope: 'every error answer: ApiErrorBody of src/client/errors.ts',
  ServerSentEvent: 'a frame of an event stream: StreamEvent of src/client/events.ts',
  AppUpload: 'a multipart upload, sent as FormData',
};

const WIRE_DIR = join(REPO_ROOT, 'src', 'contract', 'wire');
const wireTypeNames = (): string[] =>
  readdirSync(WIRE_DIR).flatMap((file) =>
    [...readFileSync(join(WIRE_DIR, file), 'utf8').matchAll(/^export (?:interface|type) (\w+)/gm)].map(
      (match) => match[1] as string,
    ),
  );

describe('the wire types and the schemas of the server', () => {
  let app: FastifyInstance;
  let appsDir: string;
  let titles: Set<string>;
  before(
    async () => {
      appsDir = tempDir();
      app = await appOver(appsDir);
      const doc = (await app.inject('/openapi.json')).body;
      titles = new Set([...doc.matchAll(/"title":"(\w+)"/g)].map((match) => match[1] as string));
    },
    { timeout: 30_000 },
  );
  after(
    async () => {
      await app?.close();
      if (appsDir) removeDir(appsDir);
    },
    { timeout: 10_000 },
  );

  test('every wire type is compared with its schema, or with the schema of the type that holds it', () => {
    const checked = new Set([...CHECKED, ...Object.keys(HELD)]);
    assert.deepEqual(
      wireTypeNames().filter((name) => !checked.has(name)),
      [],
      'wire types no check covers: add them to Pairs',
    );
    for (const [held, holder] of Object.entries(HELD)) assert.ok(CHECKED.includes(holder), `${held} is in ${holder}`);
  });

  test('every named schema of the OpenAPI document has its wire type', () => {
    assert.ok(titles.size > 100, `the document names its schemas (${titles.size})`);
    const names = new Set([...wireTypeNames(), ...Object.keys(NOT_WIRE), 'AppList', 'AppUploadResult', 'AppDeleted']);
    assert.deepEqual(
      [...titles].filter((title) => !names.has(title)),
      [],
      'schemas without a wire type in src/contract/wire/',
    );
  });
});
