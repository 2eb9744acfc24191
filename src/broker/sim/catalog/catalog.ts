// The simulator's catalog on one trading day: every listed contract, indexed by code and by type (a ContractList).

import type { ContractInfo } from '../../../domain/contracts.js';
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

export class Catalog extends ContractList {
  constructor(
    readonly days: CatalogDays,
    seed: number,
    pricesOn: (day: string) => ReferencePrices,
  ) {
    super(listedOn(days, seed, pricesOn));
  }
}

function listedOn(
  { stockDay, futuresDay }: CatalogDays,
  seed: number,
  pricesOn: (day: string) => ReferencePrices,
): ContractInfo[] {
  const stockPrices = pricesOn(stockDay);
  const prices = pricesOn(futuresDay);
  const futures = FUTURES_PRODUCTS.flatMap((product) => {
    const listed = listFutures(product, futuresDay, prices);
    return [...listed, ...continuousAliases(product, listed)];
  });
  return [
    ...LISTED_SECURITIES.map((s) => stockInfo(s, stockPrices.referenceOf(s.code), stockDay, seed)),
    ...LISTED_INDICES.map((i) => indexInfo(i, stockPrices.referenceOf(i.code), stockDay)),
    ...futures,
    ...listOptions(futuresDay, prices),
    ...listWarrants(SECURITIES_BY_CODE, stockDay, stockPrices),
  ];
}
