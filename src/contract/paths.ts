// Every REST route and SSE stream of the API, written once: the server registers its routes from these constants,
// and the CLI and the dashboard build their URLs from them. A path with a parameter (`:code`) is the route's pattern
// as Fastify and the OpenAPI document write it; the helpers below fill it in, encoding the value.
//
// This module is loaded by the server, the CLI and the browser alike, so it imports nothing.

/** The one place the API's prefix is written. */
export const API_PREFIX = '/api/v1';

type Prefixed<P extends string> = `${typeof API_PREFIX}${P}`;
const api = <const P extends string>(path: P): Prefixed<P> => `${API_PREFIX}${path}`;

/** What the server is, and whether it is up. Both are public (no bearer token). */
export const SERVER_PATHS = {
  info: api('/info'),
  health: api('/health'),
} as const;

/** Accounts, the default account, API usage, and the order reports of an account. */
export const AUTH_PATHS = {
  accounts: api('/auth/accounts'),
  defaultAccount: api('/auth/default_account'),
  usage: api('/auth/usage'),
  subscribeTrade: api('/auth/subscribe_trade'),
  unsubscribeTrade: api('/auth/unsubscribe_trade'),
} as const;

/** Contract lookups: GET with a query lists, POST with a body looks up a batch. */
export const CONTRACT_PATHS = {
  contracts: api('/data/contracts'),
  contract: api('/data/contracts/:code'),
  contractInfo: api('/data/contracts/:code/info'),
  futuresRoots: api('/data/contracts/futures/roots'),
  futures: api('/data/contracts/futures'),
  optionsRoots: api('/data/contracts/options/roots'),
  options: api('/data/contracts/options'),
  warrantUnderlyings: api('/data/contracts/warrants/underlyings'),
  warrants: api('/data/contracts/warrants'),
  combo: api('/data/contracts/combo'),
  comboFutures: api('/data/contracts/combo/futures'),
  tickBands: api('/data/contracts/tick-bands/:rule'),
} as const;

/** History, snapshots, scanners and the regulatory lists. */
export const MARKET_DATA_PATHS = {
  ticks: api('/data/ticks'),
  kbars: api('/data/kbars'),
  snapshots: api('/data/snapshots'),
  scanner: api('/data/scanner'),
  creditEnquire: api('/data/credit_enquire'),
  shortStockSources: api('/data/short_stock_sources'),
  regulatoryPunish: api('/data/regulatory_punish'),
  regulatoryNotice: api('/data/regulatory_notice'),
  dailyQuotes: api('/data/daily_quotes'),
} as const;

/** Orders and the trade listings. */
export const ORDER_PATHS = {
  placeOrder: api('/order/place_order'),
  cancelOrder: api('/order/cancel_order'),
  updatePrice: api('/order/update_price'),
  updateQty: api('/order/update_qty'),
  placeComboOrder: api('/order/place_comboorder'),
  cancelComboOrder: api('/order/cancel_comboorder'),
  comboTrades: api('/order/combotrades'),
  trades: api('/order/trades'),
  updateStatus: api('/order/update_status'),
} as const;

/** Account queries, every one a POST naming the account. */
export const PORTFOLIO_PATHS = {
  accountBalance: api('/portfolio/account_balance'),
  margin: api('/portfolio/margin'),
  positionUnit: api('/portfolio/position_unit'),
  positionDetail: api('/portfolio/position_detail'),
  profitLoss: api('/portfolio/profit_loss'),
  profitLossDetail: api('/portfolio/profit_loss_detail'),
  profitLossSum: api('/portfolio/profitloss_sum'),
  settlements: api('/portfolio/settlements'),
  tradingLimits: api('/portfolio/trading_limits'),
} as const;

/** Quote subscriptions and the status of the streams. */
export const STREAM_PATHS = {
  subscribe: api('/stream/subscribe'),
  unsubscribe: api('/stream/unsubscribe'),
  subscriptions: api('/stream/subscriptions'),
  status: api('/stream/status'),
  receivers: api('/stream/receivers'),
} as const;

/**
 * The SSE streams: `data` carries every family, each dedicated stream one (see `streamDataPath`), and contract
 * events have their own route.
 */
export const SSE_PATHS = {
  data: api('/stream/data'),
  orderEvent: api('/stream/data/order_event'),
  contractEvent: api('/stream/data/contract_event'),
} as const;

/** The dedicated stream of one event family (tick_stk, bidask_fop, quote_idx, order_event, ...). */
export const streamDataPath = <const N extends string>(name: N): `${typeof SSE_PATHS.data}/${N}` =>
  `${SSE_PATHS.data}/${name}`;

/** Hosted apps: the list, and upload (POST, multipart) or delete of one. Its pages are under /apps/<name>/. */
export const APP_PATHS = {
  apps: api('/apps'),
  app: api('/apps/:name'),
} as const;

/** The pages of a hosted app, outside the API's prefix and public: `/apps/<name>` redirects to `/apps/<name>/`. */
export const APP_PAGE_PATHS = {
  page: '/apps/:name',
  file: '/apps/:name/*',
} as const;

/** Every path constant above, by area: what the server registers (besides the dedicated SSE streams). */
export const API_PATHS = {
  server: SERVER_PATHS,
  auth: AUTH_PATHS,
  contracts: CONTRACT_PATHS,
  marketData: MARKET_DATA_PATHS,
  orders: ORDER_PATHS,
  portfolio: PORTFOLIO_PATHS,
  streams: STREAM_PATHS,
  sse: SSE_PATHS,
  apps: APP_PATHS,
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
