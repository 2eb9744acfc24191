// Market-data and portfolio queries at SinoPac: each is one SDK call by name (the sidecar's `call`), its contracts and
// account resolved there, its answer converted to the gateway's JSON there.

import type { AccountBook } from '../../domain/account-book.js';
import type { AccountSelector } from '../../domain/accounts.js';
import type { MarketDataPort, PortfolioPort } from '../port.js';
import type { UpstreamCall } from './upstream.js';

export function liveMarketData(call: UpstreamCall): MarketDataPort {
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
  };
}

export function livePortfolio(call: UpstreamCall, accounts: AccountBook): PortfolioPort {
  const query = <T>(name: string, selector: AccountSelector, params: object = {}) =>
    call<T>('call', { name, params: { ...params, account: accounts.resolve(selector) } }, 'POSITION_NOT_FOUND');
  return {
    accountBalance: (account) => query('account_balance', account),
    margin: (account) => query('margin', { ...account, account_type: account.account_type ?? 'F' }),
    positions: (account, unit) => query('list_positions', account, { unit }),
    positionDetail: (account, detailId) => query('list_position_detail', account, { detail_id: detailId }),
    profitLoss: (account, range, unit) => query('list_profit_loss', account, { ...range, unit }),
    profitLossDetail: (account, detailId, unit) =>
      query('list_profit_loss_detail', account, { detail_id: detailId, unit }),
    profitLossSummary: (account, range) => query('list_profit_loss_summary', account, range),
    settlements: (account) => query('settlements', account),
    tradingLimits: (account) => query('trading_limits', account),
  };
}
