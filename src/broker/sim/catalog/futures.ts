// FuturesInfo for every listed month of every futures product, and the R1/R2 continuous aliases.

import type { FuturesInfo } from '../../../domain/contracts.js';
import { continuousCode, futuresCode } from '../../../domain/derivative-codes.js';
import { listedMonths, listingBeginDate, monthlyLastTradingDay, openWeeklyExpiries } from '../../../domain/listing.js';
import {
  ETF_TICKS,
  type PriceLimits,
  percentLimits,
  roundToTick,
  STOCK_TICKS,
  type TickTable,
} from '../../../domain/ticks.js';
import type { FuturesProduct } from './derivative-products.js';
import type { ReferencePrices } from './references.js';

const WHOLE_POINTS: TickTable = [{ min: 0, max: null, tick: 1 }];

interface Listing {
  yearMonth: string;
  lastTradingDay: string;
  beginDate: string;
}

function listingsOf(product: FuturesProduct, contractDay: string): Listing[] {
  if (product.cycle === 'weekly') {
    return openWeeklyExpiries(contractDay, 'Wed')
      .filter((expiry) => expiry.weekOfMonth === product.weekOfMonth)
      .map(({ yearMonth, lastTradingDay, beginDate }) => ({ yearMonth, lastTradingDay, beginDate }));
  }
  const cycle = product.cycle;
  return listedMonths(cycle, contractDay).map((yearMonth) => ({
    yearMonth,
    lastTradingDay: monthlyLastTradingDay(yearMonth),
    beginDate: listingBeginDate(cycle, yearMonth),
  }));
}

export function tickTableOfFutures(product: FuturesProduct): TickTable {
  if (product.tickRule === 'fixed') return WHOLE_POINTS;
  return product.tickRule === 'ETF' ? ETF_TICKS : STOCK_TICKS;
}

/** The limit fields of a TAIFEX info: stage 1, 2 and 3 limit-up and limit-down. */
export function stagedLimitFields([stage1, stage2, stage3]: PriceLimits[]) {
  return {
    limit_up: stage1!.limitUp,
    limit_down: stage1!.limitDown,
    limit_up_2: stage2!.limitUp,
    limit_down_2: stage2!.limitDown,
    limit_up_3: stage3!.limitUp,
    limit_down_3: stage3!.limitDown,
  };
}

/**
 * Domestic index, stock and ETF futures have one limit stage, ±10% of the reference (TAIFEX trading safeguards);
 * the stage 2 and 3 fields, which foreign-index and commodity products use, repeat it.
 */
function limitStages(product: FuturesProduct, reference: number): PriceLimits[] {
  const limits = percentLimits(tickTableOfFutures(product), reference, 0.1);
  return [limits, limits, limits];
}

function futuresInfo(
  product: FuturesProduct,
  listing: Listing,
  underlyingReference: number,
  contractDay: string,
  prices: ReferencePrices,
): FuturesInfo {
  const tick = product.tickRule === 'fixed' ? 1 : 0.01;
  const month = listing.yearMonth.slice(4, 6);
  const info: FuturesInfo = {
    security_type: 'FUT',
    region: 'TW',
    exchange: 'TAIFEX',
    code: futuresCode(product.root, listing.yearMonth),
    target_code: null,
    name:
      product.cycle === 'weekly'
        ? `${product.name.replace(/W\d$/, '')}${month}W${product.weekOfMonth}`
        : `${product.name}${month}`,
    root: product.root,
    delivery_month: listing.yearMonth,
    delivery_date: listing.lastTradingDay,
    last_trading_date: listing.lastTradingDay,
    begin_date: listing.beginDate,
    underlying_kind: product.underlyingKind,
    underlying_code: product.underlyingCode,
    multiplier: product.multiplier,
    contract_size: product.multiplier,
    size_unit: product.sizeUnit,
    quote_ccy: 'TWD',
    tick_basis: product.tickRule === 'fixed' ? 'fixed' : 'price',
    tick_rule: product.tickRule === 'fixed' ? null : product.tickRule,
    tick,
    tick_value: Math.round(tick * product.multiplier * 100) / 100,
    spec_kind: product.specKind,
    decimal_locator: product.tickRule === 'fixed' ? 0 : 2,
    dynamic_banding: true,
    flow_group: product.family,
    reference: underlyingReference,
    ...stagedLimitFields(limitStages(product, underlyingReference)),
    update_date: contractDay,
  };
  const reference = prices.settlementOf?.(info) ?? underlyingReference;
  return { ...info, reference, ...stagedLimitFields(limitStages(product, reference)) };
}

/** The listed contracts of one product, nearest expiry first. */
export function listFutures(product: FuturesProduct, contractDay: string, prices: ReferencePrices): FuturesInfo[] {
  const reference = roundToTick(tickTableOfFutures(product), prices.referenceOf(product.underlyingCode));
  return listingsOf(product, contractDay).map((listing) =>
    futuresInfo(product, listing, reference, contractDay, prices),
  );
}

/** R1 (nearest month) and R2 (next month): the target's info under the alias code, with target_code set. */
export function continuousAliases(product: FuturesProduct, listed: FuturesInfo[]): FuturesInfo[] {
  if (product.cycle === 'weekly') return [];
  return ([1, 2] as const).flatMap((rank) => {
    const target = listed[rank - 1];
    if (!target) return [];
    return [
      {
        ...target,
        code: continuousCode(product.root, rank),
        name: `${product.name}R${rank}`,
        target_code: target.code,
      },
    ];
  });
}
