// Built catalogs shared by every simulated broker of the process: a catalog is a pure function of the seed, the clock
// mode and its two listing days when its prices are the simulated market's own, so two brokers of the same seed (the
// tests start dozens) need not build it twice. Catalogs are frozen where a reader could change them, so sharing one
// is safe; the few kept are the most recently used.

import type { ClockMode } from '../../../domain/sessions.js';
import type { Catalog, CatalogDays } from './catalog.js';

/** Enough for the days a broker moves across (stock and futures days roll apart) and a few seeds at once. */
const KEPT = 8;

const built = new Map<string, Catalog>();

/**
 * The catalog of these days priced by the simulated market of this seed and clock mode, built by `build` when none
 * is kept.
 */
export function sharedCatalog(seed: number, mode: ClockMode, days: CatalogDays, build: () => Catalog): Catalog {
  const key = `${seed}|${mode}|${days.stockDay}|${days.futuresDay}`;
  const kept = built.get(key);
  if (kept) {
    built.delete(key);
    built.set(key, kept);
    return kept;
  }
  const catalog = build();
  built.set(key, catalog);
  if (built.size > KEPT) built.delete(built.keys().next().value!);
  return catalog;
}
