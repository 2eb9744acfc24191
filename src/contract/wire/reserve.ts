import type { Account, AccountQuery } from './accounts.js';
import type { Contract } from './contracts.js';
import type { ContractRef } from './market-data.js';

export interface ReserveStocksSummary {
  stocks: {
    contract: Contract;
    /** shares held and not reserved */
    available_share: number;
    /** shares reserved today */
    reserved_share: number;
  }[];
  account: Account;
}

export interface ReserveStocksDetail {
  stocks: {
    contract: Contract;
    share: number;
    /** Taiwan wall-clock time of the request, 'YYYY-MM-DDTHH:MM:SS' */
    order_datetime: string;
    /** true: accepted; false: refused, with the reason in info */
    status: boolean;
    /** the broker's message */
    info: string;
  }[];
  account: Account;
}

export interface EarmarkStocksDetail {
  stocks: {
    contract: Contract;
    share: number;
    /** Taiwan wall-clock time of the request, 'YYYY-MM-DDTHH:MM:SS' */
    order_datetime: string;
    /** true: accepted; false: refused, with the reason in info */
    status: boolean;
    /** the broker's message */
    info: string;
    price: number;
    /** share x price, whole NT$ */
    amount: number;
  }[];
  account: Account;
}

/** `{}` (or no body) means the default account of the type; broker_id and account_id (flat or under `account`) name another */
export interface ReserveStockRequest extends AccountQuery<'S'> {
  contract: ContractRef;
  /** shares (not lots), 1 to 499000 (499 lots) per request */
  share: number;
}

export interface ReserveOrderResp {
  contract: Contract;
  account: Account;
  share: number;
  /** true: accepted; false: refused, with the reason in info */
  status: boolean;
  /** the broker's message */
  info: string;
}

/** `{}` (or no body) means the default account of the type; broker_id and account_id (flat or under `account`) name another */
export interface ReserveEarmarkingRequest extends AccountQuery<'S'> {
  contract: ContractRef;
  /** shares (not lots), 1 to 499000 (499 lots) per request */
  share: number;
  /** the price per share the cash is earmarked at, 0.01 to 100000; amount is share x price */
  price: number;
}

export interface EarmarkingOrderResp {
  contract: Contract;
  account: Account;
  share: number;
  /** true: accepted; false: refused, with the reason in info */
  status: boolean;
  /** the broker's message */
  info: string;
  price: number;
}
