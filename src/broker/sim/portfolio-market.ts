// The simulated market as the portfolio sees it: last prices for unrealized P&L, margins, the trading day.

import type { ContractInfo } from '../../domain/contracts.js';
import type { SimContracts } from './contracts.js';
import { marketOf, type SimMarket } from './market/market.js';
import { publishedCount } from './market/tape.js';
import { contractMargin } from './orders/margins.js';
import type { PortfolioMarket } from './portfolio/market.js';

export function portfolioMarket(market: SimMarket, contracts: SimContracts): PortfolioMarket {
  const infoOf = (code: string): ContractInfo | null => contracts.current().find(code) ?? null;
  return {
    lastPrice(code, at) {
      const info = infoOf(code);
      if (!info) return 0;
      const tape = market.tape(info, market.dayAt(marketOf(info), at));
      const count = publishedCount(tape, at);
      return count > 0 ? tape.prices[count - 1]! : 'reference' in info ? info.reference : 0;
    },
    marginOf(code) {
      const info = infoOf(code);
      return info ? contractMargin(info, market) : { initial: 0, maintenance: 0 };
    },
    tradingDay: (at) => market.dayAt('stock', at),
  };
}
