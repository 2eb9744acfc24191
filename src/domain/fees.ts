// Fees, taxes and margins of the Taiwan market (docs/exchange-rules.md).
// Money is whole NT$; amounts are computed in integer cents so that rates never suffer binary float error.

import type { FuturesSpecKind, OptionRight, OptionSpecKind, SecurityType } from './contracts.js';
import type { Action } from './orders.js';

const cents = (value: number): number => Math.round(value * 100);
/** floor() that ignores float noise just below a whole number (1424.9999999 is 1425). */
const floorWhole = (value: number): number => Math.floor(value + 1e-9);

// ---------------------------------------------------------------------------------------------------------------
// Stocks

/** The legal maximum brokerage fee, charged on both buys and sells. Brokers commonly discount it. */
export const STOCK_FEE_RATE = 0.001425;
// Minimum fees are broker policy, not an exchange rule: many brokers charge at least NT$20 per board-lot trade and
// NT$1 per odd-lot trade; the simulated broker does the same.
export const STOCK_MIN_FEE = 20;
export const ODD_LOT_MIN_FEE = 1;

export interface StockFeeOptions {
  oddLot?: boolean | undefined;
  /** The broker's discount as a factor of the full rate, e.g. 0.6 for 40% off; 1 when omitted. */
  discount?: number | undefined;
}

/** Brokerage fee of one trade of `value` NT$: 0.1425% floored to whole NT$, never below the minimum. */
export function stockFee(value: number, options: StockFeeOptions = {}): number {
  if (value <= 0) return 0;
  const full = (cents(value) * 1425) / 100_000_000;
  const fee = floorWhole(full * (options.discount ?? 1));
  return Math.max(fee, options.oddLot ? ODD_LOT_MIN_FEE : STOCK_MIN_FEE);
}

/** How the securities transaction tax treats a security. Bond ETFs are currently exempt. */
export type StockTaxKind = 'stock' | 'etf' | 'bond-etf' | 'warrant';

/** Securities transaction tax rates on the sell side, in units of 1/100,000 of value. */
const TAX_RATE: Record<StockTaxKind, number> = { stock: 300, etf: 100, 'bond-etf': 0, warrant: 100 };
/** Same-day round trips of stocks (現股當沖) pay half, through 2027-12-31. ETFs and warrants keep their rate. */
const STOCK_DAY_TRADE_TAX_RATE = 150;

export interface StockTaxOptions {
  kind: StockTaxKind;
  /** The sell closes a same-day round trip (現股當沖). */
  dayTrade?: boolean | undefined;
}

/** Securities transaction tax of one sell of `value` NT$, floored to whole NT$. Buys pay none. */
export function stockTax(value: number, options: StockTaxOptions): number {
  if (value <= 0) return 0;
  const rate = options.kind === 'stock' && options.dayTrade ? STOCK_DAY_TRADE_TAX_RATE : TAX_RATE[options.kind];
  return floorWhole((cents(value) * rate) / 10_000_000);
}

/** The tax kind of a listed security by its code: ETFs have codes starting 00, bond ETFs also end in B. */
export function stockTaxKind(code: string, securityType: SecurityType): StockTaxKind {
  if (securityType === 'WRT') return 'warrant';
  if (/^00\w*B$/.test(code)) return 'bond-etf';
  if (code.startsWith('00')) return 'etf';
  return 'stock';
}

export interface TradeCosts {
  fee: number;
  tax: number;
}

export interface StockTradeOptions extends StockFeeOptions {
  action: Action;
  kind: StockTaxKind;
  dayTrade?: boolean | undefined;
}

/** Fee and tax of one stock trade: both sides pay the fee, only the sell side pays the tax. */
export function stockTradeCosts(value: number, options: StockTradeOptions): TradeCosts {
  return {
    fee: stockFee(value, options),
    tax: options.action === 'Sell' ? stockTax(value, { kind: options.kind, dayTrade: options.dayTrade }) : 0,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Futures and options: products

/** Weekly roots belong to their monthly product: MX1..MX5 to MXF, TX1..TX5 and TXU..TXZ to TXO. */
export function productFamily(root: string): string {
  if (/^MX\d$/.test(root)) return 'MXF';
  if (/^TX\d$/.test(root) || /^TX[UVXYZ]$/.test(root)) return 'TXO';
  return root;
}

/** NT$ per index point (docs/exchange-rules.md). */
const INDEX_MULTIPLIERS: Record<string, number> = { TXF: 200, MXF: 50, TMF: 10, EXF: 4000, FXF: 1000, TXO: 50 };
/** Shares per stock futures or stock option contract. */
export const STOCK_CONTRACT_SHARES = 2000;
/** Units per ETF futures or ETF option contract. */
export const ETF_CONTRACT_UNITS = 10_000;

/**
 * NT$ per point of an index product, or shares (units) per contract of a stock (ETF) product. Stock and ETF
 * roots are many; the spec kind tells them apart. A contract's own `multiplier` wins when it is at hand (mini
 * stock futures are 100 shares).
 */
export function multiplierOf(root: string, specKind?: FuturesSpecKind | OptionSpecKind): number {
  const index = INDEX_MULTIPLIERS[productFamily(root)];
  if (index !== undefined) return index;
  if (specKind === 'stock_fut' || specKind === 'stock_opt') return STOCK_CONTRACT_SHARES;
  if (specKind === 'etf_fut' || specKind === 'etf_opt') return ETF_CONTRACT_UNITS;
  throw new RangeError(`no multiplier known for root ${root}; pass its spec kind or use the contract's multiplier`);
}

// ---------------------------------------------------------------------------------------------------------------
// Futures and options: fees and taxes

/** Futures transaction tax: 0.002% of contract value per side (十萬分之二). */
export const FUTURES_TAX_RATE = 0.00002;
/** Options transaction tax: 0.1% of premium value per side (千分之一). */
export const OPTIONS_TAX_RATE = 0.001;

// Exchange and clearing fees plus commission, NT$ per contract per side. The reference gives only a retail range
// (NT$20-60 for TX); these flat amounts are the simulated broker's schedule, scaled by contract size.
const FEE_PER_CONTRACT: Record<string, number> = { TXF: 60, MXF: 30, TMF: 15, EXF: 60, FXF: 60, TXO: 25 };
const STOCK_FUTURES_FEE = 30;
const STOCK_OPTIONS_FEE = 25;

/** Fee of trading `quantity` contracts of a product, one side. */
export function futuresFee(root: string, quantity: number, securityType: 'FUT' | 'OPT' = 'FUT'): number {
  const perContract =
    FEE_PER_CONTRACT[productFamily(root)] ?? (securityType === 'OPT' ? STOCK_OPTIONS_FEE : STOCK_FUTURES_FEE);
  return perContract * quantity;
}

export interface DerivativeTrade {
  securityType: 'FUT' | 'OPT';
  /** Futures price or option premium, in points (NT$ for stock products). */
  price: number;
  multiplier: number;
  quantity: number;
}

/** Value of a trade: contract value for futures, premium value for options. */
export const tradeValue = (trade: DerivativeTrade): number => trade.price * trade.multiplier * trade.quantity;

/** Transaction tax of one side of a trade, rounded half up to whole NT$ on the trade's value. */
export function futuresTax(trade: DerivativeTrade): number {
  const perHundredThousand = trade.securityType === 'FUT' ? 2 : 100;
  return Math.round((cents(tradeValue(trade)) * perHundredThousand) / 10_000_000 + 1e-9);
}

/** Fee and tax of one side of a futures or options trade. */
export function futuresCost(trade: DerivativeTrade & { root: string }): TradeCosts {
  return { fee: futuresFee(trade.root, trade.quantity, trade.securityType), tax: futuresTax(trade) };
}

// ---------------------------------------------------------------------------------------------------------------
// Futures and options: margins

export interface MarginRequirement {
  initial: number;
  maintenance: number;
}

/** TAIFEX minimum margins effective 2025-11-04 (docs/exchange-rules.md), NT$ per contract. */
const INDEX_FUTURES_MARGINS: Record<string, MarginRequirement> = {
  TXF: { initial: 338_000, maintenance: 259_000 },
  MXF: { initial: 84_500, maintenance: 64_750 },
  TMF: { initial: 16_900, maintenance: 12_950 },
};

// TXO A (risk) and B (minimum) values effective 2025-11-04. The reference gives the initial values only; the
// maintenance values keep TAIFEX's maintenance:initial ratio of 1.035:1.35 (the same as TX, 259,000:338,000),
// rounded to NT$1,000.
export const TXO_MARGIN_VALUES: { A: MarginRequirement; B: MarginRequirement } = {
  A: { initial: 86_000, maintenance: 66_000 },
  B: { initial: 43_000, maintenance: 33_000 },
};

/** Stock and ETF futures margins: percentages of contract value by the product's risk tier. */
const STOCK_FUTURES_TIERS: readonly MarginRequirement[] = [
  { initial: 0.135, maintenance: 0.1035 },
  { initial: 0.162, maintenance: 0.1242 },
  { initial: 0.2025, maintenance: 0.1553 },
];
export type StockFuturesTier = 1 | 2 | 3;

export interface FuturesMarginQuery {
  securityType: 'FUT';
  root: string;
  /** The futures price; needed for stock and ETF futures, whose margin is a share of contract value. */
  price?: number | undefined;
  multiplier?: number | undefined;
  specKind?: FuturesSpecKind | undefined;
  tier?: StockFuturesTier | undefined;
}

export interface OptionMarginQuery {
  securityType: 'OPT';
  /** A long option pays its premium in full; a short option posts margin. */
  side: 'long' | 'short';
  root: string;
  right: OptionRight;
  strike: number;
  premium: number;
  /** The underlying index level. */
  underlying: number;
  multiplier?: number | undefined;
}

export type MarginQuery = FuturesMarginQuery | OptionMarginQuery;

/** Initial and maintenance margin of one futures contract. */
export function futuresMargin(query: Omit<FuturesMarginQuery, 'securityType'>): MarginRequirement {
  const index = INDEX_FUTURES_MARGINS[productFamily(query.root)];
  if (index !== undefined) return index;
  if (query.price === undefined) {
    throw new RangeError(`no fixed margin for ${query.root}; a stock futures margin needs the price`);
  }
  const value = query.price * (query.multiplier ?? multiplierOf(query.root, query.specKind ?? 'stock_fut'));
  const tier = STOCK_FUTURES_TIERS[(query.tier ?? 1) - 1]!;
  return { initial: Math.ceil(value * tier.initial - 1e-9), maintenance: Math.ceil(value * tier.maintenance - 1e-9) };
}

/** How far an option is out of the money, in points (0 in or at the money). */
export const outOfTheMoney = (right: OptionRight, strike: number, underlying: number): number =>
  Math.max(0, right === 'C' ? strike - underlying : underlying - strike);

/**
 * Margin of one short TXO contract (TAIFEX): premium value + max(A - out-of-the-money value, B). A long option
 * needs its premium value and has no maintenance margin. Only the TXO family has A/B values here.
 */
export function optionMargin(query: Omit<OptionMarginQuery, 'securityType'>): MarginRequirement {
  const multiplier = query.multiplier ?? multiplierOf(query.root, 'index_opt');
  const premiumValue = Math.round(query.premium * multiplier);
  if (query.side === 'long') return { initial: premiumValue, maintenance: 0 };
  if (productFamily(query.root) !== 'TXO') {
    throw new RangeError(`no A/B margin values for option root ${query.root}`);
  }
  const otmValue = outOfTheMoney(query.right, query.strike, query.underlying) * multiplier;
  const level = (a: number, b: number) => premiumValue + Math.max(a - otmValue, b);
  const { A, B } = TXO_MARGIN_VALUES;
  return { initial: level(A.initial, B.initial), maintenance: level(A.maintenance, B.maintenance) };
}

/** Margin of one contract of a futures or option position. */
export function marginFor(query: MarginQuery): MarginRequirement {
  if (query.securityType === 'FUT') return futuresMargin(query);
  return optionMargin(query);
}
