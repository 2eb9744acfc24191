// The simulator's contracts service: the contract directory over the catalog of the current simulated day, with the
// simulator's product tables, and the scheduled refreshes that roll the catalog and publish contract events.

import { ContractChecks } from '../../domain/contract-checks.js';
import { ContractDirectory } from '../../domain/contract-directory.js';
import type { ContractEvent } from '../../domain/contracts.js';
import type { ProductTable } from '../../domain/listed-contracts.js';
import type { ClockMode } from '../../domain/sessions.js';
import type { Clock } from '../../domain/time.js';
import { type Catalog, SECURITIES_BY_CODE } from './catalog/catalog.js';
import { CurrentCatalog } from './catalog/current-catalog.js';
import { FUTURES_PRODUCTS, OPTION_PRODUCTS } from './catalog/derivative-products.js';
import type { ReferencePrices } from './catalog/references.js';

const SIM_PRODUCTS: ProductTable = {
  futuresRoots: FUTURES_PRODUCTS,
  optionRoots: OPTION_PRODUCTS,
  underlyingName: (code) => SECURITIES_BY_CODE.get(code)?.name,
};

export class SimContracts extends ContractDirectory {
  private readonly catalogs: CurrentCatalog;
  private readonly events: ContractChecks;

  /** `sharedPrices`: the prices are the simulated market's of this seed and mode, so the catalogs can be shared. */
  constructor(
    clock: Clock,
    seed: number,
    prices: (day: string) => ReferencePrices,
    mode: ClockMode = 'exchange',
    sharedPrices = false,
  ) {
    const catalogs = new CurrentCatalog(clock, seed, prices, mode, sharedPrices);
    super(() => catalogs.current(), SIM_PRODUCTS);
    this.catalogs = catalogs;
    this.events = new ContractChecks(clock);
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
   * security type saying whether its contracts changed (stocks, indices and warrants roll at 08:00, or at midnight on
   * the always-open clock; futures and options at 14:45).
   */
  refresh(): void {
    const before = this.catalogs.last?.days;
    const after = this.current().days;
    const stocks = before?.stockDay !== after.stockDay;
    const derivatives = before?.futuresDay !== after.futuresDay;
    this.events.publish((type) => {
      const rolled = type === 'FUT' || type === 'OPT' ? derivatives : stocks;
      return { base: rolled, info: rolled };
    });
  }
}
