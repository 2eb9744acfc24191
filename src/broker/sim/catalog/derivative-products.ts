// TAIFEX products the simulator lists: index futures (with weekly Mini-TAIEX), stock and ETF futures, TXO.

import type { FuturesSpecKind, UnderlyingKind } from '../../../domain/contracts.js';
import type { MonthCycle } from '../../../domain/listing.js';

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

export const FUTURES_PRODUCTS: readonly FuturesProduct[] = [
  indexFutures('TXF', '臺股期貨', 200),
  indexFutures('MXF', '小型臺指', 50),
  indexFutures('TMF', '微型臺指', 10),
  ...[1, 2, 4, 5].map(weeklyMiniTaiex),
  stockFutures('CDF', '台積電期貨', '2330'),
  stockFutures('QFF', '小型台積電期貨', '2330', 100),
  stockFutures('DHF', '鴻海期貨', '2317'),
  stockFutures('DVF', '聯發科期貨', '2454'),
  stockFutures('CCF', '聯電期貨', '2303'),
  stockFutures('CAF', '南亞期貨', '1303'),
  stockFutures('DQF', '群創期貨', '3481'),
  stockFutures('CZF', '長榮期貨', '2603'),
  stockFutures('FZF', '華邦電期貨', '2344'),
  stockFutures('QZF', '力積電期貨', '6770'),
  stockFutures('DXF', '緯創期貨', '3231'),
  { ...stockFutures('NYF', '元大台灣50期貨', '0050', 10_000), specKind: 'etf_fut', tickRule: 'ETF' },
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
