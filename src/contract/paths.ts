// Every REST route and SSE stream of the API, written once: the server registers its routes from these constants,
// and the CLI and the dashboard build their URLs from them. A path with a parameter (`:code`) is the route's pattern
// as Fastify and the OpenAPI document write it; the helpers below fill it in, encoding the value.
//
// This module is loaded by the server, the CLI and the browser alike, so it imports nothing.

/** The one place the API's prefix is written. */
export const API_PREFIX = '/api/v1';

type Prefixed<P extends string> = `${typeof API_PREFIX}${P}`;

/**
 * The absolute paths of a group of routes. The server registers its API routes under `{ prefix: API_PREFIX }` from
 * the relative `*_ROUTES`; clients build URLs from the absolute `*_PATHS`.
 */
function prefixed<const T extends Record<string, string>>(routes: T): { readonly [K in keyof T]: Prefixed<T[K]> } {
  return Object.fromEntries(Object.entries(routes).map(([key, path]) => [key, `${API_PREFIX}${path}`])) as {
    readonly [K in keyof T]: Prefixed<T[K]>;
  };
}

/** What the server is, and whether it is up. Both are public (no bearer token). */
export const SERVER_ROUTES = {
  info: '/info',
  health: '/health',
} as const;
export const SERVER_PATHS = prefixed(SERVER_ROUTES);

/** Accounts, the default account, API usage, and the order reports of an account. */
export const AUTH_ROUTES = {
  accounts: '/auth/accounts',
  defaultAccount: '/auth/default_account',
  usage: '/auth/usage',
  caExpireTime: '/auth/ca_expiretime',
  subscribeTrade: '/auth/subscribe_trade',
  unsubscribeTrade: '/auth/unsubscribe_trade',
} as const;
export const AUTH_PATHS = prefixed(AUTH_ROUTES);

/** Contract lookups: GET with a query lists, POST with a body looks up a batch. */
export const CONTRACT_ROUTES = {
  contracts: '/data/contracts',
  contract: '/data/contracts/:code',
  contractInfo: '/data/contracts/:code/info',
  futuresRoots: '/data/contracts/futures/roots',
  futures: '/data/contracts/futures',
  optionsRoots: '/data/contracts/options/roots',
  options: '/data/contracts/options',
  warrantUnderlyings: '/data/contracts/warrants/underlyings',
  warrants: '/data/contracts/warrants',
  combo: '/data/contracts/combo',
  comboFutures: '/data/contracts/combo/futures',
  tickBands: '/data/contracts/tick-bands/:rule',
} as const;
export const CONTRACT_PATHS = prefixed(CONTRACT_ROUTES);

/** History, snapshots, scanners and the regulatory lists. */
export const MARKET_DATA_ROUTES = {
  ticks: '/data/ticks',
  kbars: '/data/kbars',
  snapshots: '/data/snapshots',
  scanner: '/data/scanner',
  creditEnquire: '/data/credit_enquire',
  shortStockSources: '/data/short_stock_sources',
  regulatoryPunish: '/data/regulatory_punish',
  regulatoryNotice: '/data/regulatory_notice',
  dailyQuotes: '/data/daily_quotes',
  indexComponents: '/data/index_components',
} as const;
export const MARKET_DATA_PATHS = prefixed(MARKET_DATA_ROUTES);

/** Orders and the trade listings. */
export const ORDER_ROUTES = {
  placeOrder: '/order/place_order',
  cancelOrder: '/order/cancel_order',
  updatePrice: '/order/update_price',
  updateQty: '/order/update_qty',
  placeComboOrder: '/order/place_comboorder',
  cancelComboOrder: '/order/cancel_comboorder',
  comboTrades: '/order/combotrades',
  trades: '/order/trades',
  updateStatus: '/order/update_status',
} as const;
export const ORDER_PATHS = prefixed(ORDER_ROUTES);

/** Account queries, every one a POST naming the account. */
export const PORTFOLIO_ROUTES = {
  accountBalance: '/portfolio/account_balance',
  margin: '/portfolio/margin',
  positionUnit: '/portfolio/position_unit',
  positionDetail: '/portfolio/position_detail',
  profitLoss: '/portfolio/profit_loss',
  profitLossDetail: '/portfolio/profit_loss_detail',
  profitLossSum: '/portfolio/profitloss_sum',
  settlements: '/portfolio/settlements',
  tradingLimits: '/portfolio/trading_limits',
} as const;
export const PORTFOLIO_PATHS = prefixed(PORTFOLIO_ROUTES);

/** Share and cash pre-collection (預收券款) of a stock account, under /order/ as the official server has them. */
export const RESERVE_ROUTES = {
  stockReserveSummary: '/order/stock_reserve_summary',
  stockReserveDetail: '/order/stock_reserve_detail',
  reserveStock: '/order/reserve_stock',
  earmarkingDetail: '/order/earmarking_detail',
  reserveEarmarking: '/order/reserve_earmarking',
} as const;
export const RESERVE_PATHS = prefixed(RESERVE_ROUTES);

/** Quote subscriptions and the status of the streams. */
export const STREAM_ROUTES = {
  subscribe: '/stream/subscribe',
  unsubscribe: '/stream/unsubscribe',
  subscribeKbars: '/stream/subscribe/kbars',
  unsubscribeKbars: '/stream/unsubscribe/kbars',
  subscribeCalculatedIndex: '/stream/subscribe/calculated_index',
  unsubscribeCalculatedIndex: '/stream/unsubscribe/calculated_index',
  subscribeIndexContribution: '/stream/subscribe/index_contribution',
  unsubscribeIndexContribution: '/stream/unsubscribe/index_contribution',
  subscribeIndustryContribution: '/stream/subscribe/industry_contribution',
  unsubscribeIndustryContribution: '/stream/unsubscribe/industry_contribution',
  subscribeIndexComponents: '/stream/subscribe/index_components',
  unsubscribeIndexComponents: '/stream/unsubscribe/index_components',
  subscribeScanner: '/stream/subscribe/scanner',
  unsubscribeScanner: '/stream/unsubscribe/scanner',
  subscriptions: '/stream/subscriptions',
  status: '/stream/status',
  receivers: '/stream/receivers',
} as const;
export const STREAM_PATHS = prefixed(STREAM_ROUTES);

/**
 * The SSE streams: `data` carries every family, each dedicated stream one (see `streamDataPath`), and contract
 * events have their own route.
 */
export const SSE_ROUTES = {
  data: '/stream/data',
  orderEvent: '/stream/data/order_event',
  contractEvent: '/stream/data/contract_event',
} as const;
export const SSE_PATHS = prefixed(SSE_ROUTES);

/** The dedicated stream of one event family (tick_stk, bidask_fop, quote_idx, order_event, ...). */
export const streamDataPath = <const N extends string>(name: N): `${typeof SSE_PATHS.data}/${N}` =>
  `${SSE_PATHS.data}/${name}`;
/** The same, relative to API_PREFIX, as the server registers it. */
export const streamDataRoute = <const N extends string>(name: N): `${typeof SSE_ROUTES.data}/${N}` =>
  `${SSE_ROUTES.data}/${name}`;

/** Hosted apps: the list, and upload (POST, multipart) or delete of one. Its pages are under /apps/<name>/. */
export const APP_ROUTES = {
  apps: '/apps',
  app: '/apps/:name',
} as const;
export const APP_PATHS = prefixed(APP_ROUTES);

/** The pages of a hosted app, outside the API's prefix and public: `/apps/<name>` redirects to `/apps/<name>/`. */
export const APP_PAGE_PATHS = {
  page: '/apps/:name',
  file: '/apps/:name/*',
} as const;

/** A person's watchlists: list and create, and one list by id with its contracts. */
export const WATCHLIST_ROUTES = {
  watchlists: '/watchlist',
  watchlist: '/watchlist/:id',
  contracts: '/watchlist/:id/contracts',
} as const;
export const WATCHLIST_PATHS = prefixed(WATCHLIST_ROUTES);

/** The agent harness: its state (GET) and its switch (PATCH, which needs a capability of its own). */
export const AGENT_ROUTES = {
  harness: '/agent/harness',
} as const;
export const AGENT_PATHS = prefixed(AGENT_ROUTES);

/** Monitoring: metrics, request summaries, subscriptions and streams as the gateway sees them, and its settings. */
export const MONITOR_ROUTES = {
  metrics: '/monitor/metrics',
  requests: '/monitor/requests',
  subscriptions: '/monitor/subscriptions',
  streams: '/monitor/streams',
  settings: '/monitor/settings',
  streamSessions: '/monitor/streams/sessions',
  streamSession: '/monitor/streams/sessions/:id',
} as const;
export const MONITOR_PATHS = prefixed(MONITOR_ROUTES);

/** Every path constant above, by area: what the server registers (besides the dedicated SSE streams). */
export const API_PATHS = {
  server: SERVER_PATHS,
  auth: AUTH_PATHS,
  contracts: CONTRACT_PATHS,
  marketData: MARKET_DATA_PATHS,
  orders: ORDER_PATHS,
  portfolio: PORTFOLIO_PATHS,
  reserve: RESERVE_PATHS,
  streams: STREAM_PATHS,
  sse: SSE_PATHS,
  apps: APP_PATHS,
  watchlists: WATCHLIST_PATHS,
  agent: AGENT_PATHS,
  monitor: MONITOR_PATHS,
  appPages: APP_PAGE_PATHS,
} as const;

/**
 * A route pattern with its `:name` parameters filled in, each value URI-encoded (so `a/b` stays one segment).
 * A parameter missing from `params` is an error, not a literal `:name` in a URL.
 */
export function pathOf(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:([A-Za-z_]\w*)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`pathOf(${pattern}): no value for :${name}`);
    return encodeURIComponent(value);
  });
}

/** GET one contract by code. */
export const contractPath = (code: string): string => pathOf(CONTRACT_PATHS.contract, { code });
/** GET the exchange facts of one contract (limits, tick band, ...). */
export const contractInfoPath = (code: string): string => pathOf(CONTRACT_PATHS.contractInfo, { code });
/** GET the tick band table of one rule. */
export const tickBandsPath = (rule: string): string => pathOf(CONTRACT_PATHS.tickBands, { rule });
/** Upload (POST) or delete (DELETE) one hosted app. */
export const appPath = (name: string): string => pathOf(APP_PATHS.app, { name });
/** The address of a hosted app's index.html. */
export const appPagePath = (name: string): string => `${pathOf(APP_PAGE_PATHS.page, { name })}/`;
/** GET, PUT or DELETE one watchlist. */
export const watchlistPath = (id: string): string => pathOf(WATCHLIST_PATHS.watchlist, { id });
/** Add (POST) or remove (DELETE) contracts of one watchlist. */
export const watchlistContractsPath = (id: string): string => pathOf(WATCHLIST_PATHS.contracts, { id });
/** Renew (PUT) or release (DELETE) one stream viewer session. */
export const monitorSessionPath = (id: string): string => pathOf(MONITOR_PATHS.streamSession, { id });
