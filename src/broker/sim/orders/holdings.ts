// What an account holds, from its deals: cash after fees and taxes, shares per stock, net contracts per futures or
// option. The broker's checks (selling more than held, buying beyond cash or margin) read it.

import { stockTaxKind, stockTradeCosts } from '../../../domain/fees.js';
import { isOddLot, orderShares, type Trade } from '../../../domain/orders.js';

export interface StartingFunds {
  /** NT$ a stock account starts with. */
  cash: number;
  /** NT$ a futures account starts with. */
  collateral: number;
}

export const DEFAULT_STARTING_FUNDS: StartingFunds = { cash: 10_000_000, collateral: 2_000_000 };

interface AccountHoldings {
  cash: number;
  /** Shares by stock code (Cash condition; negative for a day-trade short sale). */
  shares: Map<string, number>;
  /** Net contracts by futures or option code: positive long, negative short. */
  contracts: Map<string, number>;
}

export class Holdings {
  private readonly accounts = new Map<string, AccountHoldings>();

  constructor(private readonly funds: StartingFunds) {}

  of(accountKey: string, type: 'S' | 'F'): AccountHoldings {
    let holdings = this.accounts.get(accountKey);
    if (!holdings) {
      holdings = {
        cash: type === 'S' ? this.funds.cash : this.funds.collateral,
        shares: new Map(),
        contracts: new Map(),
      };
      this.accounts.set(accountKey, holdings);
    }
    return holdings;
  }

  /** Books one fill of a trade. Stock cash moves by the value and its fee and tax; futures hold contracts. */
  book(accountKey: string, trade: Trade, price: number, quantity: number, daytradeShort: boolean): void {
    const sign = trade.order.action === 'Buy' ? 1 : -1;
    if ('order_lot' in trade.order) {
      const holdings = this.of(accountKey, 'S');
      const shares = orderShares(trade.order.order_lot, quantity);
      const value = Math.round(price * shares * 100) / 100;
      const { fee, tax } = stockTradeCosts(value, {
        action: trade.order.action,
        kind: stockTaxKind(trade.contract.code, trade.contract.security_type),
        dayTrade: daytradeShort,
        oddLot: isOddLot(trade.order.order_lot),
      });
      holdings.cash += -sign * value - fee - tax;
      const code = trade.contract.code;
      holdings.shares.set(code, (holdings.shares.get(code) ?? 0) + sign * shares);
      return;
    }
    this.bookContracts(accountKey, trade.contract.code, trade.order.action, quantity);
  }

  bookContracts(accountKey: string, code: string, action: 'Buy' | 'Sell', quantity: number): void {
    const holdings = this.of(accountKey, 'F');
    const sign = action === 'Buy' ? 1 : -1;
    holdings.contracts.set(code, (holdings.contracts.get(code) ?? 0) + sign * quantity);
  }
}
