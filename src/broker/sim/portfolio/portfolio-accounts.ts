// Which account a portfolio query is about: resolves the selector to a stock or futures account of the ledger, and
// gives the views what they read of it (the ledger, the market, the instant and the account's trading day).

import { type Account, type AccountSelector, type AccountType, accountKeyOf } from '../../../domain/accounts.js';
import { InvalidRequestError } from '../../../domain/errors.js';
import { sessionDayAt } from '../../../domain/sessions.js';
import type { Clock } from '../../../domain/time.js';
import type { SimAccounts } from '../accounts.js';
import type { FuturesViewContext } from './futures-views.js';
import type { Ledger } from './ledger.js';
import type { PortfolioMarket } from './market.js';
import type { StockViewContext } from './stock-views.js';

export interface ResolvedAccount {
  account: Account;
  key: string;
  type: 'S' | 'F';
}

export class PortfolioAccounts {
  constructor(
    private readonly ledger: Ledger,
    private readonly accounts: SimAccounts,
    private readonly market: PortfolioMarket,
    private readonly clock: Clock,
  ) {}

  /** The account a selector names (of defaultType when it names no type), opened in the ledger. */
  resolve(selector: AccountSelector, defaultType: AccountType): ResolvedAccount {
    const account = this.accounts.resolve({ ...selector, account_type: selector.account_type ?? defaultType });
    const type = account.account_type;
    if (type !== 'S' && type !== 'F') {
      throw new InvalidRequestError(
        `${accountKeyOf(account)} is an account of type '${type}'; the portfolio covers stock (S) and futures (F) accounts`,
      );
    }
    const key = accountKeyOf(account);
    this.ledger.open(key, type);
    return { account, key, type };
  }

  /** The stock account of a query that only stock accounts answer. */
  stockAccount(selector: AccountSelector, query: string): ResolvedAccount {
    const resolved = this.resolve(selector, 'S');
    if (resolved.type !== 'S') {
      throw new InvalidRequestError(
        `${query} is for stock accounts (account_type 'S'); ${accountKeyOf(resolved.account)} is a futures account: ` +
          'ask margin for it',
      );
    }
    return resolved;
  }

  /** The trading day of the account's market now: a futures night session belongs to the next trading day. */
  today(resolved: ResolvedAccount): string {
    const now = this.clock.now();
    return resolved.type === 'F' ? sessionDayAt('futures', now) : this.market.tradingDay(now);
  }

  stockContext(resolved: ResolvedAccount): StockViewContext {
    const at = this.clock.now();
    return { ledger: this.ledger, accountKey: resolved.key, market: this.market, at, today: this.today(resolved) };
  }

  futuresContext(resolved: ResolvedAccount): FuturesViewContext {
    const at = this.clock.now();
    return { ledger: this.ledger, accountKey: resolved.key, market: this.market, at, today: this.today(resolved) };
  }
}
