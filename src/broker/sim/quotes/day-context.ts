// The fixed facts of one quote source on one day, looked up once when its tape opens so that each event is only
// arithmetic: the code events carry, the reference and limits that chg_type compares with, the underlying's value
// for futures and options, and for an index its breadth and the previous day's turnover.

import { previousTradingDay } from '../../../domain/calendar.js';
import type { ComboContract, ContractInfo, FuturesInfo, IndexInfo, StockInfo } from '../../../domain/contracts.js';
import type { DepthModel } from '../exchange/depth-model.js';
import { FACTOR_INDEX } from '../market/daily.js';
import { COMBO_SIGNS, comboCodeOf, type SimMarket } from '../market/market.js';
import { shortStockSources } from '../market/reference-data.js';
import type { Tape } from '../market/tape.js';
import { IndexBreadth, MARKET_WIDE_INDICES } from './index-breadth.js';
import { IndexMembers } from './index-members.js';

/** Which payload family a source's events belong to. */
export type QuoteFamily = 'stk' | 'fop' | 'idx';

/** What a quote source watches: a product's board lots or odd lots, or a futures combo's own book. */
export interface QuoteSource {
  family: QuoteFamily;
  intradayOdd: boolean;
  /** The combo, for a combo source. */
  combo: ComboContract | null;
}

export interface IndexDay {
  previousDay: string;
  /** The previous trading day's whole turnover of the index tape. */
  previousAmount: number;
  marketWide: boolean;
  breadth: IndexBreadth;
  /** IX0001 and IX0043: the components, weighted, for the index analytics streams (built when first asked). */
  members: () => IndexMembers;
}

export interface QuoteContext {
  day: string;
  /** The code events carry: the real month of a continuous code, the exchange code of a combo. */
  code: string;
  exchange: string;
  reference: number;
  /** The latent depth a board-lot book shows past its best level (exchange/depth-model.ts); null for other books. */
  depth: DepthModel | null;
  limits: { up: number; down: number } | null;
  suspend: boolean;
  intradayOdd: boolean;
  /** Shares available to borrow (SBL), as short_stock_sources reports them. */
  availBorrowing: number;
  /** The underlying's value at an instant (epoch ms), for futures, options and combos. */
  underlyingAt: ((epochMs: number) => number) | null;
  index: IndexDay | null;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

export function contextOf(market: SimMarket, source: QuoteSource, info: ContractInfo, tape: Tape): QuoteContext {
  const day = tape.day;
  const base: QuoteContext = {
    day,
    code: info.code,
    exchange: info.exchange,
    reference: 'reference' in info ? info.reference : 0,
    depth: source.combo || source.intradayOdd ? null : market.figures.depthModelOf(info, tape),
    limits: 'limit_up' in info ? { up: info.limit_up, down: info.limit_down } : null,
    suspend: false,
    intradayOdd: source.intradayOdd,
    availBorrowing: 0,
    underlyingAt: null,
    index: null,
  };
  if (source.combo) return comboContext(market, source.combo, base);
  switch (info.security_type) {
    case 'STK': {
      return {
        ...base,
        suspend: info.trading_suspended,
        availBorrowing: shortStockSources([info as StockInfo], market.seed, 0)[0]!.short_stock_source,
      };
    }
    case 'FUT':
    case 'OPT':
      return { ...base, underlyingAt: underlyingOf(market, info.underlying_code) };
    case 'IND':
      return { ...base, index: indexDay(market, info, day) };
    default:
      return base;
  }
}

/** A combo's reference is the net of its legs' references, signed as its price is; it has no price limits. */
function comboContext(market: SimMarket, combo: ComboContract, base: QuoteContext): QuoteContext {
  const legs = combo.legs.map((leg) => market.listings.infoOn(leg.code, base.day));
  const signs = COMBO_SIGNS[combo.combo_type];
  const reference = legs.reduce((net, leg, i) => net + signs[i]! * (leg && 'reference' in leg ? leg.reference : 0), 0);
  const near = legs[0] as FuturesInfo | undefined;
  return {
    ...base,
    code: comboCodeOf(combo),
    exchange: combo.exchange,
    reference: Math.round(reference * 10_000) / 10_000,
    limits: null,
    underlyingAt: near ? underlyingOf(market, near.underlying_code) : null,
  };
}

/** The spot of an index (its market factor, to the hundredth) or the last trade of a stock. */
function underlyingOf(market: SimMarket, code: string): (epochMs: number) => number {
  const factor = FACTOR_INDEX[code];
  if (factor) return (epochMs) => round2(Math.exp(market.factors.logAt(factor, epochMs)));
  return (epochMs) => market.stockPriceAt(code, epochMs);
}

function indexDay(market: SimMarket, info: IndexInfo, day: string): IndexDay {
  const previousDay = previousTradingDay(day);
  let previousAmount = 0;
  if (market.daily.knows(previousDay)) {
    const tape = market.tape(market.listings.indexOn(info.code, previousDay), previousDay);
    for (let k = 0; k < tape.times.length; k++) previousAmount += tape.prices[k]! * tape.volumes[k]! * tape.amountUnit;
  }
  return {
    previousDay,
    previousAmount,
    marketWide: MARKET_WIDE_INDICES.has(info.code),
    breadth: new IndexBreadth(market, info.code, day),
    members: once(() => new IndexMembers(market, info.code, day, info.reference)),
  };
}

function once<T>(compute: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= compute();
    return value;
  };
}
