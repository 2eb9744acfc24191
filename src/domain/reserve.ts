// Share and cash pre-collection (預收券款) of a stock account, as the official Shioaji HTTP server answers it: the
// SDK's ReserveStocksSummary, ReserveStocksDetail, EarmarkStocksDetail, ReserveOrderResp and EarmarkingOrderResp,
// field by field. A share reserve sets aside shares a stock account holds; an earmark sets aside cash (share x price).
// Neither is an order: a refused request is an answer with status false and the reason in info (docs/reserve.md).

import type { Account } from './accounts.js';
import type { Contract } from './contracts.js';
import { InvalidRequestError } from './errors.js';

/** The most shares one request sets aside: 499 board lots, the exchange's largest single order. */
export const MAX_RESERVE_SHARES = 499_000;
/** The lowest earmark price, NT$ per share: the smallest tick. */
export const MIN_EARMARK_PRICE = 0.01;
/** The highest earmark price the gateway accepts, NT$ per share: above every listed stock's price. */
export const MAX_EARMARK_PRICE = 100_000;

export interface ReserveStockSummary {
  contract: Contract;
  /** Shares held that are not reserved. */
  available_share: number;
  /** Shares reserved today. */
  reserved_share: number;
}

export interface ReserveStocksSummary {
  stocks: ReserveStockSummary[];
  account: Account;
}

export interface ReserveStockDetail {
  contract: Contract;
  share: number;
  /** Taiwan wall-clock time of the request, 'YYYY-MM-DDTHH:MM:SS'. */
  order_datetime: string;
  status: boolean;
  info: string;
}

export interface ReserveStocksDetail {
  stocks: ReserveStockDetail[];
  account: Account;
}

export interface EarmarkStockDetail extends ReserveStockDetail {
  price: number;
  /** share x price, whole NT$. */
  amount: number;
}

export interface EarmarkStocksDetail {
  stocks: EarmarkStockDetail[];
  account: Account;
}

export interface ReserveStockResult {
  contract: Contract;
  account: Account;
  share: number;
  status: boolean;
  info: string;
}

export interface EarmarkingResult extends ReserveStockResult {
  price: number;
}

/** The cash an earmark holds: share x price, rounded to whole NT$. */
export const earmarkAmount = (share: number, price: number): number => Math.round(share * price);

/** Throws InvalidRequestError unless `share` is a whole number of shares from 1 to MAX_RESERVE_SHARES. */
export function requireReserveShares(share: number): void {
  if (!Number.isInteger(share) || share <= 0) {
    throw new InvalidRequestError(`share must be a whole number of shares, 1 or more; got ${share}`);
  }
  if (share > MAX_RESERVE_SHARES) {
    throw new InvalidRequestError(
      `share ${share} is over the limit of ${MAX_RESERVE_SHARES} shares (499 lots) per request; split it`,
    );
  }
}

/** Throws InvalidRequestError unless `price` is a price per share from MIN_EARMARK_PRICE to MAX_EARMARK_PRICE. */
export function requireEarmarkPrice(price: number): void {
  if (!Number.isFinite(price) || price < MIN_EARMARK_PRICE || price > MAX_EARMARK_PRICE) {
    throw new InvalidRequestError(
      `price must be a price per share from ${MIN_EARMARK_PRICE} to ${MAX_EARMARK_PRICE}; got ${price}`,
    );
  }
}
