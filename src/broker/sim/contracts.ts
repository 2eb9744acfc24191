// The simulator's contracts service: the contract directory over the catalog of the current simulated day, with the
// simulator's product tables, and the scheduled refreshes that roll the catalog and publish contract events.

import { ContractDirectory } from '../../domain/contract-directory.js';
import type { ContractEvent } from '../../domain/contracts.js';
import type { ProductTable } from '../../domain/listed-contracts.js';
import type { Clock } from '../../domain/time.js';
import { type Catalog, SECURITIES_BY_CODE } from './catalog/catalog.js';
import { CurrentCatalog } from './catalog/current-catalog.js';
import { FUTURES_PRODUCTS, OPTION_PRODUCTS } from './catalog/derivative-products.js';
import type { ReferencePrices } from './catalog/references.js';
import { ContractEvents } from './contract-events.js';

const SIM_PRODUCTS: ProductTable = {
  futuresRoots: FUTURES_PRODUCTS,
  optionRoots: OPTION_PRODUCTS,
  underlyingName: (code) => SECURITIES_BY_CODE.get(code)?.name,
};

export class SimContracts extends ContractDirectory {
  private readonly catalogs: CurrentCatalog;
  private readonly events: ContractEvents;

  constructor(clock: Clock, seed: number, prices: (day: string) => ReferencePrices) {
    const catalogs = new CurrentCatalog(clock, seed, prices);
    super(() => catalogs.current(), SIM_PRODUCTS);
    this.catalogs = catalogs;
    this.events = new ContractEvents(clock);
  }

  /** The catalog of the current listing days, rebuilt when a refresh time passes. */
  current(): Catalog {
    return this.catalogs.current();
  }

  onContractEvent(listener: (event: ContractEvent) => void): () => void {
    return this.events.on(listener);
  }

  /**
   * Runs a scheduled refresh: rebuilds the catalog if a listing day has rolled, and publishes one CHECK event per
   * security type saying whether its contracts changed (stocks, indices and warrants roll at 08:00, futures and
   * options at 14:45).
   */
  refresh(): void {
    const before = this.catalogs.last?.days;
    const after = this.current().days;
    this.events.publishChecks({
      stocks: before?.stockDay !== after.stockDay,
      derivatives: before?.futuresDay !== after.futuresDay,
    });
  }
}
