// Stock positions and realized P&L as Shioaji reports them, from the ledger's lots and closing deals.

import { type StockTaxKind, stockFee, stockTax } from '../../../domain/fees.js';
import { type Action, BOARD_LOT_SHARES } from '../../../domain/orders.js';
import type {
  PositionUnit,
  ProfitLossSummary,
  ProfitLossTotal,
  StockPosition,
  StockPositionDetail,
  StockProfitDetail,
  StockProfitLoss,
  StockProfitLossSummary,
} from '../../../domain/portfolio.js';
import { type StockPositionState, type StockRealized, type StockTotals, stockTotals } from './account-state.js';
import type { Ledger } from './ledger.js';
import type { PortfolioMarket } from './market.js';
import { percentOf, round2, stockDealValue } from './money.js';

/** Whole lots for unit Common (odd shares dropped), shares for unit Share. */
export const inUnit = (shares: number, unit: PositionUnit): number =>
  unit === 'Common' ? Math.floor(shares / BOARD_LOT_SHARES) : shares;

const total = <T>(items: readonly T[], of: (item: T) => number): number =>
  items.reduce((sum, item) => sum + of(item), 0);

/**
 * Unrealized P&L of lots (what they sum to) at the last price: what closing them now would bring (less the estimated
 * fee, and the tax of a sale) against what opening them cost (with its fee, and for a short its tax and lending fee).
 */
export function unrealizedPnl(lots: StockTotals, direction: Action, taxKind: StockTaxKind, last: number) {
  const { shares } = lots;
  const marketValue = stockDealValue(last, shares);
  const fee = stockFee(marketValue, { oddLot: shares < BOARD_LOT_SHARES });
  if (direction === 'Buy') {
    const proceeds = marketValue - fee - stockTax(marketValue, { kind: taxKind });
    return proceeds - (lots.value + lots.fee);
  }
  const received = lots.value - lots.fee - lots.tax - lots.borrowFee;
  return received - (marketValue + fee);
}

export interface StockViewContext {
  ledger: Ledger;
  accountKey: string;
  market: PortfolioMarket;
  at: number;
  today: string;
}

export function stockPositionRows(ctx: StockViewContext, unit: PositionUnit): StockPosition[] {
  return ctx.ledger.stockPositions(ctx.accountKey).flatMap((position) => {
    const totals = stockTotals(position);
    const { shares } = totals;
    const quantity = inUnit(shares, unit);
    if (quantity === 0) return [];
    const last = ctx.market.lastPrice(position.code, ctx.at);
    return [
      {
        id: position.id,
        code: position.code,
        direction: position.direction,
        quantity,
        price: round2(totals.value / shares),
        last_price: last,
        pnl: unrealizedPnl(totals, position.direction, position.taxKind, last),
        yd_quantity: inUnit(ctx.ledger.sharesHeldBefore(ctx.accountKey, position, ctx.today), unit),
        cond: position.cond,
        margin_purchase_amount: totals.loan,
        collateral: totals.collateral,
        short_sale_margin: totals.shortMargin,
        interest: 0,
      },
    ];
  });
}

/** One row per open lot, in shares: price is what the lot cost (received, for a short), last_price its value now. */
export function stockPositionDetailRows(ctx: StockViewContext, position: StockPositionState): StockPositionDetail[] {
  const last = ctx.market.lastPrice(position.code, ctx.at);
  const lots = ctx.ledger.openStockLots(ctx.accountKey, position.code, position.cond, position.direction);
  return lots.map((lot) => ({
    date: lot.day,
    code: position.code,
    quantity: lot.shares,
    price: position.direction === 'Buy' ? lot.value + lot.fee : lot.value - lot.fee - lot.tax - lot.borrowFee,
    last_price: stockDealValue(last, lot.shares),
    dseq: lot.ordno,
    direction: position.direction,
    pnl: unrealizedPnl(lot, position.direction, position.taxKind, last),
    currency: 'TWD',
    fee: lot.fee,
    cond: position.cond,
    ex_dividends: 0,
    interest: 0,
    margintrading_amt: lot.loan,
    collateral: lot.collateral,
  }));
}

export const stockProfitLossRows = (realized: readonly StockRealized[], unit: PositionUnit): StockProfitLoss[] =>
  realized.map(({ record }) => ({ ...record, quantity: inUnit(record.quantity, unit) }));

export const stockProfitDetailRows = (realized: StockRealized, unit: PositionUnit): StockProfitDetail[] =>
  realized.details.map((row) => ({ ...row, quantity: inUnit(row.quantity, unit) }));

/** Closing deals summed per (code, cond), quantities in shares. */
export function stockProfitLossSummary(realized: readonly StockRealized[]): ProfitLossSummary {
  const groups = new Map<string, StockRealized[]>();
  for (const item of realized) {
    const key = `${item.record.code}|${item.record.cond}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const rows = [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, items]) => summaryRow(items));
  return { profitloss_sum: rows, total: summaryTotal(realized) };
}

function summaryRow(items: StockRealized[]): StockProfitLossSummary {
  const first = items[0]!.record;
  const shares = total(items, (item) => item.record.quantity);
  const entryValue = total(items, (item) => item.entryValue);
  const coverValue = total(items, (item) => item.coverValue);
  const pnl = total(items, (item) => item.record.pnl);
  return {
    code: first.code,
    quantity: shares,
    entry_price: round2(entryValue / shares),
    cover_price: round2(coverValue / shares),
    pnl,
    currency: 'TWD',
    entry_cost: entryValue,
    cover_cost: coverValue,
    buy_cost: total(items, (item) => item.buyCost),
    sell_cost: total(items, (item) => item.sellCost),
    pr_ratio: percentOf(
      pnl,
      total(items, (item) => item.cost),
    ),
    cond: first.cond,
  };
}

function summaryTotal(items: readonly StockRealized[]): ProfitLossTotal {
  const pnl = total(items, (item) => item.record.pnl);
  return {
    entry_amount: total(items, (item) => item.entryValue),
    cover_amount: total(items, (item) => item.coverValue),
    quantity: total(items, (item) => item.record.quantity),
    buy_cost: total(items, (item) => item.buyCost),
    sell_cost: total(items, (item) => item.sellCost),
    pnl,
    pr_ratio: percentOf(
      pnl,
      total(items, (item) => item.cost),
    ),
  };
}
