// The simulator's account queries: resolves the account (portfolio-accounts.ts), checks the request against it, and
// reads the ledger.

import { type AccountSelector, accountKeyOf } from '../../../domain/accounts.js';
import { isTradingDay } from '../../../domain/calendar.js';
import { DomainError, InvalidRequestError, NotFoundError } from '../../../domain/errors.js';
import type {
  AccountBalance,
  DateRange,
  FuturePosition,
  FuturePositionDetail,
  FutureProfitDetail,
  FutureProfitLoss,
  Margin,
  PositionUnit,
  ProfitLossSummary,
  Settlement,
  StockPosition,
  StockPositionDetail,
  StockProfitDetail,
  StockProfitLoss,
  TradingLimits,
} from '../../../domain/portfolio.js';
import type { ClockMode } from '../../../domain/sessions.js';
import { type Clock, isDateString, TAIPEI_OFFSET_MS, taipeiDate, taipeiMinuteOfDay } from '../../../domain/time.js';
import type { ArchiveReader } from '../../port.js';
import type { SimAccounts } from '../accounts.js';
import type { ReserveBook } from '../reserve/reserve-book.js';
import { bankBalance, settlementRows, tradingLimitsOf } from './cash-views.js';
import type { ExpirySettlements } from './expiry-settlement.js';
import {
  futuresPositionDetailRows,
  futuresPositionRows,
  futuresProfitDetailRows,
  futuresProfitLossRows,
  futuresProfitLossSummary,
  marginStatement,
} from './futures-views.js';
import type { FutureRealized, Ledger, StockRealized } from './ledger.js';
import type { PortfolioMarket } from './market.js';
import { PortfolioAccounts, type ResolvedAccount } from './portfolio-accounts.js';
import { realizedById, realizedCount, realizedWithin } from './realized-history.js';
import {
  stockPositionDetailRows,
  stockPositionRows,
  stockProfitDetailRows,
  stockProfitLossRows,
  stockProfitLossSummary,
} from './stock-views.js';

export type { PortfolioMarket } from './market.js';

export interface SimPortfolioOptions {
  clockMode: ClockMode;
  /** Cash earmarked today (reserve_earmarking) leaves the bank balance and the buying power; none when omitted. */
  reserves?: Pick<ReserveBook, 'earmarkedCash'> | undefined;
  /** Brings the books up to now before a query reads them (settles the positions of contracts that expired). */
  beforeRead?: (() => void) | undefined;
  /** The positions settled at expiry, which the venue reports and restores. */
  expiry?: ExpirySettlements | undefined;
}

/** The official server answers trading_limits on trading days from 08:30 to 15:00 Taipei time (spec). */
export const TRADING_LIMITS_WINDOW = { from: 8 * 60 + 30, to: 15 * 60 } as const;

/** 'YYYY-MM-DD HH:MM:SS.ffffff' in Taipei time. */
export function taipeiTimestamp(epochMs: number): string {
  const iso = new Date(epochMs + TAIPEI_OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000`;
}

export class SimPortfolio {
  private readonly accounts: PortfolioAccounts;
  /** Positions cash-settled when their contract stops trading at expiry (SimBroker hands it in). */
  readonly expiry: ExpirySettlements | undefined;
  /**
   * Where the realized rows the checkpoints archived are read back (realized-history.ts); set at restore. Rows of a
   * checkpoint not put back lie beyond every account's archivedThrough and are not read.
   */
  archive: ArchiveReader | undefined;

  constructor(
    private readonly ledger: Ledger,
    accounts: SimAccounts,
    private readonly market: PortfolioMarket,
    private readonly clock: Clock,
    private readonly options: SimPortfolioOptions,
  ) {
    this.accounts = new PortfolioAccounts(ledger, accounts, market, clock);
    this.expiry = options.expiry;
  }

  accountBalance(selector: AccountSelector): AccountBalance {
    this.options.beforeRead?.();
    const { key } = this.accounts.stockAccount(selector, 'account_balance');
    const now = this.clock.now();
    return {
      acc_balance: bankBalance(this.ledger, key, this.market.tradingDay(now)) - this.earmarked(key),
      date: taipeiTimestamp(now),
      errmsg: '',
    };
  }

  margin(selector: AccountSelector): Margin {
    this.options.beforeRead?.();
    const resolved = this.accounts.resolve(selector, 'F');
    if (resolved.type !== 'F') {
      throw new InvalidRequestError(
        `margin is for futures accounts (account_type 'F'); ${accountKeyOf(resolved.account)} is a stock account: ` +
          'ask account_balance, settlements or trading_limits for it',
      );
    }
    return marginStatement(this.accounts.futuresContext(resolved));
  }

  positions(selector: AccountSelector, unit: PositionUnit): StockPosition[] | FuturePosition[] {
    this.options.beforeRead?.();
    const resolved = this.accounts.resolve(selector, 'S');
    if (resolved.type === 'F') return futuresPositionRows(this.accounts.futuresContext(resolved));
    return stockPositionRows(this.accounts.stockContext(resolved), unit);
  }

  positionDetail(selector: AccountSelector, detailId: number): StockPositionDetail[] | FuturePositionDetail[] {
    this.options.beforeRead?.();
    const resolved = this.accounts.resolve(selector, 'S');
    if (resolved.type === 'F') {
      const position = this.ledger.futuresPositions(resolved.key).find((p) => p.id === detailId);
      if (!position) throw this.unknownPosition(resolved, detailId);
      return futuresPositionDetailRows(this.accounts.futuresContext(resolved), position);
    }
    const position = this.ledger.stockPositions(resolved.key).find((p) => p.id === detailId);
    if (!position) throw this.unknownPosition(resolved, detailId);
    return stockPositionDetailRows(this.accounts.stockContext(resolved), position);
  }

  profitLoss(selector: AccountSelector, range: DateRange, unit: PositionUnit): StockProfitLoss[] | FutureProfitLoss[] {
    this.options.beforeRead?.();
    const resolved = this.accounts.resolve(selector, 'S');
    const { begin, end } = dateRange(range, this.accounts.today(resolved));
    if (resolved.type === 'F') return futuresProfitLossRows(this.realizedWithin<FutureRealized>(resolved, begin, end));
    return stockProfitLossRows(this.realizedWithin<StockRealized>(resolved, begin, end), unit);
  }

  profitLossDetail(
    selector: AccountSelector,
    detailId: number,
    unit: PositionUnit,
  ): StockProfitDetail[] | FutureProfitDetail[] {
    this.options.beforeRead?.();
    const resolved = this.accounts.resolve(selector, 'S');
    const account = this.ledger.accounts.get(resolved.key);
    const found = realizedById<StockRealized | FutureRealized>(account, this.archive, detailId);
    if (!found) throw unknownProfitLoss(resolved, detailId, realizedCount(account));
    if (resolved.type === 'F') return futuresProfitDetailRows(found as FutureRealized);
    return stockProfitDetailRows(found as StockRealized, unit);
  }

  profitLossSummary(selector: AccountSelector, range: DateRange): ProfitLossSummary {
    this.options.beforeRead?.();
    const resolved = this.accounts.resolve(selector, 'S');
    const { begin, end } = dateRange(range, this.accounts.today(resolved));
    if (resolved.type === 'F')
      return futuresProfitLossSummary(this.realizedWithin<FutureRealized>(resolved, begin, end));
    return stockProfitLossSummary(this.realizedWithin<StockRealized>(resolved, begin, end));
  }

  private realizedWithin<T extends StockRealized | FutureRealized>(
    resolved: ResolvedAccount,
    begin: string,
    end: string,
  ): T[] {
    return realizedWithin<T>(this.ledger.accounts.get(resolved.key), this.archive, begin, end);
  }

  settlements(selector: AccountSelector): Settlement[] {
    this.options.beforeRead?.();
    const { key } = this.accounts.stockAccount(selector, 'settlements');
    return settlementRows(this.ledger, key, this.market.tradingDay(this.clock.now()));
  }

  tradingLimits(selector: AccountSelector): TradingLimits {
    this.options.beforeRead?.();
    const { key } = this.accounts.stockAccount(selector, 'trading_limits');
    const now = this.clock.now();
    this.requireTradingLimitsWindow(now);
    const limits = tradingLimitsOf(this.ledger, key, this.market.tradingDay(now), this.ledger.startingBalance(key));
    return { ...limits, trading_available: Math.max(0, limits.trading_available - this.earmarked(key)) };
  }

  private earmarked(accountKey: string): number {
    return this.options.reserves?.earmarkedCash(accountKey) ?? 0;
  }

  private unknownPosition(resolved: ResolvedAccount, detailId: number): NotFoundError {
    const positions =
      resolved.type === 'F' ? this.ledger.futuresPositions(resolved.key) : this.ledger.stockPositions(resolved.key);
    const ids = positions.map((p) => p.id);
    const known = ids.length === 0 ? 'the account has no open positions' : `open position ids: ${ids.join(', ')}`;
    return new NotFoundError(
      'POSITION_NOT_FOUND',
      `no open position with detail_id ${detailId} in ${accountKeyOf(resolved.account)}; ${known}`,
    );
  }

  private requireTradingLimitsWindow(now: number): void {
    if (this.options.clockMode !== 'exchange') return;
    const minute = taipeiMinuteOfDay(now);
    const open =
      isTradingDay(taipeiDate(now)) && minute >= TRADING_LIMITS_WINDOW.from && minute < TRADING_LIMITS_WINDOW.to;
    if (open) return;
    throw new DomainError(
      'OUTSIDE_HOURS',
      `trading_limits answers on trading days from 08:30 to 15:00 Taipei time; it is ${taipeiTimestamp(now)} now ` +
        '(the always-open clock, SJ_SIM_CLOCK=always-open, answers at any hour)',
    );
  }
}

function unknownProfitLoss(resolved: ResolvedAccount, detailId: number, count: number): NotFoundError {
  const known = count === 0 ? 'the account has no realized profit or loss yet' : `ids run from 1 to ${count}`;
  return new NotFoundError(
    'PROFIT_LOSS_NOT_FOUND',
    `no profit_loss with detail_id ${detailId} in ${accountKeyOf(resolved.account)}; ${known}`,
  );
}

/**
 * The dates of a range; a missing date is today, or the other date when today would reverse the range.
 * Throws InvalidRequestError for a malformed date or a begin_date after end_date.
 */
export function dateRange(range: DateRange, today: string): { begin: string; end: string } {
  for (const [name, value] of [
    ['begin_date', range.begin_date],
    ['end_date', range.end_date],
  ] as const) {
    if (value !== undefined && !isDateString(value)) {
      throw new InvalidRequestError(`${name} must be a YYYY-MM-DD date, got '${value}'`);
    }
  }
  const end = range.end_date ?? (range.begin_date !== undefined && range.begin_date > today ? range.begin_date : today);
  const begin = range.begin_date ?? (end < today ? end : today);
  if (begin > end) {
    throw new InvalidRequestError(`begin_date ${begin} is after end_date ${end}; give the earlier date first`);
  }
  return { begin, end };
}
