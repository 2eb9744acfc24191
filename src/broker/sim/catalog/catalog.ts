// The simulator's catalog on one trading day: every listed contract, indexed by code and by type.

import type { ContractInfo, FuturesInfo, OptionInfo, SecurityType, WarrantInfo } from '../../../domain/contracts.js';
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

export class Catalog {
  private readonly byCode = new Map<string, ContractInfo>();
  private readonly byType = new Map<SecurityType, ContractInfo[]>();

  constructor(
    readonly days: CatalogDays,
    seed: number,
    pricesOn: (day: string) => ReferencePrices,
  ) {
    const { stockDay, futuresDay } = days;
    const stockPrices = pricesOn(stockDay);
    const prices = pricesOn(futuresDay);
    this.add(LISTED_SECURITIES.map((s) => stockInfo(s, stockPrices.referenceOf(s.code), stockDay, seed)));
    this.add(LISTED_INDICES.map((i) => indexInfo(i, stockPrices.referenceOf(i.code), stockDay)));
    for (const product of FUTURES_PRODUCTS) {
      const listed = listFutures(product, futuresDay, prices);
      this.add(listed);
      this.add(continuousAliases(product, listed));
    }
    this.add(listOptions(futuresDay, prices));
    this.add(listWarrants(SECURITIES_BY_CODE, stockDay, stockPrices));
  }

  private add(infos: ContractInfo[]): void {
    for (const info of infos) {
      if (this.byCode.has(info.code)) throw new Error(`catalog lists ${info.code} twice`);
      this.byCode.set(info.code, info);
      const list = this.byType.get(info.security_type) ?? [];
      list.push(info);
      this.byType.set(info.security_type, list);
    }
  }

  find(code: string): ContractInfo | undefined {
    return this.byCode.get(code);
  }

  all(type: 'FUT'): FuturesInfo[];
  all(type: 'OPT'): OptionInfo[];
  all(type: 'WRT'): WarrantInfo[];
  all(type: SecurityType): ContractInfo[];
  all(type: SecurityType): ContractInfo[] {
    return this.byType.get(type) ?? [];
  }

  get size(): number {
    return this.byCode.size;
  }
}
