// What was listed on any trading day, with that day's reference and limits: the catalog's own functions fed with
// the daily model's closes. Only the part a query needs is built (one stock, one futures product, one family).

import type { ContractInfo, FuturesInfo, IndexInfo, StockInfo } from '../../../domain/contracts.js';
import { isContinuousCode } from '../../../domain/contracts.js';
import { SECURITIES_BY_CODE } from '../catalog/catalog.js';
import { FUTURES_PRODUCTS, type FuturesProduct } from '../catalog/derivative-products.js';
import { continuousAliases, listFutures } from '../catalog/futures.js';
import { indexInfo, LISTED_INDICES } from '../catalog/indices.js';
import { listOptions } from '../catalog/options.js';
import type { ReferencePrices } from '../catalog/references.js';
import { stockInfo } from '../catalog/stocks.js';
import { listWarrants } from '../catalog/warrants.js';
import type { DailyModel } from './daily.js';

const INDICES = new Map(LISTED_INDICES.map((i) => [i.code, i]));

/** The futures product whose contracts a code names (by its root), if it names one. */
function futuresProductOf(code: string): FuturesProduct | undefined {
  return FUTURES_PRODUCTS.find((product) => code.startsWith(product.root) && code.length === product.root.length + 2);
}

/**
 * A product's futures of a day with their continuous aliases: what a lookup of one futures code needs, without the
 * day's options and warrants (a restart looks up each deal's contract on its own day).
 */
function futuresOfProduct(product: FuturesProduct, day: string, prices: ReferencePrices): ContractInfo[] {
  const futures = listFutures(product, day, prices);
  return [...futures, ...continuousAliases(product, futures)];
}
const DERIVATIVES_PER_DAY = 8;
/** Stock infos kept, by day and code: two days of the whole listing (some 2,300 stocks) and room to spare. */
const STOCK_INFOS_KEPT = 8192;

export class Listings {
  private readonly derivatives = new Map<string, Map<string, ContractInfo>>();
  /** A stock's info of a day, read on every snapshot and order of it: built once, frozen, the oldest going first. */
  private readonly stocks = new Map<string, StockInfo>();

  constructor(
    private readonly daily: DailyModel,
    private readonly pricesOn: (day: string) => ReferencePrices,
  ) {}

  /** The info of a code as listed on a day (R1/R2 resolve to that day's target), or undefined. */
  infoOn(code: string, day: string): ContractInfo | undefined {
    if (!this.daily.knows(day)) return undefined;
    const security = SECURITIES_BY_CODE.get(code);
    if (security) return this.stockOn(code, day);
    if (INDICES.has(code)) return this.indexOn(code, day);
    const product = this.derivatives.has(day) ? undefined : futuresProductOf(code);
    if (product) return futuresOfProduct(product, day, this.pricesOn(day)).find((info) => info.code === code);
    return this.derivativesOn(day).get(code);
  }

  stockOn(code: string, day: string): StockInfo {
    const key = `${day}|${code}`;
    let info = this.stocks.get(key);
    if (info === undefined) {
      const security = SECURITIES_BY_CODE.get(code)!;
      info = Object.freeze(stockInfo(security, this.daily.referencesOn(day).referenceOf(code), day, this.daily.seed));
      if (this.stocks.size >= STOCK_INFOS_KEPT) this.stocks.delete(this.stocks.keys().next().value!);
      this.stocks.set(key, info);
    }
    return info;
  }

  indexOn(code: string, day: string): IndexInfo {
    return indexInfo(INDICES.get(code)!, this.daily.referencesOn(day).referenceOf(code), day);
  }

  /** Futures, options and warrants listed on a day, by code (continuous codes included). */
  derivativesOn(day: string): Map<string, ContractInfo> {
    let listed = this.derivatives.get(day);
    if (listed) return listed;
    const prices = this.pricesOn(day);
    listed = new Map<string, ContractInfo>();
    for (const product of FUTURES_PRODUCTS) {
      for (const info of futuresOfProduct(product, day, prices)) listed.set(info.code, info);
    }
    for (const info of listOptions(day, prices)) listed.set(info.code, info);
    for (const info of listWarrants(SECURITIES_BY_CODE, day, prices)) listed.set(info.code, info);
    if (this.derivatives.size >= DERIVATIVES_PER_DAY) this.derivatives.delete(this.derivatives.keys().next().value!);
    this.derivatives.set(day, listed);
    return listed;
  }
}

/** The specific contract a continuous code stood for on its listing day. */
export function targetOf(info: ContractInfo): ContractInfo & { code: string } {
  if (info.security_type === 'FUT' && isContinuousCode(info.code) && info.target_code) {
    return { ...(info as FuturesInfo), code: info.target_code, target_code: null };
  }
  return info;
}
