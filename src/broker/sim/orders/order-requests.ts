// What a place_order request names, checked against the catalog and the accounts before any rule of the exchange:
// the contract (a continuous alias resolved to its month), the kind of order, and the account.

import { type Account, type AccountSelector, accountKeyOf } from '../../../domain/accounts.js';
import type { ContractInfo } from '../../../domain/contracts.js';
import { InvalidRequestError, NotFoundError } from '../../../domain/errors.js';
import {
  type FuturesOrderRequest,
  futuresOrderRequest,
  type StockOrderRequest,
  stockOrderRequest,
} from '../../../domain/orders.js';
import type { PlaceOrderInput } from '../../port.js';
import type { SimAccounts } from '../accounts.js';
import type { SimContracts } from '../contracts.js';
import { requireValidCustomField } from './trade-records.js';

/** The contract as named (`listed`, e.g. TXFR1) and the one that trades (`info`, its month). */
export function instrumentOf(
  contracts: SimContracts,
  input: PlaceOrderInput,
): { listed: ContractInfo; info: ContractInfo } {
  const { code, security_type, exchange } = input.contract;
  const listed = contracts.current().find(code);
  if (!listed || (security_type && listed.security_type !== security_type)) {
    throw new NotFoundError(
      'CONTRACT_NOT_FOUND',
      `${code} is not a listed contract${security_type ? ` of type ${security_type}` : ''}`,
    );
  }
  if (exchange && exchange !== listed.exchange) {
    throw new NotFoundError('CONTRACT_NOT_FOUND', `${code} is listed on ${listed.exchange}, not ${exchange}`);
  }
  if (listed.security_type === 'IND') throw new InvalidRequestError(`${code} is an index; indices cannot be traded`);
  const target = listed.target_code ? contracts.current().find(listed.target_code) : listed;
  return { listed, info: target ?? listed };
}

/** The order with its defaults, of the kind the contract takes. */
export function orderOf(input: PlaceOrderInput, info: ContractInfo): StockOrderRequest | FuturesOrderRequest {
  const { stockOrder, futuresOrder } = input;
  if ((stockOrder === undefined) === (futuresOrder === undefined)) {
    throw new InvalidRequestError('place_order needs exactly one of stock_order or futures_order');
  }
  const derivative = info.security_type === 'FUT' || info.security_type === 'OPT';
  if (stockOrder && derivative) {
    throw new InvalidRequestError(
      `${info.code} is a ${info.security_type} contract: send futures_order, not stock_order`,
    );
  }
  if (futuresOrder && !derivative) {
    throw new InvalidRequestError(
      `${info.code} is a ${info.security_type} contract: send stock_order, not futures_order`,
    );
  }
  const order = stockOrder ? stockOrderRequest(stockOrder) : futuresOrderRequest(futuresOrder!);
  requireValidCustomField(order.custom_field);
  return order;
}

/** The selector with its account type set (the key first: see the note on spreads in PreTrade.contextOf). */
function defaultOf(selector: AccountSelector | undefined, type: 'S' | 'F'): AccountSelector {
  const unnamed = { account_type: type, ...selector };
  unnamed.account_type = type;
  return unnamed;
}

/** A named account is found by its ids; without ids the default account of the order's kind is meant. */
export function accountFor(
  accounts: SimAccounts,
  selector: AccountSelector | undefined,
  type: 'S' | 'F',
  what: string,
): Account {
  const named = selector?.account_id !== undefined || selector?.broker_id !== undefined;
  const account = accounts.resolve(named ? selector! : defaultOf(selector, type));
  if (account.account_type !== type) {
    throw new InvalidRequestError(
      `account ${account.account_id} is a ${account.account_type} account; ${what} needs a ${type} account`,
    );
  }
  return account;
}

/** The account a listing asks for; null when the selector names none (every account). */
export function selectedAccountKey(accounts: SimAccounts, selector: AccountSelector | undefined): string | null {
  if (!selector || Object.values(selector).every((v) => v === undefined)) return null;
  return accountKeyOf(accounts.resolve(selector));
}
