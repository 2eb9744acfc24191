// Reference prices (the previous close) that every listing derives its reference and limits from.
// The simulated market replaces the baseline with the closes it produced.

import type { FuturesInfo, OptionInfo, WarrantInfo } from '../../../domain/contracts.js';
import { LISTED_INDICES } from './indices.js';
import { LISTED_SECURITIES } from './listed-securities.js';

export interface ReferencePrices {
  /** The previous close of a stock, ETF or index on the contract day. */
  referenceOf(code: string): number;
  /**
   * The previous day's settlement of a futures, option or warrant contract, on its price grid (the simulated
   * market's last trade); only the contract's fixed terms are read. Without it the catalog uses a theoretical value.
   */
  settlementOf?(contract: FuturesInfo | OptionInfo | WarrantInfo): number;
}

const BASELINE = new Map<string, number>([
  ...LISTED_SECURITIES.map((s) => [s.code, s.close] as const),
  ...LISTED_INDICES.map((i) => [i.code, i.level] as const),
]);

/** The closes the simulator starts from (stocks mid 2026, TAIEX about 44,000). */
export const baselineReferences: ReferencePrices = {
  referenceOf(code) {
    const price = BASELINE.get(code);
    if (price === undefined) throw new Error(`no baseline price for ${code}`);
    return price;
  },
};
