// TAIFEX products the simulator lists: index futures (with weekly Mini-TAIEX), stock and ETF futures on some 200
// underlyings (stock-futures.ts), TXO.

import type { FuturesSpecKind, UnderlyingKind } from '../../../domain/contracts.js';
import type { MonthCycle } from '../../../domain/listing.js';
import { LISTED_SECURITIES, type ListedSecurity } from './listed-securities.js';
import { stockFuturesRoot, stockFuturesUnderlyings } from './stock-futures.js';

export interface FuturesProduct {
  root: string;
  name: string;
  underlyingCode: string;
  underlyingKind: UnderlyingKind;
  specKind: FuturesSpecKind;
  /** NT$ per index point, or shares (units) per contract. */
  multiplier: number;
  sizeUnit: string;
  /** 'fixed' products have one tick; the others follow a tick-band rule. */
  tickRule: 'fixed' | 'STK' | 'ETF';
  cycle: MonthCycle | 'weekly';
  /** The monthly product a weekly root belongs to; the root itself otherwise. */
  family: string;
  weekOfMonth?: number;
}

const indexFutures = (root: string, name: string, multiplier: number): FuturesProduct => ({
  root,
  name,
  underlyingCode: 'IX0001',
  underlyingKind: 'I',
  specKind: 'index_fut',
  multiplier,
  sizeUnit: 'TWD/point',
  tickRule: 'fixed',
  cycle: 'index-futures',
  family: root,
});

const weeklyMiniTaiex = (week: number): FuturesProduct => ({
  ...indexFutures(`MX${week}`, `小型臺指W${week}`, 50),
  cycle: 'weekly',
  family: 'MXF',
  weekOfMonth: week,
});

const stockFutures = (root: string, name: string, underlyingCode: string, shares = 2000): FuturesProduct => ({
  root,
  name,
  underlyingCode,
  underlyingKind: 'S',
  specKind: 'stock_fut',
  multiplier: shares,
  sizeUnit: 'shares',
  tickRule: 'STK',
  cycle: 'stock-futures',
  family: root,
});

/** Standard stock futures on a stock (2,000 shares) or ETF futures on an ETF (10,000 units). */
function stockFuturesOf(security: ListedSecurity): FuturesProduct {
  const root = stockFuturesRoot(security);
  const name = `${security.name}期貨`;
  if (security.kind === 'stock') return stockFutures(root, name, security.code);
  return { ...stockFutures(root, name, security.code, 10_000), specKind: 'etf_fut', tickRule: 'ETF' };
}

const STOCK_FUTURES_UNDERLYINGS = stockFuturesUnderlyings(LISTED_SECURITIES);

export const FUTURES_PRODUCTS: readonly FuturesProduct[] = [
  indexFutures('TXF', '臺股期貨', 200),
  indexFutures('MXF', '小型臺指', 50),
  indexFutures('TMF', '微型臺指', 10),
  ...[1, 2, 4, 5].map(weeklyMiniTaiex),
  ...STOCK_FUTURES_UNDERLYINGS.map(stockFuturesOf),
  stockFutures('QFF', '小型台積電期貨', '2330', 100),
];

export interface OptionProduct {
  root: string;
  name: string;
  /** Monthly, or the expiry weekday of a weekly series. */
  series: 'monthly' | 'Wed' | 'Fri';
  weekOfMonth: number;
}

export const TXO_FAMILY = 'TXO';
const FRIDAY_ROOTS = ['TXU', 'TXV', 'TXX', 'TXY', 'TXZ'];

export const OPTION_PRODUCTS: readonly OptionProduct[] = [
  { root: 'TXO', name: '臺指選擇權', series: 'monthly', weekOfMonth: 3 },
  ...[1, 2, 4, 5].map((week) => ({
    root: `TX${week}`,
    name: `臺指選擇權W${week}`,
    series: 'Wed' as const,
    weekOfMonth: week,
  })),
  ...FRIDAY_ROOTS.map((root, i) => ({
    root,
    name: `臺指選擇權F${i + 1}`,
    series: 'Fri' as const,
    weekOfMonth: i + 1,
  })),
];

export function optionProductFor(series: 'Wed' | 'Fri', weekOfMonth: number): OptionProduct {
  return OPTION_PRODUCTS.find((p) => p.series === series && p.weekOfMonth === weekOfMonth)!;
}
