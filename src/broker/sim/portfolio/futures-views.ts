// Futures and options positions, realized P&L and the margin statement, from the ledger's lots and closing deals.

import type {
  FuturePosition,
  FuturePositionDetail,
  FutureProfitDetail,
  FutureProfitLoss,
  FutureProfitLossSummary,
  Margin,
  ProfitLossSummary,
  ProfitLossTotal,
} from '../../../domain/portfolio.js';
import type { FutureLot, FuturePositionState, FutureRealized, LedgerCashEntry } from './account-state.js';
import { DERIVATIVE_CASH_REASONS } from './futures-book.js';
import type { Ledger } from './ledger.js';
import type { PortfolioMarket } from './market.js';
import { directionSign, percentOf, round2, wholeDollars } from './money.js';

export interface FuturesViewContext {
  ledger: Ledger;
  accountKey: string;
  market: PortfolioMarket;
  at: number;
  /** The futures trading day now: the night session belongs to the next trading day. */
  today: string;
}

/** No maintenance margin to measure against: what Shioaji reports for an account without positions. */
export const RISK_INDICATOR_WITHOUT_POSITIONS = 999;

const total = <T>(items: readonly T[], of: (item: T) => number): number =>
  items.reduce((sum, item) => sum + of(item), 0);

/** (last - entry) x quantity x multiplier x direction, before fees and taxes. */
function openGross(position: FuturePositionState, lots: readonly FutureLot[], last: number): number {
  const points = total(lots, (lot) => (last - lot.price) * lot.quantity);
  return wholeDollars(points * position.multiplier * directionSign(position.direction));
}

export function futuresPositionRows(ctx: FuturesViewContext): FuturePosition[] {
  return ctx.ledger.futuresPositions(ctx.accountKey).map((position) => {
    const quantity = total(position.lots, (lot) => lot.quantity);
    const last = ctx.market.lastPrice(position.code, ctx.at);
    return {
      id: position.id,
      code: position.code,
      direction: position.direction,
      quantity,
      price: round2(total(position.lots, (lot) => lot.price * lot.quantity) / quantity),
      last_price: last,
      pnl: openGross(position, position.lots, last),
    };
  });
}

export function futuresPositionDetailRows(ctx: FuturesViewContext, position: FuturePositionState) {
  const last = ctx.market.lastPrice(position.code, ctx.at);
  return position.lots.map(
    (lot): FuturePositionDetail => ({
      date: lot.day,
      code: position.code,
      quantity: lot.quantity,
      price: lot.price,
      last_price: last,
      dseq: lot.ordno,
      direction: position.direction,
      pnl: openGross(position, [lot], last),
      currency: 'TWD',
      fee: lot.fee,
      entry_quantity: lot.entryQuantity,
    }),
  );
}

export const futuresProfitLossRows = (realized: readonly FutureRealized[]): FutureProfitLoss[] =>
  realized.map(({ record }) => ({ ...record }));

export const futuresProfitDetailRows = (realized: FutureRealized): FutureProfitDetail[] =>
  realized.details.map((row) => ({ ...row }));

/** Closing deals summed per (code, direction of the closed position). */
export function futuresProfitLossSummary(realized: readonly FutureRealized[]): ProfitLossSummary {
  const groups = new Map<string, FutureRealized[]>();
  for (const item of realized) {
    const key = `${item.record.code}|${item.record.direction}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const rows = [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, items]) => summaryRow(items));
  return { profitloss_sum: rows, total: summaryTotal(realized) };
}

function summaryRow(items: FutureRealized[]): FutureProfitLossSummary {
  const first = items[0]!;
  const quantity = total(items, (item) => item.record.quantity);
  const points = quantity * first.multiplier;
  return {
    code: first.record.code,
    quantity,
    entry_price: round2(total(items, (item) => item.entryValue) / points),
    cover_price: round2(total(items, (item) => item.coverValue) / points),
    pnl: total(items, (item) => item.record.pnl),
    currency: 'TWD',
    direction: first.record.direction,
    tax: total(items, (item) => item.record.tax),
    fee: total(items, (item) => item.record.fee),
  };
}

function summaryTotal(items: readonly FutureRealized[]): ProfitLossTotal {
  const pnl = total(items, (item) => item.record.pnl);
  const entryAmount = total(items, (item) => item.entryValue);
  return {
    entry_amount: entryAmount,
    cover_amount: total(items, (item) => item.coverValue),
    quantity: total(items, (item) => item.record.quantity),
    buy_cost: total(items, (item) => item.buyCost),
    sell_cost: total(items, (item) => item.sellCost),
    pnl,
    pr_ratio: percentOf(pnl, entryAmount),
  };
}

interface OpenPositions {
  futures: number;
  futuresOpenedToday: number;
  options: number;
  optionLongValue: number;
  optionShortValue: number;
  initial: number;
  maintenance: number;
}

/** Marks every open position to the last price and adds up the margin it needs. */
function markToMarket(ctx: FuturesViewContext): OpenPositions {
  const open: OpenPositions = {
    futures: 0,
    futuresOpenedToday: 0,
    options: 0,
    optionLongValue: 0,
    optionShortValue: 0,
    initial: 0,
    maintenance: 0,
  };
  for (const position of ctx.ledger.futuresPositions(ctx.accountKey)) {
    const last = ctx.market.lastPrice(position.code, ctx.at);
    const quantity = total(position.lots, (lot) => lot.quantity);
    const gross = openGross(position, position.lots, last);
    const needsMargin = position.securityType === 'FUT' || position.direction === 'Sell';
    if (needsMargin) {
      const margin = ctx.market.marginOf(position.code);
      open.initial += margin.initial * quantity;
      open.maintenance += margin.maintenance * quantity;
    }
    if (position.securityType === 'FUT') {
      open.futures += gross;
      const today = position.lots.filter((lot) => lot.day >= ctx.today);
      open.futuresOpenedToday += openGross(position, today, last);
      continue;
    }
    open.options += gross;
    const marketValue = wholeDollars(last * quantity * position.multiplier);
    if (position.direction === 'Buy') open.optionLongValue += marketValue;
    else open.optionShortValue += marketValue;
  }
  return open;
}

const amountOf = (entries: readonly LedgerCashEntry[], reason: string): number =>
  total(
    entries.filter((entry) => entry.reason === reason),
    (entry) => entry.amount,
  );

/**
 * The futures account's margin statement (TAIFEX terms): today's balance = yesterday's + premiums - fee - tax +
 * realized futures P&L; equity (權益數) adds the futures' open P&L; equity_amount (權益總值) adds long option value
 * and takes off short option value.
 */
export function marginStatement(ctx: FuturesViewContext): Margin {
  const entries = ctx.ledger.cashEntries(ctx.accountKey);
  const yesterday = entries.filter((entry) => entry.day < ctx.today);
  const today = entries.filter((entry) => entry.day >= ctx.today);
  const yesterdayBalance = ctx.ledger.startingBalance(ctx.accountKey) + total(yesterday, (entry) => entry.amount);
  const todayBalance = yesterdayBalance + total(today, (entry) => entry.amount);
  const open = markToMarket(ctx);
  const equity = todayBalance + open.futures;
  const equityAmount = equity + open.optionLongValue - open.optionShortValue;
  const optionsRealizedToday = ctx.ledger
    .futureRealized(ctx.accountKey)
    .filter((item) => item.securityType === 'OPT' && item.record.date >= ctx.today);
  return {
    yesterday_balance: yesterdayBalance,
    today_balance: todayBalance,
    deposit_withdrawal: 0,
    fee: 0 - amountOf(today, DERIVATIVE_CASH_REASONS.fee),
    tax: 0 - amountOf(today, DERIVATIVE_CASH_REASONS.tax),
    initial_margin: open.initial,
    maintenance_margin: open.maintenance,
    margin_call: equityAmount < open.maintenance ? Math.max(0, open.initial - equityAmount) : 0,
    risk_indicator:
      open.maintenance > 0 ? round2((equityAmount / open.maintenance) * 100) : RISK_INDICATOR_WITHOUT_POSITIONS,
    royalty_revenue_expenditure: amountOf(today, DERIVATIVE_CASH_REASONS.premium),
    equity,
    equity_amount: equityAmount,
    option_openbuy_market_value: open.optionLongValue,
    option_opensell_market_value: open.optionShortValue,
    option_open_position: open.options,
    option_settle_profitloss: total(optionsRealizedToday, (item) => item.gross),
    future_open_position: open.futures,
    today_future_open_position: open.futuresOpenedToday,
    future_settle_profitloss: amountOf(today, DERIVATIVE_CASH_REASONS.realized),
    available_margin: equityAmount - open.initial,
    plus_margin: 0,
    plus_margin_indicator: 0,
    security_collateral_amount: 0,
    order_margin_premium: 0,
    collateral_amount: 0,
  };
}
