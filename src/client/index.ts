// sjgate/client: a typed client of the gateway's REST API and event streams, for Node 20 and browsers. One method
// per route of /api/v1, grouped like the API; answers typed with the wire types of src/contract/wire.ts; an error
// answer thrown as an ApiError holding the JSON error envelope; event streams followed as async iterators that
// reconnect with Last-Event-ID. The CLI and the dashboard use it too (docs/api.md, "JavaScript/TypeScript client").

import {
  AGENT_PATHS,
  APP_PATHS,
  AUTH_PATHS,
  CONTRACT_PATHS,
  MARKET_DATA_PATHS,
  MONITOR_PATHS,
  ORDER_PATHS,
  PORTFOLIO_PATHS,
  RESERVE_PATHS,
  SERVER_PATHS,
  SSE_PATHS,
  STREAM_PATHS,
  streamDataPath,
  WATCHLIST_PATHS,
} from '../contract/paths.js';
import type * as Wire from '../contract/wire.js';
import { TRADE_PAGES } from '../contract/wire.js';
import { builders, type CallOptions, type Query, type Request, type Route, withQuery } from './endpoints.js';
import { ApiError, errorBodyOf } from './errors.js';
import { EventSubscription, type FollowOptions, retriedByDefault } from './events.js';
import { fetchTransport, type Transport, type TransportResponse } from './transport.js';

export type * from '../contract/wire.js';
export type { Call, CallOptions, JsonBody, Query, QueryValue, Route } from './endpoints.js';
export { withQuery } from './endpoints.js';
export { ApiError, type ApiErrorBody, errorBodyOf } from './errors.js';
export {
  abortableSleep,
  type Backoff,
  DEFAULT_BACKOFF,
  DEFAULT_SILENCE_MS,
  EventSubscription,
  type FollowOptions,
  retriedByDefault,
  type StreamEvent,
} from './events.js';
export {
  type FetchTransportOptions,
  fetchTransport,
  type Method,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';

/** The dedicated streams under /api/v1/stream/data/<name> (contract events have their own route). */
export const STREAM_FAMILIES = [
  'tick_stk',
  'bidask_stk',
  'quote_stk',
  'tick_fop',
  'bidask_fop',
  'quote_fop',
  'quote_idx',
  'kbar',
  'calculated_index',
  'index_contribution',
  'industry_contribution',
  'index_components',
  'scanner',
  'order_event',
] as const;
export type StreamFamily = (typeof STREAM_FAMILIES)[number];

export interface ClientOptions {
  /** Where the gateway is, e.g. `http://127.0.0.1:8000`; empty for the page's own origin. Ignored with `transport`. */
  baseUrl?: string;
  /** The fetch to use (globalThis.fetch unless given). Ignored with `transport`. */
  fetch?: typeof fetch;
  /** How requests are sent, instead of fetch (the CLI sends over the daemon's Unix socket). */
  transport?: Transport;
  /** `api_key:secret_key`, sent as the bearer token (a gateway bound beyond loopback asks for it). */
  token?: string | (() => string | null | undefined);
  /** Headers sent with every request. */
  headers?: Record<string, string> | (() => Record<string, string>);
  /** Called with every ApiError before it is thrown (the dashboard asks for sign-in on UNAUTHORIZED). */
  onError?: (error: ApiError) => void;
}

export class SjgateClient {
  readonly server;
  readonly auth;
  readonly contracts;
  readonly data;
  readonly orders;
  readonly portfolio;
  readonly reserve;
  readonly stream;
  readonly events;
  readonly apps;
  readonly watchlists;
  readonly agent;
  readonly monitor;
  readonly #transport: Transport;

  constructor(private readonly options: ClientOptions = {}) {
    this.#transport = options.transport ?? fetchTransport(options);
    const { get, getOne, send, sendOne, bare, upload } = builders((request) => this.request(request));
    const post = <Answer, B>(route: string) => send<Answer, B>('POST', route);
    this.server = {
      info: get<Wire.ServerInfo>(SERVER_PATHS.info),
      health: get<Wire.Health>(SERVER_PATHS.health),
    };
    this.auth = {
      accounts: get<Wire.Account[]>(AUTH_PATHS.accounts),
      defaultAccount: get<Wire.Account>(AUTH_PATHS.defaultAccount),
      setDefaultAccount: post<Wire.Account, Wire.AccountRequest>(AUTH_PATHS.defaultAccount),
      usage: get<Wire.Usage>(AUTH_PATHS.usage),
      caExpireTime: get<Wire.CaExpireTime>(AUTH_PATHS.caExpireTime),
      subscribeTrade: post<Wire.SubscribeTradeResponse, Wire.AccountRequest>(AUTH_PATHS.subscribeTrade),
      unsubscribeTrade: post<Wire.SubscribeTradeResponse, Wire.AccountRequest>(AUTH_PATHS.unsubscribeTrade),
    };
    this.contracts = {
      list: get<Wire.ContractList>(CONTRACT_PATHS.contracts),
      lookup: post<Wire.ContractList, Wire.ContractsRequest>(CONTRACT_PATHS.contracts),
      get: getOne<Wire.Contract>(CONTRACT_PATHS.contract),
      info: getOne<Wire.ContractInfo>(CONTRACT_PATHS.contractInfo),
      futuresRoots: get<Wire.RootName[]>(CONTRACT_PATHS.futuresRoots),
      futures: get<Wire.FuturesInfoRecord[]>(CONTRACT_PATHS.futures),
      optionsRoots: get<Wire.RootName[]>(CONTRACT_PATHS.optionsRoots),
      options: get<Wire.OptionInfoRecord[]>(CONTRACT_PATHS.options),
      warrantUnderlyings: get<Wire.WarrantUnderlying[]>(CONTRACT_PATHS.warrantUnderlyings),
      warrants: get<Wire.WarrantInfoRecord[]>(CONTRACT_PATHS.warrants),
      combo: post<Wire.ComboContract, Wire.ComboRequest>(CONTRACT_PATHS.combo),
      comboFutures: get<Wire.ComboContract[]>(CONTRACT_PATHS.comboFutures),
      tickBands: getOne<Wire.TickBandRule>(CONTRACT_PATHS.tickBands),
    };
    this.data = {
      ticks: post<Wire.Ticks, Wire.TicksRequest>(MARKET_DATA_PATHS.ticks),
      kbars: post<Wire.Kbars, Wire.KbarsRequest>(MARKET_DATA_PATHS.kbars),
      snapshots: post<Wire.Snapshot[], Wire.SnapshotsRequest>(MARKET_DATA_PATHS.snapshots),
      scanner: post<Wire.ScannerItem[], Wire.ScannerRequest>(MARKET_DATA_PATHS.scanner),
      creditEnquire: post<Wire.CreditEnquire[], Wire.StockContractsRequest>(MARKET_DATA_PATHS.creditEnquire),
      shortStockSources: post<Wire.ShortStockSource[], Wire.StockContractsRequest>(MARKET_DATA_PATHS.shortStockSources),
      regulatoryPunish: get<Wire.Punish>(MARKET_DATA_PATHS.regulatoryPunish),
      regulatoryNotice: get<Wire.Notice>(MARKET_DATA_PATHS.regulatoryNotice),
      dailyQuotes: post<Wire.DailyQuotes, Wire.DailyQuotesRequest>(MARKET_DATA_PATHS.dailyQuotes),
      indexComponents: post<Wire.IndexComponents, Wire.IndexComponentsRequest>(MARKET_DATA_PATHS.indexComponents),
    };
    this.orders = {
      placeOrder: post<Wire.Trade, Wire.PlaceOrderRequest>(ORDER_PATHS.placeOrder),
      cancelOrder: post<Wire.Trade, Wire.TradeIdRequest>(ORDER_PATHS.cancelOrder),
      updatePrice: post<Wire.Trade, Wire.UpdatePriceRequest>(ORDER_PATHS.updatePrice),
      updateQty: post<Wire.Trade, Wire.UpdateQtyRequest>(ORDER_PATHS.updateQty),
      placeComboOrder: post<Wire.ComboTrade, Wire.PlaceComboOrderRequest>(ORDER_PATHS.placeComboOrder),
      cancelComboOrder: post<Wire.ComboTrade, Wire.TradeIdRequest>(ORDER_PATHS.cancelComboOrder),
      comboTrades: post<Wire.ComboTrade[], Wire.TradesRequest>(ORDER_PATHS.comboTrades),
      trades: post<Wire.Trade[], Wire.TradesPageRequest>(ORDER_PATHS.trades),
      /** trades with paging fields, and the cursor of the next page: the same route as `trades`. */
      tradesPage: <T = Wire.Trade[]>(body: Wire.TradesPageRequest, options?: CallOptions) =>
        this.#tradesPage<T>(body, options),
      updateStatus: post<Wire.Trade[], Wire.TradesRequest>(ORDER_PATHS.updateStatus),
    };
    this.portfolio = {
      accountBalance: post<Wire.AccountBalance, Wire.StockAccountRequest>(PORTFOLIO_PATHS.accountBalance),
      margin: post<Wire.Margin, Wire.FuturesAccountRequest>(PORTFOLIO_PATHS.margin),
      positionUnit: post<Wire.Positions, Wire.PositionsRequest>(PORTFOLIO_PATHS.positionUnit),
      positionDetail: post<Wire.PositionDetails, Wire.PositionDetailRequest>(PORTFOLIO_PATHS.positionDetail),
      profitLoss: post<Wire.ProfitLosses, Wire.ProfitLossRequest>(PORTFOLIO_PATHS.profitLoss),
      profitLossDetail: post<Wire.ProfitLossDetails, Wire.ProfitLossDetailRequest>(PORTFOLIO_PATHS.profitLossDetail),
      profitLossSum: post<Wire.ProfitLossSummary, Wire.ProfitLossSummaryRequest>(PORTFOLIO_PATHS.profitLossSum),
      settlements: post<Wire.Settlement[], Wire.StockAccountRequest>(PORTFOLIO_PATHS.settlements),
      tradingLimits: post<Wire.TradingLimits, Wire.StockAccountRequest>(PORTFOLIO_PATHS.tradingLimits),
    };
    this.reserve = {
      stockReserveSummary: post<Wire.ReserveStocksSummary, Wire.StockAccountRequest>(RESERVE_PATHS.stockReserveSummary),
      stockReserveDetail: post<Wire.ReserveStocksDetail, Wire.StockAccountRequest>(RESERVE_PATHS.stockReserveDetail),
      reserveStock: post<Wire.ReserveOrderResp, Wire.ReserveStockRequest>(RESERVE_PATHS.reserveStock),
      earmarkingDetail: post<Wire.EarmarkStocksDetail, Wire.StockAccountRequest>(RESERVE_PATHS.earmarkingDetail),
      reserveEarmarking: post<Wire.EarmarkingOrderResp, Wire.ReserveEarmarkingRequest>(RESERVE_PATHS.reserveEarmarking),
    };
    this.stream = {
      subscribe: post<Wire.SubscriptionResponse, Wire.SubscriptionRequest>(STREAM_PATHS.subscribe),
      unsubscribe: post<Wire.SubscriptionResponse, Wire.SubscriptionRequest>(STREAM_PATHS.unsubscribe),
      subscribeKbars: post<Wire.CapabilitySubscriptionResponse, Wire.KbarSubscriptionRequest>(
        STREAM_PATHS.subscribeKbars,
      ),
      unsubscribeKbars: post<Wire.CapabilitySubscriptionResponse, Wire.KbarSubscriptionRequest>(
        STREAM_PATHS.unsubscribeKbars,
      ),
      subscribeCalculatedIndex: post<Wire.CapabilitySubscriptionResponse, Wire.CalculatedIndexSubscriptionRequest>(
        STREAM_PATHS.subscribeCalculatedIndex,
      ),
      unsubscribeCalculatedIndex: post<Wire.CapabilitySubscriptionResponse, Wire.CalculatedIndexSubscriptionRequest>(
        STREAM_PATHS.unsubscribeCalculatedIndex,
      ),
      subscribeIndexContribution: post<Wire.CapabilitySubscriptionResponse, Wire.IndexContributionSubscriptionRequest>(
        STREAM_PATHS.subscribeIndexContribution,
      ),
      unsubscribeIndexContribution: post<
        Wire.CapabilitySubscriptionResponse,
        Wire.IndexContributionSubscriptionRequest
      >(STREAM_PATHS.unsubscribeIndexContribution),
      subscribeIndustryContribution: post<
        Wire.CapabilitySubscriptionResponse,
        Wire.IndustryContributionSubscriptionRequest
      >(STREAM_PATHS.subscribeIndustryContribution),
      unsubscribeIndustryContribution: post<
        Wire.CapabilitySubscriptionResponse,
        Wire.IndustryContributionSubscriptionRequest
      >(STREAM_PATHS.unsubscribeIndustryContribution),
      subscribeIndexComponents: post<Wire.CapabilitySubscriptionResponse, Wire.IndexComponentsSubscriptionRequest>(
        STREAM_PATHS.subscribeIndexComponents,
      ),
      unsubscribeIndexComponents: post<Wire.CapabilitySubscriptionResponse, Wire.IndexComponentsSubscriptionRequest>(
        STREAM_PATHS.unsubscribeIndexComponents,
      ),
      subscribeScanner: post<Wire.CapabilitySubscriptionResponse, Wire.ScannerSubscriptionRequest>(
        STREAM_PATHS.subscribeScanner,
      ),
      unsubscribeScanner: post<Wire.CapabilitySubscriptionResponse, Wire.ScannerSubscriptionRequest>(
        STREAM_PATHS.unsubscribeScanner,
      ),
      subscriptions: get<Wire.SubscriptionList>(STREAM_PATHS.subscriptions),
      status: get<Wire.StreamStatus>(STREAM_PATHS.status),
      receivers: get<string>(STREAM_PATHS.receivers),
    };
    this.events = this.#events();
    this.apps = {
      list: get<Wire.AppList>(APP_PATHS.apps),
      upload: upload<Wire.AppUploadResult>(APP_PATHS.app),
      remove: bare<Wire.AppDeleted>('DELETE', APP_PATHS.app),
    };
    this.watchlists = {
      list: get<Wire.Watchlist[]>(WATCHLIST_PATHS.watchlists),
      create: post<Wire.Watchlist, Wire.WatchlistCreateRequest>(WATCHLIST_PATHS.watchlists),
      get: getOne<Wire.Watchlist>(WATCHLIST_PATHS.watchlist),
      replace: sendOne<Wire.Watchlist, Wire.WatchlistReplaceRequest>('PUT', WATCHLIST_PATHS.watchlist),
      remove: bare<Wire.Watchlist>('DELETE', WATCHLIST_PATHS.watchlist),
      addContracts: sendOne<Wire.Watchlist, Wire.WatchlistContractsRequest>('POST', WATCHLIST_PATHS.contracts),
      removeContracts: sendOne<Wire.Watchlist, Wire.WatchlistContractsRequest>('DELETE', WATCHLIST_PATHS.contracts),
    };
    this.agent = {
      harness: get<Wire.AgentHarness>(AGENT_PATHS.harness),
      setHarness: send<Wire.AgentHarness, Wire.AgentHarnessPatch>('PATCH', AGENT_PATHS.harness),
    };
    this.monitor = {
      metrics: get<Wire.MonitorMetrics>(MONITOR_PATHS.metrics),
      requests: get<Wire.MonitorRequests>(MONITOR_PATHS.requests),
      subscriptions: get<Wire.MonitorSubscriptions>(MONITOR_PATHS.subscriptions),
      streams: get<Wire.MonitorStreams>(MONITOR_PATHS.streams),
      settings: get<Wire.MonitorSettings>(MONITOR_PATHS.settings),
      updateSettings: send<Wire.MonitorSettings, Wire.MonitorSettingsPatch>('PATCH', MONITOR_PATHS.settings),
      openSession: bare<Wire.MonitorViewerSession>('POST', MONITOR_PATHS.streamSessions),
      renewSession: bare<Wire.MonitorViewerSession>('PUT', MONITOR_PATHS.streamSession),
      closeSession: bare<Wire.MonitorViewerReleased>('DELETE', MONITOR_PATHS.streamSession),
    };
  }

  /** The headers of every request: the caller's, and the bearer token when there is one. */
  headers(): Record<string, string> {
    const { headers, token } = this.options;
    const all = { ...(typeof headers === 'function' ? headers() : headers) };
    const bearer = typeof token === 'function' ? token() : token;
    if (bearer) all.authorization = `Bearer ${bearer}`;
    return all;
  }

  /** Sends one request and reads its answer: parsed JSON, text for any other type; an ApiError for an error status. */
  async request(request: Request): Promise<unknown> {
    return (await this.#exchange(request)).answer;
  }

  /**
   * One page of the trade history (`order/trades` with `limit`, `cursor`, `begin_date` or `end_date`), and the cursor
   * of the next page (none after the last).
   */
  async #tradesPage<T>(
    body: Wire.TradesPageRequest,
    options?: CallOptions,
  ): Promise<{ trades: T; nextCursor?: string }> {
    const { answer, response } = await this.#exchange({ method: 'POST', path: ORDER_PATHS.trades, body, options });
    const nextCursor = response.header?.(TRADE_PAGES.nextCursorHeader);
    return nextCursor === undefined ? { trades: answer as T } : { trades: answer as T, nextCursor };
  }

  async #exchange(request: Request): Promise<{ answer: unknown; response: TransportResponse }> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.headers(),
      ...request.options?.headers,
    };
    let body: unknown;
    if (request.body !== undefined) {
      body = request.raw ? request.body : JSON.stringify(request.body);
      if (!request.raw) headers['content-type'] = 'application/json';
    }
    const response = await this.#transport({
      method: request.method,
      path: request.path,
      headers,
      body,
      signal: request.options?.signal,
      keepalive: request.options?.keepalive,
    });
    const text = await response.text();
    if (response.status >= 400) {
      const error = new ApiError(response.status, errorBodyOf(response.status, text));
      this.options.onError?.(error);
      throw error;
    }
    if (!/\bjson\b/i.test(response.contentType)) return { answer: text, response };
    return { answer: text === '' ? null : JSON.parse(text), response };
  }

  /** The event streams, each followed as an async iterator (see FollowOptions). */
  #events() {
    const follow = (path: string, options?: FollowOptions) =>
      new EventSubscription(this.#transport, path, () => this.headers(), {
        ...options,
        shouldRetry: (error, everConnected) => {
          if (error instanceof ApiError) this.options.onError?.(error);
          return (options?.shouldRetry ?? retriedByDefault)(error, everConnected);
        },
      });
    const route = <F>(path: string, call: F): F & Route =>
      Object.assign(call as object, { method: 'GET', route: path }) as F & Route;
    return {
      /** Any stream of the API by its path (with its query string), e.g. one of SSE_PATHS. */
      follow,
      /** Every family on one connection. */
      data: route(SSE_PATHS.data, (options?: FollowOptions) => follow(SSE_PATHS.data, options)),
      /** One family's dedicated stream (`tick_stk`, `order_event`, ...). */
      family: route(`${SSE_PATHS.data}/:family`, (family: StreamFamily, options?: FollowOptions) =>
        follow(streamDataPath(family), options),
      ),
      /** Contract events (listings, delistings), of one region or security type when asked. */
      contractEvent: route(SSE_PATHS.contractEvent, (query?: Query, options?: FollowOptions) =>
        follow(withQuery(SSE_PATHS.contractEvent, query), options),
      ),
    };
  }
}

/** A client of the gateway at `baseUrl` (or the page's own origin) over fetch. */
export const createClient = (options: ClientOptions = {}): SjgateClient => new SjgateClient(options);
