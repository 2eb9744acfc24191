// The fair values the simulated market trades around: futures are their underlying plus a basis that decays to zero
// at expiry, options are Black-76 prices of their futures with a volatility smile, warrants are priced from their
// underlying stock. Each derivative settles at its fair value at the end of TAIFEX's regular session, on its
// underlying's close, the same in both clock modes (settlementOf).

import { isTradingDay } from '../../../domain/calendar.js';
import type { ContractInfo, FuturesInfo, OptionInfo, WarrantInfo } from '../../../domain/contracts.js';
import {
  expiryCloseAt,
  finalSettlementPrice,
  fixingInstants,
  INDEX_FIXING,
  intrinsicValue,
  STOCK_FIXING,
} from '../../../domain/final-settlement.js';
import { black76, smileVolatility } from '../../../domain/option-pricing.js';
import type { ClockMode } from '../../../domain/sessions.js';
import { roundToTick, type TickTable, TXO_PREMIUM_TICKS, WARRANT_TICKS } from '../../../domain/ticks.js';
import { TAIPEI_OFFSET_MS, taipeiDate, taipeiInstant } from '../../../domain/time.js';
import { FUTURES_PRODUCTS } from '../catalog/derivative-products.js';
import { tickTableOfFutures } from '../catalog/futures.js';
import { type DailyModel, FACTOR_INDEX } from './daily.js';
import type { MarketFactors } from './factors.js';
import { Rng } from './rng.js';

const ATM_VOLATILITY = 0.2;
const DAY_MS = 86400_000;
const YEAR_MS = 365 * DAY_MS;
/** 13:30 and 13:45, Taipei time of day: the TAIEX close and the end of TAIFEX's regular session. */
const INDEX_CLOSE_MS = 13.5 * 3600_000;
const REGULAR_SESSION_END_MS = 13.75 * 3600_000;

/** Days from a day to a date (both YYYY-MM-DD). */
export const daysTo = (date: string, day: string): number => (Date.parse(date) - Date.parse(day)) / 86400_000;

export class FairValues {
  /** Annual carries by underlying and expiry: a few hundred at most (the listed expiries of each underlying). */
  private readonly carries = new Map<string, number>();

  constructor(
    private readonly seed: number,
    private readonly mode: ClockMode,
    private readonly daily: DailyModel,
    private readonly factors: MarketFactors,
    /** The last traded price of a stock at an instant: the underlying of stock futures and warrants. */
    private readonly stockPriceAt: (code: string, epochMs: number) => number,
    /** The same on the exchange clock, whatever the mode: what a stock future's final settlement averages. */
    private readonly fixingPriceAt: (code: string, epochMs: number) => number = stockPriceAt,
  ) {}

  /**
   * A derivative's settlement price of a day, on its grid: what the next day's reference and limits come from. A
   * warrant settles at its value on its stock's close. A futures or option contract on its last trading day settles
   * at its final settlement price (for an option, what it is worth there); on any other day at its fair value at the
   * end of TAIFEX's regular session (13:45), on its underlying's 13:30 close, the last price the underlying has before
   * then. That close is the same in both clock modes, so the settlement is too (docs/exchange-rules.md). Only fixed
   * terms of the contract are read, so the settlement does not depend on the day's own listing (no recursion into it).
   */
  settlementOf(contract: FuturesInfo | OptionInfo | WarrantInfo, day: string): number {
    const onGrid = (table: TickTable, value: number) => Math.max(roundToTick(table, value), table[0]!.tick);
    if (contract.security_type === 'WRT') {
      return onGrid(WARRANT_TICKS, this.warrantValue(contract, day, this.daily.closeOf(contract.underlying_code, day)));
    }
    const product = FUTURES_PRODUCTS.find((p) => p.root === contract.root);
    if (contract.last_trading_date === day) {
      // The last trading day ends at the final settlement: the futures at it, an option at what it is worth there.
      const fixing = this.finalSettlementOf(contract);
      if (contract.security_type === 'FUT') return onGrid(tickTableOfFutures(product!), fixing);
      return onGrid(TXO_PREMIUM_TICKS, intrinsicValue(contract.option_right, contract.strike_price, fixing));
    }
    const end = regularSessionEnd(day);
    const forward = this.forwardOn(this.daily.closeOf(contract.underlying_code, day), contract, end);
    if (contract.security_type === 'OPT') return onGrid(TXO_PREMIUM_TICKS, this.optionValueOn(contract, forward, end));
    return onGrid(tickTableOfFutures(product!), forward);
  }

  /**
   * The final settlement price of an expiring futures or option contract (domain/final-settlement.ts): the average
   * of its underlying over the exchange's fixing window on its last trading day. An index is read where the two clock
   * modes share one path (MarketFactors.exchangeLogAt) and a stock on the exchange clock, so the price is the same in
   * both modes.
   */
  finalSettlementOf(contract: Pick<FuturesInfo, 'underlying_code' | 'last_trading_date'>): number {
    const day = contract.last_trading_date;
    const factor = FACTOR_INDEX[contract.underlying_code];
    if (factor) {
      const disclosed = fixingInstants(INDEX_FIXING, day).map(
        (t) => Math.round(Math.exp(this.factors.exchangeLogAt(factor, day, t)) * 100) / 100,
      );
      return finalSettlementPrice(disclosed, INDEX_FIXING.roundTo);
    }
    const prices = fixingInstants(STOCK_FIXING, day).map((t) => this.fixingPriceAt(contract.underlying_code, t));
    return finalSettlementPrice(prices, STOCK_FIXING.roundTo);
  }

  /**
   * The forward of an underlying to an expiry at an instant: the underlying plus a basis that is zero at expiry. It
   * is one price for every contract on that underlying and expiry (TXF, MXF and TMF of a month, the options of that
   * expiry, a stock's futures of a month), so none trades at a standing gap to another.
   */
  forwardAt(underlyingCode: string, lastTradingDay: string, epochMs: number): number {
    const expiry = { underlying_code: underlyingCode, last_trading_date: lastTradingDay };
    return this.forwardOn(this.underlyingAt(underlyingCode, epochMs), expiry, epochMs);
  }

  /** The Black-76 value of an option at an instant, on the forward of its underlying and expiry. */
  optionValueAt(info: OptionInfo, epochMs: number): number {
    return this.optionValueOn(info, this.forwardAt(info.underlying_code, info.last_trading_date, epochMs), epochMs);
  }

  /** The fair value of one contract at an instant (futures and options, for combos). */
  fairValueAt(info: ContractInfo, epochMs: number): number {
    if (info.security_type === 'OPT') return this.optionValueAt(info as OptionInfo, epochMs);
    const futures = info as FuturesInfo;
    return this.forwardAt(futures.underlying_code, futures.last_trading_date, epochMs);
  }

  /** A warrant's value for a price of its underlying stock on a day. */
  warrantValue(info: WarrantInfo, day: string, spot: number): number {
    const years = Math.max(daysTo(info.expiry_date, day), 1) / 365;
    const value = black76({
      underlying: spot,
      strike: info.strike_price,
      years,
      volatility: 0.4,
      right: info.call_put,
    });
    return value * info.exercise_ratio;
  }

  /** The forward of an expiry at an instant for a price of its underlying. */
  private forwardOn(spot: number, expiry: Pick<FuturesInfo, 'underlying_code' | 'last_trading_date'>, epochMs: number) {
    const yearsLeft = Math.max(0, expiryCloseAt(expiry.last_trading_date) - epochMs) / YEAR_MS;
    return spot * (1 + this.carryOf(expiry.underlying_code, expiry.last_trading_date) * yearsLeft);
  }

  private optionValueOn(info: OptionInfo, forward: number, epochMs: number): number {
    const years = Math.max(0, expiryCloseAt(info.last_trading_date) - epochMs) / YEAR_MS;
    const volatility = smileVolatility(ATM_VOLATILITY, forward, info.strike_price);
    return black76({ underlying: forward, strike: info.strike_price, years, volatility, right: info.option_right });
  }

  /**
   * The price of an underlying at an instant. On the exchange clock the TAIEX is not disclosed after its 13:30 close,
   * so until TAIFEX's regular session ends at 13:45 index futures and options trade on that close (the index path
   * moves on towards the night session). A stock's last trade after 13:30 is its close already.
   */
  private underlyingAt(code: string, epochMs: number): number {
    const factor = FACTOR_INDEX[code];
    if (!factor) return this.stockPriceAt(code, epochMs);
    const taipeiTimeOfDay = (epochMs + TAIPEI_OFFSET_MS) % DAY_MS;
    if (this.mode === 'exchange' && taipeiTimeOfDay > INDEX_CLOSE_MS && taipeiTimeOfDay <= REGULAR_SESSION_END_MS) {
      const day = taipeiDate(epochMs);
      if (isTradingDay(day)) return this.daily.closeOf(code, day);
    }
    return Math.exp(this.factors.logAt(factor, epochMs));
  }

  /**
   * The annual carry of an underlying to an expiry (financing less the dividends expected before it): drawn once per
   * underlying and expiry, so every product on them shares it. The basis is futures minus spot, zero at expiry.
   */
  private carryOf(underlyingCode: string, lastTradingDay: string): number {
    const key = `${underlyingCode} ${lastTradingDay}`;
    let carry = this.carries.get(key);
    if (carry === undefined) {
      carry = -0.02 + 0.05 * new Rng(this.seed, 'carry', underlyingCode, lastTradingDay).next();
      this.carries.set(key, carry);
    }
    return carry;
  }
}

/** The end of TAIFEX's regular (day) session: where a day's settlement price is fixed. */
const regularSessionEnd = (day: string): number => taipeiInstant(day, '13:45');
