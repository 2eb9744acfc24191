// Books futures and options deals: one net position per code; a deal against the position closes its oldest lots
// first, whatever its oc_type, and the rest opens. Everything counts at once (no settlement delay).

import { futuresCost } from '../../../domain/fees.js';
import type { FutureProfitDetail } from '../../../domain/portfolio.js';
import type { AccountState, FutureLot, FuturePositionState, FutureRealized, LedgerCashEntry } from './account-state.js';
import { type BookedFill, lotOrigin } from './fills.js';
import { Apportioner, directionSign, proportional, round2, wholeDollars } from './money.js';

type DerivativeTerms = NonNullable<BookedFill['derivative']>;

interface DealCosts {
  fee: Apportioner;
  tax: Apportioner;
}

interface Closing {
  quantity: number;
  gross: number;
  pnl: number;
  fee: number;
  tax: number;
  entryValue: number;
  coverValue: number;
  buyCost: number;
  sellCost: number;
  rows: FutureProfitDetail[];
}

function closeLot(c: Closing, position: FuturePositionState, lot: FutureLot, fill: BookedFill, costs: DealCosts) {
  const quantity = Math.min(lot.quantity, fill.quantity - c.quantity);
  const entryFee = proportional(lot.fee, quantity, lot.quantity);
  const entryTax = proportional(lot.tax, quantity, lot.quantity);
  lot.fee -= entryFee;
  lot.tax -= entryTax;
  lot.quantity -= quantity;
  const coverFee = costs.fee.take(quantity);
  const coverTax = costs.tax.take(quantity);
  const points = (fill.price - lot.price) * directionSign(position.direction);
  const gross = wholeDollars(points * quantity * position.multiplier);
  const pnl = gross - entryFee - entryTax - coverFee - coverTax;
  c.quantity += quantity;
  c.gross += gross;
  c.pnl += pnl;
  c.fee += entryFee + coverFee;
  c.tax += entryTax + coverTax;
  c.entryValue += lot.price * quantity * position.multiplier;
  c.coverValue += fill.price * quantity * position.multiplier;
  const entryCosts = entryFee + entryTax;
  const coverCosts = coverFee + coverTax;
  c.buyCost += position.direction === 'Buy' ? entryCosts : coverCosts;
  c.sellCost += position.direction === 'Buy' ? coverCosts : entryCosts;
  c.rows.push({
    date: fill.day,
    code: position.code,
    quantity,
    dseq: fill.ordno,
    fee: entryFee + coverFee,
    tax: entryTax + coverTax,
    currency: 'TWD',
    direction: position.direction,
    entry_date: lot.day,
    entry_quantity: lot.entryQuantity,
    entry_seqno: lot.seqno,
    entry_price: lot.price,
    cover_price: fill.price,
    pnl,
  });
}

function closePosition(account: AccountState, position: FuturePositionState, fill: BookedFill, costs: DealCosts) {
  const c: Closing = {
    quantity: 0,
    gross: 0,
    pnl: 0,
    fee: 0,
    tax: 0,
    entryValue: 0,
    coverValue: 0,
    buyCost: 0,
    sellCost: 0,
    rows: [],
  };
  for (const lot of position.lots) {
    if (c.quantity === fill.quantity) break;
    closeLot(c, position, lot, fill, costs);
  }
  position.lots = position.lots.filter((lot) => lot.quantity > 0);
  if (position.lots.length === 0) account.futures.delete(position.code);
  const realized: FutureRealized = {
    record: {
      id: account.nextProfitLossId++,
      code: position.code,
      quantity: c.quantity,
      pnl: c.pnl,
      date: fill.day,
      entry_price: round2(c.entryValue / (c.quantity * position.multiplier)),
      cover_price: fill.price,
      tax: c.tax,
      fee: c.fee,
      direction: position.direction,
    },
    details: c.rows,
    securityType: position.securityType,
    multiplier: position.multiplier,
    gross: c.gross,
    entryValue: wholeDollars(c.entryValue),
    coverValue: wholeDollars(c.coverValue),
    buyCost: c.buyCost,
    sellCost: c.sellCost,
  };
  account.futureRealized.push(realized);
  return realized;
}

function openLot(account: AccountState, fill: BookedFill, terms: DerivativeTerms, quantity: number, costs: DealCosts) {
  let position = account.futures.get(fill.code);
  if (!position) {
    position = {
      id: account.nextPositionId++,
      code: fill.code,
      direction: fill.action,
      securityType: terms.securityType,
      root: terms.root,
      multiplier: terms.multiplier,
      expiry: terms.expiry,
      lots: [],
    };
    account.futures.set(fill.code, position);
  }
  position.expiry ??= terms.expiry;
  position.lots.push({
    ...lotOrigin(fill),
    quantity,
    entryQuantity: quantity,
    fee: costs.fee.take(quantity),
    tax: costs.tax.take(quantity),
  });
}

export const DERIVATIVE_CASH_REASONS = {
  fee: 'futures-fee',
  tax: 'futures-tax',
  premium: 'option-premium',
  realized: 'futures-realized',
} as const;

export interface DerivativeBooking {
  cash: LedgerCashEntry[];
  /** The futures position key (the code), touched by every deal. */
  touched: string[];
}

/**
 * Cash-settles a position whose contract stopped trading at expiry: futures close at the final settlement price,
 * options at their intrinsic value (exercised automatically in the money, long or short; worthless out of it). A
 * settlement pays the fee and tax of a closing deal on the settlement value (none for an option that expires
 * worthless); the margin the position needed goes with it.
 */
export function settleAtExpiry(account: AccountState, fill: BookedFill): DerivativeBooking {
  const position = account.futures.get(fill.code);
  if (!position || position.direction === fill.action) {
    throw new RangeError(`account ${account.key} holds no position in ${fill.code} to settle`);
  }
  const { price, quantity } = fill;
  const { securityType, root, multiplier } = position;
  const whole = price > 0 ? futuresCost({ securityType, root, multiplier, price, quantity }) : { fee: 0, tax: 0 };
  const costs: DealCosts = { fee: new Apportioner(whole.fee, quantity), tax: new Apportioner(whole.tax, quantity) };
  const realized = closePosition(account, position, fill, costs);
  const entry = (reason: string, amount: number): LedgerCashEntry => ({
    accountKey: account.key,
    at: fill.at,
    amount,
    reason,
    ref: fill.orderId,
    settleDate: null,
    day: fill.day,
  });
  const value = wholeDollars(price * quantity * multiplier) * -directionSign(fill.action);
  const cash = [
    entry(DERIVATIVE_CASH_REASONS.fee, -whole.fee),
    entry(DERIVATIVE_CASH_REASONS.tax, -whole.tax),
    entry(DERIVATIVE_CASH_REASONS.premium, securityType === 'OPT' ? value : 0),
    entry(DERIVATIVE_CASH_REASONS.realized, securityType === 'FUT' ? realized.gross : 0),
  ].filter((e) => e.amount !== 0);
  return { cash, touched: [fill.code] };
}

/** Books one futures or options deal into the account. */
export function bookDerivativeFill(account: AccountState, fill: BookedFill, terms: DerivativeTerms): DerivativeBooking {
  const whole = futuresCost({ ...terms, price: fill.price, quantity: fill.quantity });
  const costs: DealCosts = {
    fee: new Apportioner(whole.fee, fill.quantity),
    tax: new Apportioner(whole.tax, fill.quantity),
  };
  const held = account.futures.get(fill.code);
  let closed = 0;
  let realizedGross = 0;
  if (held && held.direction !== fill.action) {
    const realized = closePosition(account, held, fill, costs);
    closed = realized.record.quantity;
    realizedGross = realized.gross;
  }
  if (fill.quantity > closed) openLot(account, fill, terms, fill.quantity - closed, costs);

  const entry = (reason: string, amount: number): LedgerCashEntry => ({
    accountKey: account.key,
    at: fill.at,
    amount,
    reason,
    ref: `${fill.orderId}:${fill.dealSeq}`,
    settleDate: null,
    day: fill.day,
  });
  const premium = wholeDollars(fill.price * fill.quantity * terms.multiplier) * -directionSign(fill.action);
  const cash = [
    entry(DERIVATIVE_CASH_REASONS.fee, -whole.fee),
    entry(DERIVATIVE_CASH_REASONS.tax, -whole.tax),
    entry(DERIVATIVE_CASH_REASONS.premium, terms.securityType === 'OPT' ? premium : 0),
    entry(DERIVATIVE_CASH_REASONS.realized, terms.securityType === 'FUT' ? realizedGross : 0),
  ].filter((e) => e.amount !== 0);
  return { cash, touched: [fill.code] };
}
