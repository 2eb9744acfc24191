// Human output of the portfolio listings: stock rows have `cond`, futures rows never do, and each gets its columns.

import { formatTable } from '../../output.js';

const COLUMNS = {
  positions: {
    stock: ['id', 'code', 'direction', 'quantity', 'yd_quantity', 'price', 'last_price', 'pnl', 'cond'],
    futures: ['id', 'code', 'direction', 'quantity', 'price', 'last_price', 'pnl'],
  },
  positionDetail: {
    stock: ['date', 'code', 'direction', 'quantity', 'price', 'last_price', 'pnl', 'fee', 'cond', 'dseq'],
    futures: ['date', 'code', 'direction', 'quantity', 'entry_quantity', 'price', 'last_price', 'pnl', 'fee', 'dseq'],
  },
  profitLoss: {
    stock: ['id', 'date', 'code', 'quantity', 'price', 'pnl', 'pr_ratio', 'cond', 'dseq'],
    futures: ['id', 'date', 'code', 'direction', 'quantity', 'entry_price', 'cover_price', 'pnl', 'fee', 'tax'],
  },
  profitLossDetail: {
    stock: ['date', 'code', 'trade_type', 'quantity', 'price', 'cost', 'fee', 'tax', 'cond', 'dseq'],
    futures: ['date', 'code', 'direction', 'quantity', 'entry_date', 'entry_price', 'cover_price', 'pnl', 'fee', 'tax'],
  },
  profitLossSummary: {
    stock: ['code', 'quantity', 'entry_price', 'cover_price', 'pnl', 'pr_ratio', 'buy_cost', 'sell_cost', 'cond'],
    futures: ['code', 'direction', 'quantity', 'entry_price', 'cover_price', 'pnl', 'fee', 'tax'],
  },
} as const;

export type Listing = keyof typeof COLUMNS;

const isStockRows = (rows: readonly object[]) => rows.some((row) => 'cond' in row);

/** Rows of one listing, with the stock or the futures columns. */
export function formatPortfolioRows(listing: Listing, rows: readonly object[], color = false): string {
  return formatTable(rows, COLUMNS[listing][isStockRows(rows) ? 'stock' : 'futures'], color);
}
