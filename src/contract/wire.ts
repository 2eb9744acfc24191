// The wire types clients read and send: every answer and request body of the gateway's JSON API, field names as the
// API sends them. They are written out from the server's TypeBox schemas (src/server/schemas/, tied to the domain's
// enums), one file per area under wire/; test/contract-wire.test.ts checks at compile time that each is exactly the
// static type of its schema both ways, so a field renamed, dropped, added or retyped on either side fails the type
// check. ServerInfo, Health and Usage are partial: the official server sends less (their schemas are inline in the
// routes).

import type { SubscribeTradeResponse } from './wire/accounts.js';
import type {
  Contract,
  FuturesInfoRecord,
  IndexInfoRecord,
  OptionInfoRecord,
  StockInfoRecord,
} from './wire/contracts.js';
import type { ContractRef } from './wire/market-data.js';
import type {
  FuturePosition,
  FuturePositionDetail,
  FutureProfitDetail,
  FutureProfitLoss,
  StockPosition,
  StockPositionDetail,
  StockProfitDetail,
  StockProfitLoss,
} from './wire/portfolio.js';
import type { ProductSubscription, SubscriptionResponse } from './wire/streams.js';

export type * from './wire/accounts.js';
export type * from './wire/balances.js';
export type * from './wire/contracts.js';
export type * from './wire/market-data.js';
export type * from './wire/monitor.js';
export type * from './wire/orders.js';
export type * from './wire/portfolio.js';
export type * from './wire/reserve.js';
export type * from './wire/streams.js';

export interface ServerInfo {
  version: string;
  sjgate_version?: string;
  simulation: boolean;
  /** Absent from the official server: there, SinoPac always answers. */
  backend?: 'simulator' | 'shioaji';
  sim_clock: string | null;
  sim_time: string | null;
  protocols: string[];
}

export interface Health {
  status: string;
  version: string;
  uptime_seconds: number;
  contract_count: number;
}

export interface Usage {
  connections: number;
  bytes: number;
  limit_bytes: number;
  remaining_bytes: number;
}

/** GET /data/contracts/:code/info: by security type. */
export type ContractInfo = StockInfoRecord | FuturesInfoRecord | OptionInfoRecord | IndexInfoRecord;
export type SecurityType = Contract['security_type'];
export type QuoteType = ProductSubscription['quote_type'];
/** The answer of POST /stream/subscribe and /stream/unsubscribe. */
export type SubscribeAnswer = SubscriptionResponse;
export type SubscribeTradeAnswer = SubscribeTradeResponse;
/** One row of position_unit: stock or futures columns. */
export type Position = StockPosition | FuturePosition;
/** POST /portfolio/position_unit: the rows of a stock or a futures account. */
export type Positions = StockPosition[] | FuturePosition[];
export type PositionDetails = StockPositionDetail[] | FuturePositionDetail[];
export type ProfitLosses = StockProfitLoss[] | FutureProfitLoss[];
export type ProfitLossDetails = StockProfitDetail[] | FutureProfitDetail[];

export interface AppList {
  apps: string[];
}

export interface AppUploadResult {
  name: string;
  files: string[];
}

export interface AppDeleted {
  deleted: string;
}

export type AppUploaded = AppUploadResult;

/** The exchanges and security types a request may name: an answer's are any string, so one read is checked first. */
const REQUEST_EXCHANGES: readonly string[] = ['TSE', 'OTC', 'OES', 'TAIFEX'] satisfies NonNullable<
  ContractRef['exchange']
>[];
const REQUEST_SECURITY_TYPES: readonly string[] = ['STK', 'IND', 'FUT', 'OPT', 'WRT'] satisfies SecurityType[];
export const isRequestExchange = (exchange: string): exchange is NonNullable<ContractRef['exchange']> =>
  REQUEST_EXCHANGES.includes(exchange);
export const isSecurityType = (type: string): type is SecurityType => REQUEST_SECURITY_TYPES.includes(type);

/**
 * order/trades with paging fields reads older trades out of the journal: at most `maxLimit` a page (`defaultLimit`
 * without a limit), and the cursor of the next page in the `nextCursorHeader` response header (absent on the last).
 */
export const TRADE_PAGES = { maxLimit: 1000, defaultLimit: 500, nextCursorHeader: 'x-next-cursor' } as const;
