// Books stock deals: opens lots, closes them (same-day lots first for cash day trades, then FIFO), and records the
// cash each deal settles at T+2 and the realized P&L of each closing deal.

import type { Action } from '../../../domain/orders.js';
import {
  type AccountState,
  type LedgerCashEntry,
  opposite,
  type StockLot,
  type StockPositionState,
  sharesOf,
  stockPositionKey,
} from './account-state.js';
import { type BookedFill, lotOrigin } from './fills.js';
import { settlementDay } from './money.js';
import { closeStockPosition, closingOrder, StockDeal, type StockTerms } from './stock-closing.js';

/** Securities-lending fee of a short sale (借券費): 0.08% of the sale value, floored to whole NT$. */
export const SHORT_SALE_LENDING_FEE_PER_10K = 8;

/** Which position a deal closes and whether what it does not close opens a position. */
interface StockRoute {
  closes: Action | null;
  sameDayFirst: boolean;
  opensRest: boolean;
}

function routeOf(action: Action, terms: StockTerms): StockRoute {
  if (terms.cond === 'MarginTrading') {
    return action === 'Buy'
      ? { closes: null, sameDayFirst: false, opensRest: true }
      : { closes: 'Buy', sameDayFirst: false, opensRest: false };
  }
  if (terms.cond === 'ShortSelling') {
    return action === 'Sell'
      ? { closes: null, sameDayFirst: false, opensRest: true }
      : { closes: 'Sell', sameDayFirst: false, opensRest: false };
  }
  // A sell marked daytrade_short opens a same-day short even when shares are held (先賣後買).
  if (action === 'Sell' && terms.daytradeShort) return { closes: null, sameDayFirst: false, opensRest: true };
  return { closes: opposite(action), sameDayFirst: true, opensRest: true };
}

/**
 * Shares of a Cash sell taxed at the day-trade rate: all of a daytrade_short sell, else those that close shares
 * bought the same day.
 */
function dayTradeTaxedShares(account: AccountState, fill: BookedFill, terms: StockTerms): number {
  if (terms.cond !== 'Cash' || fill.action !== 'Sell') return 0;
  if (terms.daytradeShort) return fill.quantity;
  const longs = account.stocks.get(stockPositionKey(fill.code, 'Buy', 'Cash'))?.lots ?? [];
  const boughtToday = longs.filter((lot) => lot.day === fill.day).reduce((sum, lot) => sum + lot.shares, 0);
  return Math.min(fill.quantity, boughtToday);
}

/** A new lot for the shares of a deal that close nothing, and the cash its opening moves. */
function openLot(deal: StockDeal, shares: number): { lot: StockLot; cash: number } {
  const { fill, terms } = deal;
  const part = deal.part(shares, terms.cond === 'Cash' && terms.daytradeShort);
  const lot: StockLot = {
    ...lotOrigin(fill),
    shares,
    entryShares: shares,
    value: part.value,
    fee: part.fee,
    tax: part.tax,
    loan: 0,
    shortMargin: 0,
    collateral: 0,
    borrowFee: 0,
  };
  if (terms.cond === 'MarginTrading') {
    // Brokers lend whole thousands: the loan is floored to NT$1,000.
    lot.loan = Math.floor((part.value * terms.marginLoanRatio) / 100_000) * 1000;
    return { lot, cash: -(part.value - lot.loan + part.fee) };
  }
  if (terms.cond === 'ShortSelling') {
    // The short-sale margin is rounded up to NT$100; the proceeds stay with the broker as collateral.
    lot.shortMargin = Math.ceil((part.value * terms.shortMarginRatio) / 10_000) * 100;
    lot.borrowFee = Math.floor((part.value * SHORT_SALE_LENDING_FEE_PER_10K) / 10_000);
    lot.collateral = part.value - part.fee - part.tax - lot.borrowFee;
    return { lot, cash: -lot.shortMargin };
  }
  return { lot, cash: fill.action === 'Buy' ? -(part.value + part.fee) : part.value - part.fee - part.tax };
}

function cashReason(terms: StockTerms, action: Action): string {
  if (terms.cond === 'MarginTrading') return action === 'Buy' ? 'margin-buy' : 'margin-sell';
  if (terms.cond === 'ShortSelling') return action === 'Sell' ? 'short-sell' : 'short-cover';
  return action === 'Buy' ? 'stock-buy' : 'stock-sell';
}

export interface StockBooking {
  cash: LedgerCashEntry;
  /** Position keys whose lots changed. */
  touched: string[];
}

/**
 * Books one stock deal into the account; `loadLots` reads every lot of the position it closes into memory (the
 * journal keeps older ones). Throws RangeError for a margin sell or short cover beyond what is held.
 */
export function bookStockFill(
  account: AccountState,
  fill: BookedFill,
  terms: StockTerms,
  loadLots: (position: StockPositionState) => void = () => {},
): StockBooking {
  const route = routeOf(fill.action, terms);
  const closingKey = route.closes === null ? null : stockPositionKey(fill.code, route.closes, terms.cond);
  const held = closingKey === null ? undefined : account.stocks.get(closingKey);
  if (held) loadLots(held);
  const deal = new StockDeal(fill, terms, dayTradeTaxedShares(account, fill, terms));
  const closable = held ? sharesOf(held) : 0;
  if (!route.opensRest && fill.quantity > closable) {
    throw new RangeError(
      `${terms.cond} ${fill.action} of ${fill.quantity} shares of ${fill.code} closes only ${closable} held shares`,
    );
  }
  const touched: string[] = [];
  let cash = 0;
  let closed = 0;
  if (closingKey !== null && held) {
    const order = closingOrder(held, fill.day, route.sameDayFirst);
    const closing = closeStockPosition(account, closingKey, held, deal, order);
    cash += closing.cash;
    closed = closing.shares;
    touched.push(closingKey);
  }
  const rest = fill.quantity - closed;
  if (rest > 0) {
    const direction = fill.action;
    const key = stockPositionKey(fill.code, direction, terms.cond);
    const opened = openLot(deal, rest);
    positionFor(account, key, fill.code, terms, direction).lots.push(opened.lot);
    cash += opened.cash;
    touched.push(key);
  }
  if (closingKey !== null && held) recordDayEnd(account, closingKey, fill.day, -closed);
  if (rest > 0) recordDayEnd(account, stockPositionKey(fill.code, fill.action, terms.cond), fill.day, rest);
  const entry: LedgerCashEntry = {
    accountKey: account.key,
    at: fill.at,
    amount: cash,
    reason: cashReason(terms, fill.action),
    ref: `${fill.orderId}:${fill.dealSeq}`,
    settleDate: settlementDay(fill.day),
    day: fill.day,
  };
  return { cash: entry, touched };
}

function positionFor(
  account: AccountState,
  key: string,
  code: string,
  terms: StockTerms,
  direction: Action,
): StockPositionState {
  let position = account.stocks.get(key);
  if (!position) {
    position = { id: account.nextPositionId++, code, cond: terms.cond, direction, taxKind: terms.taxKind, lots: [] };
    account.stocks.set(key, position);
  }
  return position;
}

/**
 * Keeps the shares a position holds at the end of the day of a fill that changed it by `change`: from the last
 * record, not by summing its lots, which over a long history made booking every fill slower than the last.
 */
function recordDayEnd(account: AccountState, key: string, day: string, change: number): void {
  const history = account.heldAtDayEnd.get(key) ?? [];
  const last = history.at(-1);
  const position = account.stocks.get(key);
  const shares = last === undefined ? (position ? sharesOf(position) : 0) : last.shares + change;
  if (last?.day === day) last.shares = shares;
  else history.push({ day, shares });
  account.heldAtDayEnd.set(key, history);
}
