// Margins as the simulated broker charges them: per contract of a futures code or short option, and a stock's
// margin-trading ratios.

import type { ContractInfo, FuturesInfo, OptionInfo, StockInfo } from '../../../domain/contracts.js';
import { futuresMargin, type MarginRequirement, optionMargin } from '../../../domain/fees.js';
import type { SimMarket } from '../market/market.js';

/** A stock's loan ratio and short-sale margin ratio (percent), as the rules and the ledger both use them. */
export function stockMarginRatios(info: StockInfo): { marginLoanRatio: number; shortMarginRatio: number } {
  return { marginLoanRatio: info.margin_loan_ratio ?? 0, shortMarginRatio: info.short_margin_ratio ?? 90 };
}

export function contractMargin(info: ContractInfo, market: SimMarket): MarginRequirement {
  const derivative = info as FuturesInfo | OptionInfo;
  try {
    if (info.security_type === 'OPT') {
      const option = info as OptionInfo;
      // The index's previous close: today's close is not known yet.
      const underlying = market.daily.referencesOn(option.update_date).referenceOf('IX0001');
      return optionMargin({
        side: 'short',
        root: option.root,
        right: option.option_right,
        strike: option.strike_price,
        premium: option.reference,
        underlying,
        multiplier: option.multiplier,
      });
    }
    return futuresMargin({ root: derivative.root, price: derivative.reference, multiplier: derivative.multiplier });
  } catch {
    // Products without a published margin: a tenth of the contract value, three quarters of it to maintain.
    const initial = Math.ceil(derivative.reference * derivative.multiplier * 0.1);
    return { initial, maintenance: Math.ceil(initial * 0.75) };
  }
}
