// The stock account's cash views: bank balance, the T to T+2 settlements and the broker's trading limits.

import { nextTradingDay } from '../../../domain/calendar.js';
import type { Settlement, TradingLimits } from '../../../domain/portfolio.js';
import { stockTotals } from './account-state.js';
import type { Ledger } from './ledger.js';

/** The simulated broker's credit lines for margin purchases (融資) and short sales (融券), NT$. */
export const SIM_MARGIN_LIMIT = 5_000_000;
export const SIM_SHORT_LIMIT = 3_000_000;

const total = <T>(items: readonly T[], of: (item: T) => number): number =>
  items.reduce((sum, item) => sum + of(item), 0);

/** Starting cash plus every entry settled on or before today: what the bank account holds. */
export const bankBalance = (ledger: Ledger, accountKey: string, today: string): number =>
  ledger.settledCash(accountKey, today);

/** What settles today (T=0) and on the next two trading days; negative when the account pays. */
export function settlementRows(ledger: Ledger, accountKey: string, today: string): Settlement[] {
  const days = [today, nextTradingDay(today)];
  days.push(nextTradingDay(days[1]!));
  const entries = ledger.cashEntries(accountKey);
  return days.map((date, T) => ({
    date,
    amount: total(
      entries.filter((entry) => entry.settleDate === date),
      (entry) => entry.amount,
    ),
    T,
  }));
}

/**
 * trading_used: the value of today's Cash deals that opened a position still open (a day trade closed the same day
 * gives its amount back). margin_used and short_used: the outstanding margin loans and short-sale values.
 */
export function tradingLimitsOf(
  ledger: Ledger,
  accountKey: string,
  today: string,
  tradingLimit: number,
): TradingLimits {
  const positions = ledger.stockPositions(accountKey);
  const totalsOf = (cond: string) => positions.filter((p) => p.cond === cond).map(stockTotals);
  // Lots the journal keeps are read only when the last of them may be of today.
  const todaysLots = positions
    .filter((p) => p.cond === 'Cash')
    .flatMap((p) =>
      p.stored && p.stored.lastDay >= today ? ledger.openStockLots(accountKey, p.code, p.cond, p.direction) : p.lots,
    )
    .filter((lot) => lot.day === today);
  const tradingUsed = total(todaysLots, (lot) => lot.value);
  const marginUsed = total(totalsOf('MarginTrading'), (lots) => lots.loan);
  const shortUsed = total(totalsOf('ShortSelling'), (lots) => lots.value);
  const available = (limit: number, used: number) => Math.max(0, limit - used);
  return {
    trading_limit: tradingLimit,
    trading_used: tradingUsed,
    trading_available: available(tradingLimit, tradingUsed),
    margin_limit: SIM_MARGIN_LIMIT,
    margin_used: marginUsed,
    margin_available: available(SIM_MARGIN_LIMIT, marginUsed),
    short_limit: SIM_SHORT_LIMIT,
    short_used: shortUsed,
    short_available: available(SIM_SHORT_LIMIT, shortUsed),
  };
}
