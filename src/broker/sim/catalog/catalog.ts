// The simulator's catalog on one trading day: every listed contract, indexed by code and by type (a ContractList).

import {
  type ContractInfo,
  type FuturesInfo,
  type OptionInfo,
  SECURITY_TYPES,
  type SecurityType,
  type StockInfo,
  type WarrantInfo,
} from '../../../domain/contracts.js';
import { ContractList } from '../../../domain/listed-contracts.js';
import { FUTURES_PRODUCTS } from './derivative-products.js';
import { continuousAliases, listFutures } from './futures.js';
import { indexInfo, LISTED_INDICES } from './indices.js';
import { LISTED_SECURITIES, type ListedSecurity } from './listed-securities.js';
import { listOptions } from './options.js';
import type { ReferencePrices } from './references.js';
import { stockInfo } from './stocks.js';
import { listWarrants } from './warrants.js';

export const SECURITIES_BY_CODE: ReadonlyMap<string, ListedSecurity> = new Map(
  LISTED_SECURITIES.map((s) => [s.code, s]),
);

/** Which day each part of the catalog is listed for (stocks refresh at 08:00, futures at 14:45 for the night). */
export interface CatalogDays {
  stockDay: string;
  futuresDay: string;
}

/**
 * A day's catalog. Derivatives and indices are listed up front; each of the two thousand stocks' infos is made when
 * first looked up (or when all are listed), since a catalog is rebuilt at every refresh and most lookups name a few.
 * Its records and lists are frozen: brokers of the same market share one catalog (catalog-cache.ts).
 */
export class Catalog extends ContractList {
  private readonly stocks = new Map<string, StockInfo>();
  private allStocks: StockInfo[] | null = null;
  private readonly stockPrices: ReferencePrices;

  constructor(
    readonly days: CatalogDays,
    private readonly seed: number,
    pricesOn: (day: string) => ReferencePrices,
  ) {
    super(listedOn(days, pricesOn).map((info) => Object.freeze(info)));
    this.stockPrices = pricesOn(days.stockDay);
    for (const type of SECURITY_TYPES) Object.freeze(super.all(type));
  }

  override find(code: string): ContractInfo | undefined {
    const security = SECURITIES_BY_CODE.get(code);
    return security ? this.stockOf(security) : super.find(code);
  }

  override all(type: 'FUT'): FuturesInfo[];
  override all(type: 'OPT'): OptionInfo[];
  override all(type: 'WRT'): WarrantInfo[];
  override all(type: SecurityType): ContractInfo[];
  override all(type: SecurityType): ContractInfo[] {
    if (type !== 'STK') return super.all(type);
    this.allStocks ??= Object.freeze(LISTED_SECURITIES.map((security) => this.stockOf(security))) as StockInfo[];
    return this.allStocks;
  }

  override get size(): number {
    return super.size + LISTED_SECURITIES.length;
  }

  private stockOf(security: ListedSecurity): StockInfo {
    let info = this.stocks.get(security.code);
    if (!info) {
      info = Object.freeze(
        stockInfo(security, this.stockPrices.referenceOf(security.code), this.days.stockDay, this.seed),
      );
      this.stocks.set(security.code, info);
    }
    return info;
  }
}

/** Everything but the stocks, which the catalog lists on demand. */
function listedOn({ stockDay, futuresDay }: CatalogDays, pricesOn: (day: string) => ReferencePrices): ContractInfo[] {
  const stockPrices = pricesOn(stockDay);
  const prices = pricesOn(futuresDay);
  const futures = FUTURES_PRODUCTS.flatMap((product) => {
    const listed = listFutures(product, futuresDay, prices);
    return [...listed, ...continuousAliases(product, listed)];
  });
  return [
    ...LISTED_INDICES.map((i) => indexInfo(i, stockPrices.referenceOf(i.code), stockDay)),
    ...futures,
    ...listOptions(futuresDay, prices),
    ...listWarrants(SECURITIES_BY_CODE, stockDay, stockPrices),
  ];
}
