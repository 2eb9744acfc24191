// Exchange and broker rules an order must pass, as pure checks. Each rule answers null when the order passes and
// otherwise the violation with the Shioaji message for it (docs/shioaji-model.md, docs/exchange-rules.md).
// Where the references show no message, the message is English and names the rule and the allowed values.

import type { ComboType, DayTrade, Exchange, SecurityType } from './contracts.js';
import { comboLegsStillTrading, contractStillTrading } from './expiry-rules.js';
import { stockFee } from './fees.js';
import {
  insufficientSharesMessage,
  OP_CODE_COMBO_CONDITION,
  OP_CODE_MARKET_ROD,
  OP_CODE_REJECTED,
  SHIOAJI_MESSAGES,
} from './order-messages.js';
import {
  BOARD_LOT_SHARES,
  type ComboOrderRequest,
  type FuturesOrderRequest,
  isOddLot,
  orderShares,
  type PriceType,
  type StockOrderRequest,
} from './orders.js';
import { taifexClosedOrderTypes } from './taifex-session-rules.js';
import { isOnTickGrid, type TickTable } from './ticks.js';
import { blockTradeUnsupported, emergingUnsupported, sblShortUnsupported } from './unsupported-orders.js';

export { blockTradeUnsupported, emergingUnsupported, sblShortUnsupported };

/** Where the market of an instrument is in its day; the exchange maps its clock to one of these. */
export type SessionPhase = 'pre-open' | 'continuous' | 'closing-auction' | 'after-hours' | 'closed';

export interface OrderViolation {
  /** The rule's function name, e.g. 'priceWithinLimits'. */
  rule: string;
  /** op_code of the failed operation in the order event. */
  opCode: string;
  /** status.msg of the Failed trade and op_msg of the event. */
  message: string;
}

export type OrderRule<C> = (ctx: C) => OrderViolation | null;

/** Most lots one board-lot or fixed-price order may carry (TWSE and TPEx). */
export const MAX_LOTS_PER_ORDER = 499;
/** Odd lots are 1 to 999 shares. */
export const MAX_ODD_LOT_SHARES = 999;
/**
 * Bounds of what can be an order at all, beyond every exchange's rules: no listed instrument's price (nor a combo's
 * net price) comes near MAX_ORDER_PRICE, and no exchange takes MAX_ORDER_QUANTITY lots, shares or contracts in one
 * order. The API refuses values past them as malformed (422); values within them that break an exchange's rule are
 * the rule's Failed trade.
 */
export const MAX_ORDER_PRICE = 1_000_000;
export const MAX_ORDER_QUANTITY = 1_000_000;

export const violation = (rule: string, message: string, opCode = OP_CODE_REJECTED): OrderViolation => ({
  rule,
  opCode,
  message,
});

const nt = (amount: number): string => `NT$${amount.toLocaleString('en-US')}`;
const samePrice = (a: number, b: number): boolean => Math.round(a * 1000) === Math.round(b * 1000);
export const isWholeAtLeastOne = (n: number): boolean => Number.isInteger(n) && n >= 1;

export function firstOf<C>(rules: readonly OrderRule<C>[], ctx: C): OrderViolation | null {
  for (const rule of rules) {
    const found = rule(ctx);
    if (found) return found;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Contexts

/** The price facts of an instrument that every price rule reads. */
export interface PriceFacts {
  ticks: TickTable;
  limitUp: number;
  limitDown: number;
}

export interface InstrumentFacts extends PriceFacts {
  securityType: SecurityType;
  exchange: Exchange;
  code: string;
  referencePrice: number;
}

export interface StockFacts extends InstrumentFacts {
  dayTrade: DayTrade;
  /** The day's close, the only price of a Fixing order; null until it is known. */
  closePrice: number | null;
  /** Percent of a margin purchase the broker lends (60 on TWSE, 50 on TPEx); 0 when not marginable. */
  marginLoanRatio: number;
  /** Percent of a short sale's value posted as margin (90). */
  shortMarginRatio: number;
  marginShortable: boolean;
  belowReferenceShortable: boolean;
  /** Lots left today on the stock's margin-purchase and short-sale quotas. */
  marginQuotaLots: number;
  shortQuotaLots: number;
}

export interface DerivativeFacts extends InstrumentFacts {
  multiplier: number;
  /** Initial margin to open one contract: fees.marginFor for futures and short options. */
  marginPerContract: number;
  /** Set once the contract's last trading day stopped trading (13:30): the day it expired. */
  expiredOn?: string | undefined;
}

export interface StockAccountFacts {
  /** Buying power for stock orders, NT$. */
  availableCash: number;
  /**
   * Shares the account may sell or cover now, per kind of position, net of its working orders (and cash of the shares
   * reserved today); reserved: the shares of the Cash holding set aside by reserve_stock, for the message.
   */
  holdings: { cash: number; margin: number; short: number; reserved?: number };
}

export interface FuturesAccountFacts {
  /** Margin available for new orders, NT$. */
  availableMargin: number;
  /** Contracts held on the other side of this order, which Auto and Cover orders close before opening. */
  coverableContracts: number;
}

export interface StockOrderContext {
  market: 'stock';
  order: StockOrderRequest;
  instrument: StockFacts;
  phase: SessionPhase;
  account: StockAccountFacts;
}

export interface FuturesOrderContext {
  market: 'futures';
  order: FuturesOrderRequest;
  instrument: DerivativeFacts;
  phase: SessionPhase;
  account: FuturesAccountFacts;
}

export interface ComboOrderContext {
  market: 'combo';
  order: ComboOrderRequest;
  comboType: ComboType;
  /** Futures time spreads or option combos. */
  securityType: 'FUT' | 'OPT';
  phase: SessionPhase;
  expiredLeg?: { code: string; day: string } | undefined; // a leg that stopped trading at expiry, and its day
}

export type PlaceOrderContext = StockOrderContext | FuturesOrderContext | ComboOrderContext;

interface PriceContext {
  order: { price_type: PriceType; price: number };
  instrument: PriceFacts;
}

// ---------------------------------------------------------------------------------------------------------------
// Price rules (LMT orders; MKT and MKP carry no price)

/** A limit order with a usable price; the grid and the limits say nothing of a price that is not one. */
const isPricedLimit = ({ price_type, price }: PriceContext['order']): boolean =>
  price_type === 'LMT' && Number.isFinite(price) && price > 0;

export function limitPriceValid(ctx: PriceContext): OrderViolation | null {
  if (ctx.order.price_type !== 'LMT' || isPricedLimit(ctx.order)) return null;
  return violation('limitPriceValid', SHIOAJI_MESSAGES.priceInvalid);
}

export function priceOnTickGrid(ctx: PriceContext): OrderViolation | null {
  if (!isPricedLimit(ctx.order) || isOnTickGrid(ctx.instrument.ticks, ctx.order.price)) return null;
  return violation('priceOnTickGrid', SHIOAJI_MESSAGES.priceOffTick);
}

export function priceWithinLimits(ctx: PriceContext): OrderViolation | null {
  const { price } = ctx.order;
  const { limitUp, limitDown } = ctx.instrument;
  if (!isPricedLimit(ctx.order) || (price >= limitDown && price <= limitUp)) return null;
  return violation('priceWithinLimits', SHIOAJI_MESSAGES.priceOutsideLimits);
}

export const PRICE_RULES = [limitPriceValid, priceOnTickGrid, priceWithinLimits] as const;

// ---------------------------------------------------------------------------------------------------------------
// Stock rules

export function stockQuantity(ctx: StockOrderContext): OrderViolation | null {
  const { order_lot, quantity } = ctx.order;
  if (isOddLot(order_lot)) {
    if (isWholeAtLeastOne(quantity) && quantity <= MAX_ODD_LOT_SHARES) return null;
    return violation(
      'stockQuantity',
      `odd-lot orders (${order_lot}) count shares: quantity must be 1 to ${MAX_ODD_LOT_SHARES}, got ${quantity}`,
    );
  }
  const max = order_lot === 'BlockTrade' ? Number.POSITIVE_INFINITY : MAX_LOTS_PER_ORDER;
  if (isWholeAtLeastOne(quantity) && quantity <= max) return null;
  return violation(
    'stockQuantity',
    `${order_lot} orders count lots of 1,000 shares: quantity must be 1 to ${MAX_LOTS_PER_ORDER} lots per order, got ${quantity}`,
  );
}

/** Odd lots trade as limit ROD orders in cash only (TWSE odd-lot rules). */
export function oddLotConditions(ctx: StockOrderContext): OrderViolation | null {
  const { order_lot, price_type, order_type, order_cond } = ctx.order;
  if (!isOddLot(order_lot)) return null;
  if (price_type !== 'LMT' || order_type !== 'ROD') {
    return violation(
      'oddLotConditions',
      `odd-lot orders (${order_lot}) accept only price_type LMT with order_type ROD, got ${price_type} ${order_type}`,
    );
  }
  if (order_cond !== 'Cash') {
    return violation(
      'oddLotConditions',
      `odd-lot orders (${order_lot}) accept only order_cond Cash, got ${order_cond}`,
    );
  }
  return null;
}

/** The after-hours fixed-price session matches at the day's close only. */
export function fixingAtClose(ctx: StockOrderContext): OrderViolation | null {
  const { order_lot, price_type, order_type, price } = ctx.order;
  if (order_lot !== 'Fixing') return null;
  const close = ctx.instrument.closePrice;
  // Fixing orders meet continuous trading only on the always-open clock, whose day never closes.
  if (close === null && ctx.phase === 'continuous') {
    return violation(
      'fixingAtClose',
      'Fixing orders trade at the close, and the always-open clock never closes; run the simulator with ' +
        'SJ_SIM_CLOCK=exchange to trade them (14:00-14:30, matched at 14:30)',
    );
  }
  if (close === null) {
    return violation(
      'fixingAtClose',
      "Fixing orders trade at the day's close price, which is not known yet; place them after the close (14:00-14:30)",
    );
  }
  if (price_type === 'LMT' && order_type === 'ROD' && samePrice(price, close)) return null;
  return violation(
    'fixingAtClose',
    `Fixing orders trade at the close price ${close} with price_type LMT and order_type ROD, got ${price_type} ${order_type} at ${price}`,
  );
}

/** TWSE and TPEx take market, IOC and FOK orders only in continuous trading. */
export function stockAuctionOrderTypes(ctx: StockOrderContext): OrderViolation | null {
  const { price_type, order_type } = ctx.order;
  if (ctx.phase === 'continuous' || (price_type === 'LMT' && order_type === 'ROD')) return null;
  return violation('stockAuctionOrderTypes', SHIOAJI_MESSAGES.auctionMarketOrder);
}

/** Sell-first day trading (daytrade_short) needs a stock whose day_trade is Yes; OnlyBuy allows buy-first only. */
export function dayTradeEligible(ctx: StockOrderContext): OrderViolation | null {
  const { action, daytrade_short } = ctx.order;
  if (!daytrade_short || action !== 'Sell' || ctx.instrument.dayTrade === 'Yes') return null;
  return violation('dayTradeEligible', SHIOAJI_MESSAGES.notDayTradable);
}

const lotsOf = (ctx: StockOrderContext): number =>
  Math.ceil(orderShares(ctx.order.order_lot, ctx.order.quantity) / BOARD_LOT_SHARES);

export function marginPurchaseAllowed(ctx: StockOrderContext): OrderViolation | null {
  const { order_cond, action } = ctx.order;
  if (order_cond !== 'MarginTrading' || action !== 'Buy') return null;
  const { code, marginLoanRatio, marginQuotaLots } = ctx.instrument;
  if (marginLoanRatio <= 0) {
    return violation('marginPurchaseAllowed', `margin trading (MarginTrading) is not available for ${code}`);
  }
  const lots = lotsOf(ctx);
  if (lots <= marginQuotaLots) return null;
  return violation(
    'marginPurchaseAllowed',
    `margin purchase quota exceeded for ${code}: ${lots} lots ordered, ${marginQuotaLots} lots left`,
  );
}

export function shortSaleAllowed(ctx: StockOrderContext): OrderViolation | null {
  const { order_cond, action } = ctx.order;
  if (order_cond !== 'ShortSelling' || action !== 'Sell') return null;
  const { code, marginShortable, shortQuotaLots } = ctx.instrument;
  if (!marginShortable) {
    return violation('shortSaleAllowed', `short selling (ShortSelling) is not available for ${code}`);
  }
  const lots = lotsOf(ctx);
  if (lots <= shortQuotaLots) return null;
  return violation(
    'shortSaleAllowed',
    `short-selling quota exceeded for ${code}: ${lots} lots ordered, ${shortQuotaLots} lots left`,
  );
}

/** Short sales below the reference price (平盤下) only where the stock allows them. */
export function shortSaleAtOrAboveReference(ctx: StockOrderContext): OrderViolation | null {
  const { order_cond, action, price_type, price } = ctx.order;
  const { code, referencePrice, belowReferenceShortable } = ctx.instrument;
  if (order_cond !== 'ShortSelling' || action !== 'Sell' || belowReferenceShortable) return null;
  if (price_type !== 'LMT' || price >= referencePrice) return null;
  return violation(
    'shortSaleAtOrAboveReference',
    `short selling ${code} below the reference price ${referencePrice} is not allowed; price must be ${referencePrice} or higher`,
  );
}

/** A sell (or a short cover) may close no more shares than the account holds of that kind. */
export function sellWithinHoldings(ctx: StockOrderContext): OrderViolation | null {
  const { action, order_cond, daytrade_short, order_lot, quantity } = ctx.order;
  const shares = orderShares(order_lot, quantity);
  const { holdings } = ctx.account;
  if (action === 'Buy') {
    if (order_cond !== 'ShortSelling' || shares <= holdings.short) return null;
    return violation(
      'sellWithinHoldings',
      `short cover of ${shares} shares exceeds the short position of ${holdings.short} shares`,
    );
  }
  if (order_cond === 'ShortSelling' || daytrade_short) return null;
  if (order_cond === 'MarginTrading') {
    if (shares <= holdings.margin) return null;
    return violation(
      'sellWithinHoldings',
      `margin sell of ${shares} shares exceeds the margin position of ${holdings.margin} shares`,
    );
  }
  if (shares <= holdings.cash) return null;
  const reserved = holdings.reserved ?? 0;
  const why = reserved > 0 ? `; ${reserved} shares are reserved today (reserve_stock) and may not be sold` : '';
  return violation('sellWithinHoldings', `${insufficientSharesMessage(holdings.cash)}${why}`);
}

/**
 * Cash an order ties up: a buy's value plus fee (only the own part of a margin purchase, the loan being whole
 * NT$1,000s), a short sale's margin (rounded up to NT$100). Market orders are valued at the limit-up price.
 */
export function stockOrderCashNeed(
  order: StockOrderRequest,
  instrument: Pick<StockFacts, 'limitUp' | 'marginLoanRatio' | 'shortMarginRatio'>,
): number {
  const price = order.price_type === 'LMT' ? order.price : instrument.limitUp;
  const value = Math.round(price * orderShares(order.order_lot, order.quantity) * 100) / 100;
  const fee = stockFee(value, { oddLot: isOddLot(order.order_lot) });
  if (order.action === 'Sell') {
    if (order.order_cond !== 'ShortSelling') return 0;
    return Math.ceil((value * instrument.shortMarginRatio) / 100 / 100 - 1e-9) * 100;
  }
  if (order.order_cond === 'ShortSelling') return 0;
  if (order.order_cond === 'MarginTrading') {
    const loan = Math.floor((value * instrument.marginLoanRatio) / 100 / 1000 + 1e-9) * 1000;
    return Math.ceil(value - loan - 1e-9) + fee;
  }
  return Math.ceil(value - 1e-9) + fee;
}

export function cashSufficient(ctx: StockOrderContext): OrderViolation | null {
  const need = stockOrderCashNeed(ctx.order, ctx.instrument);
  const available = ctx.account.availableCash;
  if (need <= available) return null;
  return violation('cashSufficient', `insufficient cash: the order needs ${nt(need)}, available ${nt(available)}`);
}

export const STOCK_RULES: readonly OrderRule<StockOrderContext>[] = [
  blockTradeUnsupported,
  emergingUnsupported,
  sblShortUnsupported,
  stockQuantity,
  oddLotConditions,
  fixingAtClose,
  stockAuctionOrderTypes,
  ...PRICE_RULES,
  dayTradeEligible,
  marginPurchaseAllowed,
  shortSaleAllowed,
  shortSaleAtOrAboveReference,
  sellWithinHoldings,
  cashSufficient,
];

// ---------------------------------------------------------------------------------------------------------------
// Futures and options rules

export function contractQuantity(ctx: { order: { quantity: number } }): OrderViolation | null {
  const { quantity } = ctx.order;
  if (isWholeAtLeastOne(quantity)) return null;
  return violation(
    'contractQuantity',
    `quantity counts contracts: it must be a whole number of at least 1, got ${quantity}`,
  );
}

/** TAIFEX: a market order must be IOC or FOK (op_code 9938). */
export function taifexMarketNotRod(ctx: {
  order: Pick<FuturesOrderRequest, 'price_type' | 'order_type'>;
}): OrderViolation | null {
  if (ctx.order.price_type !== 'MKT' || ctx.order.order_type !== 'ROD') return null;
  return violation('taifexMarketNotRod', SHIOAJI_MESSAGES.marketRod, OP_CODE_MARKET_ROD);
}

/** TAIFEX takes no FOK and no MKP (MWP) orders before the open; reservations outside hours face the same rule. */
export function taifexPreOpenOrderTypes(ctx: FuturesOrderContext): OrderViolation | null {
  const { price_type, order_type } = ctx.order;
  if (ctx.phase === 'continuous' || (price_type !== 'MKP' && order_type !== 'FOK')) return null;
  return violation(
    'taifexPreOpenOrderTypes',
    `FOK and MKP orders are not accepted before the TAIFEX open (pre-open auction); use LMT or MKT with ROD or IOC, got ${price_type} ${order_type}`,
  );
}

export function coverWithinPosition(ctx: FuturesOrderContext): OrderViolation | null {
  const { octype, quantity } = ctx.order;
  const held = ctx.account.coverableContracts;
  if (octype !== 'Cover' || quantity <= held) return null;
  return violation(
    'coverWithinPosition',
    `Cover closes at most the ${held} contracts held on the other side, got quantity ${quantity}`,
  );
}

/**
 * Margin an order ties up: contracts it opens times the initial margin (Auto, Cover and DayTrade close opposite
 * contracts first; New always opens). An option buy pays its premium instead, valued at limit-up for MKT and MKP.
 */
export function futuresOrderMarginNeed(ctx: FuturesOrderContext): number {
  const { order, instrument, account } = ctx;
  if (instrument.securityType === 'OPT' && order.action === 'Buy') {
    const premium = order.price_type === 'LMT' ? order.price : instrument.limitUp;
    return Math.round(premium * instrument.multiplier * order.quantity);
  }
  const closing = order.octype === 'New' ? 0 : Math.min(order.quantity, account.coverableContracts);
  return (order.quantity - closing) * instrument.marginPerContract;
}

export function marginSufficient(ctx: FuturesOrderContext): OrderViolation | null {
  const need = futuresOrderMarginNeed(ctx);
  const available = ctx.account.availableMargin;
  if (need <= available) return null;
  return violation('marginSufficient', `insufficient margin: the order needs ${nt(need)}, available ${nt(available)}`);
}

export const FUTURES_RULES: readonly OrderRule<FuturesOrderContext>[] = [
  contractStillTrading,
  contractQuantity,
  taifexMarketNotRod,
  taifexClosedOrderTypes,
  taifexPreOpenOrderTypes,
  ...PRICE_RULES,
  coverWithinPosition,
  marginSufficient,
];

// ---------------------------------------------------------------------------------------------------------------
// Combo rules (docs/exchange-rules.md)

export function comboDuringContinuous(ctx: ComboOrderContext): OrderViolation | null {
  if (ctx.phase === 'continuous') return null;
  return violation(
    'comboDuringContinuous',
    'combo orders are accepted only in continuous trading, not before the open (pre-open auction)',
  );
}

/** Standard option combos rest in no book: LMT with IOC or FOK only (ROD is op_code 9927). */
export function optionComboConditions(ctx: ComboOrderContext): OrderViolation | null {
  const { price_type, order_type } = ctx.order;
  if (ctx.securityType !== 'OPT' || (price_type === 'LMT' && order_type !== 'ROD')) return null;
  return violation('optionComboConditions', SHIOAJI_MESSAGES.comboCondition, OP_CODE_COMBO_CONDITION);
}

export const COMBO_RULES: readonly OrderRule<ComboOrderContext>[] = [
  comboLegsStillTrading,
  contractQuantity,
  taifexMarketNotRod,
  comboDuringContinuous,
  optionComboConditions,
];
