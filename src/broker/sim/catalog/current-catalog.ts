// The catalog of the current listing days: built once per pair of listing days (stocks roll at 08:00, or at midnight
// on the always-open clock; futures and options at 14:45) and checked against the clock only when a refresh time has
// passed.

import { type ClockMode, nextListingRefresh, sessionDayAt } from '../../../domain/sessions.js';
import type { Clock } from '../../../domain/time.js';
import { Catalog } from './catalog.js';
import { sharedCatalog } from './catalog-cache.js';
import type { ReferencePrices } from './references.js';

export class CurrentCatalog {
  private catalog: Catalog | null = null;
  /** The listing days change only at refresh times (08:00, 14:45), so the check is skipped between two of them. */
  private checkedFrom = 0;
  private checkedUntil = 0;

  constructor(
    private readonly clock: Clock,
    private readonly seed: number,
    private readonly prices: (day: string) => ReferencePrices,
    private readonly mode: ClockMode = 'exchange',
    /** True when the prices are the simulated market's of this seed and mode: the catalog is then shared. */
    private readonly shared = false,
  ) {}

  /** The catalog built last, without looking at the clock; null before the first. */
  get last(): Catalog | null {
    return this.catalog;
  }

  /** The catalog of the current listing days, rebuilt when a refresh time passes. */
  current(): Catalog {
    const now = this.clock.now();
    if (this.catalog && now >= this.checkedFrom && now < this.checkedUntil) return this.catalog;
    const stockDay = sessionDayAt('stock', now, this.mode);
    const futuresDay = sessionDayAt('futures', now, this.mode);
    const catalog = this.catalog;
    if (!catalog || catalog.days.stockDay !== stockDay || catalog.days.futuresDay !== futuresDay) {
      const build = () => new Catalog({ stockDay, futuresDay }, this.seed, this.prices);
      this.catalog = this.shared ? sharedCatalog(this.seed, this.mode, { stockDay, futuresDay }, build) : build();
    }
    this.checkedFrom = now;
    this.checkedUntil = nextListingRefresh(this.mode, now);
    return this.catalog!;
  }
}
