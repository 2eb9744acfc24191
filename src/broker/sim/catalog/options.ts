// OptionInfo for the TXO family: monthly and quarterly TXO, Wednesday (TX1..TX5) and Friday (TXU..TXZ) weeklies.

import type { OptionInfo, OptionRight } from '../../../domain/contracts.js';
import { optionCode } from '../../../domain/derivative-codes.js';
import {
  isQuarterlyListing,
  listedMonths,
  listingBeginDate,
  monthlyLastTradingDay,
  openWeeklyExpiries,
} from '../../../domain/listing.js';
import { black76, smileVolatility } from '../../../domain/option-pricing.js';
import { roundDownToTick, roundToTick, roundUpToTick, TXO_PREMIUM_TICKS } from '../../../domain/ticks.js';
import { daysBetween } from '../../../domain/time.js';
import { OPTION_PRODUCTS, type OptionProduct, optionProductFor, TXO_FAMILY } from './derivative-products.js';
import { stagedLimitFields } from './futures.js';
import type { ReferencePrices } from './references.js';

const TXO_MULTIPLIER = 50;
const ATM_VOLATILITY = 0.2;
const LOWEST_PREMIUM = TXO_PREMIUM_TICKS[0]!.tick;

interface Expiry {
  product: OptionProduct;
  yearMonth: string;
  lastTradingDay: string;
  beginDate: string;
  /** Strike interval near the money and far from it, and how far from the index strikes reach. */
  nearInterval: number;
  farInterval: number;
  reach: number;
}

/** Strike intervals of the TXO spec for strikes >= 3,000: weekly 50 within 3% (100 beyond), monthly 100, quarterly 200. */
function expiriesOf(contractDay: string): Expiry[] {
  const monthly = OPTION_PRODUCTS[0]!;
  const monthlies = listedMonths('index-options', contractDay).map((yearMonth): Expiry => {
    const quarterly = isQuarterlyListing('index-options', contractDay, yearMonth);
    return {
      product: monthly,
      yearMonth,
      lastTradingDay: monthlyLastTradingDay(yearMonth),
      beginDate: listingBeginDate('index-options', yearMonth),
      nearInterval: quarterly ? 200 : 100,
      farInterval: quarterly ? 200 : 100,
      reach: quarterly ? 0.2 : 0.15,
    };
  });
  const weeklies = (['Wed', 'Fri'] as const).flatMap((weekday) =>
    openWeeklyExpiries(contractDay, weekday).map(
      (expiry): Expiry => ({
        product: optionProductFor(weekday, expiry.weekOfMonth),
        yearMonth: expiry.yearMonth,
        lastTradingDay: expiry.lastTradingDay,
        beginDate: expiry.beginDate,
        nearInterval: 50,
        farInterval: 100,
        reach: 0.1,
      }),
    ),
  );
  return [...monthlies, ...weeklies];
}

function strikesOf(expiry: Expiry, index: number): number[] {
  const strikes: number[] = [];
  const low = Math.ceil((index * (1 - expiry.reach)) / expiry.nearInterval) * expiry.nearInterval;
  for (let strike = low; strike <= index * (1 + expiry.reach); strike += expiry.nearInterval) {
    const nearTheMoney = Math.abs(strike - index) <= index * 0.03;
    if (nearTheMoney || strike % expiry.farInterval === 0) strikes.push(strike);
  }
  return strikes;
}

/** Premium limits move by whole index points: a fraction of the index's previous close. */
function premiumLimits(reference: number, index: number, fraction: number) {
  const move = Math.floor(index * fraction);
  return {
    limitUp: roundDownToTick(TXO_PREMIUM_TICKS, reference + move),
    limitDown: Math.max(roundUpToTick(TXO_PREMIUM_TICKS, reference - move), LOWEST_PREMIUM),
  };
}

function optionInfo(
  expiry: Expiry,
  strike: number,
  right: OptionRight,
  index: number,
  contractDay: string,
  prices: ReferencePrices,
): OptionInfo {
  const { product } = expiry;
  const years = (daysBetween(contractDay, expiry.lastTradingDay) + 1) / 365;
  const volatility = smileVolatility(ATM_VOLATILITY, index, strike);
  const theoretical = black76({ underlying: index, strike, years, volatility, right });
  const theoreticalReference = Math.max(roundToTick(TXO_PREMIUM_TICKS, theoretical), LOWEST_PREMIUM);
  // One stage, as for domestic futures: the premium moves at most 10% of the index's previous close.
  const limitsAround = (reference: number) => {
    const limits = premiumLimits(reference, index, 0.1);
    return stagedLimitFields([limits, limits, limits]);
  };
  const month = expiry.yearMonth.slice(4, 6);
  const series = product.series === 'monthly' ? '' : `${product.name.slice(5)} `;
  const info: OptionInfo = {
    security_type: 'OPT',
    region: 'TW',
    exchange: 'TAIFEX',
    code: optionCode(product.root, strike, right, expiry.yearMonth),
    target_code: null,
    name: `臺指選擇權${series}${month}月 ${strike}${right}`,
    root: product.root,
    delivery_month: expiry.yearMonth,
    delivery_date: expiry.lastTradingDay,
    last_trading_date: expiry.lastTradingDay,
    begin_date: expiry.beginDate,
    underlying_kind: 'I',
    underlying_code: 'IX0001',
    multiplier: TXO_MULTIPLIER,
    contract_size: TXO_MULTIPLIER,
    size_unit: 'TWD/point',
    quote_ccy: 'TWD',
    tick_basis: 'premium',
    tick_rule: 'TXO',
    tick: LOWEST_PREMIUM,
    tick_value: LOWEST_PREMIUM * TXO_MULTIPLIER,
    spec_kind: 'index_opt',
    decimal_locator: 1,
    dynamic_banding: true,
    flow_group: TXO_FAMILY,
    reference: theoreticalReference,
    ...limitsAround(theoreticalReference),
    update_date: contractDay,
    strike_price: strike,
    option_right: right,
    expiry_weekday: product.series === 'Fri' ? 'Fri' : 'Wed',
    week_of_month: product.weekOfMonth,
    strike_decimal_locator: 0,
  };
  const reference = Math.max(prices.settlementOf?.(info) ?? theoreticalReference, LOWEST_PREMIUM);
  return { ...info, reference, ...limitsAround(reference) };
}

/** Every listed TXO-family option, by expiry, then strike, calls before puts. */
export function listOptions(contractDay: string, prices: ReferencePrices): OptionInfo[] {
  const index = prices.referenceOf('IX0001');
  return expiriesOf(contractDay)
    .sort((a, b) => a.lastTradingDay.localeCompare(b.lastTradingDay) || a.product.root.localeCompare(b.product.root))
    .flatMap((expiry) =>
      strikesOf(expiry, index).flatMap((strike) =>
        (['C', 'P'] as const).map((right) => optionInfo(expiry, strike, right, index, contractDay, prices)),
      ),
    );
}
