// Market-data, portfolio and reserve queries at SinoPac: each is one SDK call by name (the sidecar's `call`), its contracts and
// account resolved there, its answer converted to the gateway's JSON there.

import type { AccountBook } from '../../domain/account-book.js';
import type { AccountSelector } from '../../domain/accounts.js';
import { NotFoundError } from '../../domain/errors.js';
import { analyticsIndexOf, type SubscribableContracts } from '../../domain/subscription-rules.js';
import type { MarketDataPort, PortfolioPort, ReservePort } from '../port.js';
import type { UpstreamCall } from './upstream.js';

export function liveMarketData(call: UpstreamCall, contracts: () => SubscribableContracts): MarketDataPort {
  const query = <T>(name: string, params: object = {}) => call<T>('call', { name, params });
  return {
    ticks: (q) => query('ticks', q),
    kbars: (q) => query('kbars', q),
    snapshots: (instruments) => query('snapshots', { contracts: instruments }),
    scanner: (q) => query('scanners', q),
    creditEnquire: (contracts) => query('credit_enquires', { contracts }),
    shortStockSources: (contracts) => query('short_stock_sources', { contracts }),
    punish: () => query('punish'),
    notice: () => query('notice'),
    dailyQuotes: (date, excludeWarrants) => query('daily_quotes', { date, exclude: excludeWarrants }),
    // Only IX0001 and IX0043 are decomposed: anything else is refused here, as the simulator refuses it.
    indexComponents: async (index) => {
      const { security_type, exchange, code } = analyticsIndexOf(contracts(), index, 'index_components');
      return query('index_components', { index: { security_type, exchange, code } });
    },
  };
}

export function livePortfolio(call: UpstreamCall, accounts: AccountBook): PortfolioPort {
  const query = <T>(name: string, selector: AccountSelector, params: object = {}) =>
    call<T>('call', { name, params: { ...params, account: accounts.resolve(selector) } }, 'POSITION_NOT_FOUND');
  // SinoPac answers an empty list for a detail_id naming no position or no realized row: the simulator's 404.
  const detail = async <T extends unknown[]>(
    name: string,
    selector: AccountSelector,
    what: string,
    params: { detail_id: number; unit?: string },
  ): Promise<T> => {
    const rows = await query<T>(name, selector, params);
    if (rows.length > 0) return rows;
    throw new NotFoundError('POSITION_NOT_FOUND', `no ${what} with detail_id ${params.detail_id}`);
  };
  return {
    accountBalance: (account) => query('account_balance', account),
    margin: (account) => query('margin', { ...account, account_type: account.account_type ?? 'F' }),
    positions: (account, unit) => query('list_positions', account, { unit }),
    positionDetail: (account, detailId) =>
      detail('list_position_detail', account, 'open position', { detail_id: detailId }),
    profitLoss: (account, range, unit) => query('list_profit_loss', account, { ...range, unit }),
    profitLossDetail: (account, detailId, unit) =>
      detail('list_profit_loss_detail', account, 'realized profit or loss', { detail_id: detailId, unit }),
    profitLossSummary: (account, range) => query('list_profit_loss_summary', account, range),
    settlements: (account) => query('settlements', account),
    tradingLimits: (account) => query('trading_limits', account),
  };
}

/**
 * Share and cash pre-collection at SinoPac: the SDK's stock_reserve_summary, stock_reserve_detail, earmarking_detail,
 * reserve_stock and reserve_earmarking, each on a stock account (S unless the selector names another type, which the
 * SDK refuses). The sidecar resolves the contract (404 for an unknown code) and unwraps each answer's `response`.
 */
export function liveReserve(call: UpstreamCall, accounts: AccountBook): ReservePort {
  const query = <T>(name: string, selector: AccountSelector, params: object = {}) =>
    call<T>('call', {
      name,
      params: { ...params, account: accounts.resolve({ ...selector, account_type: selector.account_type ?? 'S' }) },
    });
  return {
    summary: (account) => query('stock_reserve_summary', account),
    detail: (account) => query('stock_reserve_detail', account),
    earmarkingDetail: (account) => query('earmarking_detail', account),
    reserveStock: ({ account, contract, share }) => query('reserve_stock', account, { contract, share }),
    reserveEarmarking: ({ account, contract, share, price }) =>
      query('reserve_earmarking', account, { contract, share, price }),
  };
}
