// Closing stock lots: a deal takes its share of each lot's amounts, and a closing deal becomes a realized P&L record
// with one detail row per lot it closed and one for itself.

import { stockFee, stockTax } from '../../../domain/fees.js';
import { type Action, isOddLot, type StockOrderCond } from '../../../domain/orders.js';
import type { StockProfitDetail } from '../../../domain/portfolio.js';
import type { AccountState, StockLot, StockPositionState, StockRealized } from './account-state.js';
import type { BookedFill } from './fills.js';
import { Apportioner, percentOf, proportional, stockDealValue } from './money.js';

export type StockTerms = NonNullable<BookedFill['stock']>;

/** The lots a deal closes, in the order it closes them. */
export function closingOrder(position: StockPositionState, day: string, sameDayFirst: boolean): StockLot[] {
  if (!sameDayFirst) return [...position.lots];
  return [...position.lots.filter((lot) => lot.day === day), ...position.lots.filter((lot) => lot.day !== day)];
}

/** The amounts of a lot that some of its shares carry. */
type LotPart = Pick<StockLot, 'shares' | 'value' | 'fee' | 'tax' | 'loan' | 'shortMargin' | 'collateral' | 'borrowFee'>;

/** The part of a lot's amounts that `shares` of it carry; the lot keeps the rest. */
function takeFromLot(lot: StockLot, shares: number): LotPart {
  const take = (amount: number) => proportional(amount, shares, lot.shares);
  const part = {
    shares,
    value: take(lot.value),
    fee: take(lot.fee),
    tax: take(lot.tax),
    loan: take(lot.loan),
    shortMargin: take(lot.shortMargin),
    collateral: take(lot.collateral),
    borrowFee: take(lot.borrowFee),
  };
  lot.shares -= shares;
  lot.value -= part.value;
  lot.fee -= part.fee;
  lot.tax -= part.tax;
  lot.loan -= part.loan;
  lot.shortMargin -= part.shortMargin;
  lot.collateral -= part.collateral;
  lot.borrowFee -= part.borrowFee;
  return part;
}

/** The deal's own value, fee and tax for a number of its shares. */
export interface DealPart {
  shares: number;
  value: number;
  fee: number;
  tax: number;
}

/** Money the opening side of a lot part paid (a long) or received (a short). */
const entryMoney = (part: LotPart, direction: Action): number =>
  direction === 'Buy' ? part.value + part.fee : part.value - part.fee - part.tax - part.borrowFee;

/** Money the closing side paid (a buy) or received (a sell). */
const closingMoney = (deal: DealPart, action: Action): number =>
  action === 'Buy' ? deal.value + deal.fee : deal.value - deal.fee - deal.tax;

/** Cash the closing of one lot part moves: the closing money, less the margin loan repaid, plus short deposits. */
function closingCash(cond: StockOrderCond, action: Action, lotPart: LotPart, deal: DealPart): number {
  if (cond === 'MarginTrading') return closingMoney(deal, action) - lotPart.loan;
  if (cond === 'ShortSelling') return lotPart.shortMargin + lotPart.collateral - closingMoney(deal, action);
  return action === 'Buy' ? -closingMoney(deal, action) : closingMoney(deal, action);
}

/**
 * One deal's value, fee and tax, handed out to the lots it closes and the lot it opens. The fee (with its minimum)
 * is the deal's; the tax is the deal's per rate: day-trade shares at the day-trade rate, the rest at the full rate.
 */
export class StockDeal {
  private readonly value: Apportioner;
  private readonly fee: Apportioner;
  private readonly dayTradeTax: Apportioner;
  private readonly fullTax: Apportioner;

  constructor(
    readonly fill: BookedFill,
    readonly terms: StockTerms,
    dayTradeShares: number,
  ) {
    const value = stockDealValue(fill.price, fill.quantity);
    this.value = new Apportioner(value, fill.quantity);
    this.fee = new Apportioner(stockFee(value, { oddLot: isOddLot(terms.lot) }), fill.quantity);
    const dayTradeValue = proportional(value, dayTradeShares, fill.quantity);
    const taxOf = (part: number, dayTrade: boolean) =>
      fill.action === 'Sell' ? stockTax(part, { kind: terms.taxKind, dayTrade }) : 0;
    this.dayTradeTax = new Apportioner(taxOf(dayTradeValue, true), dayTradeShares);
    this.fullTax = new Apportioner(taxOf(value - dayTradeValue, false), fill.quantity - dayTradeShares);
  }

  part(shares: number, dayTradeTax: boolean): DealPart {
    const value = this.value.take(shares);
    const fee = this.fee.take(shares);
    const tax = (dayTradeTax ? this.dayTradeTax : this.fullTax).take(shares);
    return { shares, value, fee, tax };
  }
}

interface Closing {
  shares: number;
  pnl: number;
  cost: number;
  cash: number;
  entryValue: number;
  coverValue: number;
  buyCost: number;
  sellCost: number;
  dayTradeShares: number;
  lotRows: StockProfitDetail[];
  deal: DealPart;
  returned: { loan: number; collateral: number; shortMargin: number };
}

function emptyClosing(): Closing {
  return {
    shares: 0,
    pnl: 0,
    cost: 0,
    cash: 0,
    entryValue: 0,
    coverValue: 0,
    buyCost: 0,
    sellCost: 0,
    dayTradeShares: 0,
    lotRows: [],
    deal: { shares: 0, value: 0, fee: 0, tax: 0 },
    returned: { loan: 0, collateral: 0, shortMargin: 0 },
  };
}

function closeLotPart(closing: Closing, position: StockPositionState, lot: StockLot, deal: StockDeal, shares: number) {
  const { fill, terms } = deal;
  const dayTrade = terms.cond === 'Cash' && lot.day === fill.day;
  const lotPart = takeFromLot(lot, shares);
  const dealPart = deal.part(shares, dayTrade);
  const opened = entryMoney(lotPart, position.direction);
  const closed = closingMoney(dealPart, fill.action);
  closing.shares += shares;
  closing.pnl += position.direction === 'Buy' ? closed - opened : opened - closed;
  closing.cost += lotPart.value + lotPart.fee;
  closing.cash += closingCash(terms.cond, fill.action, lotPart, dealPart);
  closing.entryValue += lotPart.value;
  closing.coverValue += dealPart.value;
  closing.buyCost += position.direction === 'Buy' ? opened : closed;
  closing.sellCost += position.direction === 'Buy' ? closed : opened;
  if (dayTrade) closing.dayTradeShares += shares;
  for (const field of ['shares', 'value', 'fee', 'tax'] as const) closing.deal[field] += dealPart[field];
  closing.returned.loan += lotPart.loan;
  closing.returned.collateral += lotPart.collateral;
  closing.returned.shortMargin += lotPart.shortMargin;
  closing.lotRows.push(lotRow(position, lot, lotPart, opened, dayTrade));
}

function lotRow(position: StockPositionState, lot: StockLot, part: LotPart, money: number, dayTrade: boolean) {
  return detailRow(position.code, position.cond, {
    date: lot.day,
    quantity: part.shares,
    dseq: lot.ordno,
    fee: part.fee,
    tax: part.tax,
    price: lot.price,
    cost: money,
    shortselling_fee: part.borrowFee,
    trade_type: dayTrade ? 'DayTrade' : 'Common',
  });
}

function detailRow(
  code: string,
  cond: StockOrderCond,
  fields: Pick<StockProfitDetail, 'date' | 'quantity' | 'dseq' | 'fee' | 'tax' | 'price' | 'cost' | 'trade_type'> &
    Partial<StockProfitDetail>,
): StockProfitDetail {
  return {
    code,
    currency: 'TWD',
    rep_margintrading_amt: 0,
    rep_collateral: 0,
    rep_margin: 0,
    shortselling_fee: 0,
    ex_dividend_amt: 0,
    interest: 0,
    cond,
    ...fields,
  };
}

function realizedOf(account: AccountState, position: StockPositionState, deal: StockDeal, c: Closing): StockRealized {
  const { fill } = deal;
  const closingRow = detailRow(position.code, position.cond, {
    date: fill.day,
    quantity: c.shares,
    dseq: fill.ordno,
    fee: c.deal.fee,
    tax: c.deal.tax,
    price: fill.price,
    cost: closingMoney(c.deal, fill.action),
    rep_margintrading_amt: c.returned.loan,
    rep_collateral: c.returned.collateral,
    rep_margin: c.returned.shortMargin,
    trade_type: c.dayTradeShares === c.shares ? 'DayTrade' : 'Common',
  });
  return {
    record: {
      id: account.nextProfitLossId++,
      code: fill.code,
      quantity: c.shares,
      pnl: c.pnl,
      date: fill.day,
      dseq: fill.ordno,
      price: fill.price,
      pr_ratio: percentOf(c.pnl, c.cost),
      cond: position.cond,
      seqno: fill.seqno,
    },
    details: [...c.lotRows, closingRow],
    direction: position.direction,
    entryValue: c.entryValue,
    coverValue: c.coverValue,
    buyCost: c.buyCost,
    sellCost: c.sellCost,
    cost: c.cost,
  };
}

/**
 * Closes as many of the position's shares as the deal has, in `order`, records the realized P&L of the deal and
 * returns the shares closed and the cash the closing moves. Drops the position when nothing is left of it.
 */
export function closeStockPosition(
  account: AccountState,
  key: string,
  position: StockPositionState,
  deal: StockDeal,
  order: StockLot[],
): { shares: number; cash: number } {
  const closing = emptyClosing();
  for (const lot of order) {
    const shares = Math.min(lot.shares, deal.fill.quantity - closing.shares);
    if (shares === 0) break;
    closeLotPart(closing, position, lot, deal, shares);
  }
  position.lots = position.lots.filter((lot) => lot.shares > 0);
  if (position.lots.length === 0) account.stocks.delete(key);
  account.stockRealized.push(realizedOf(account, position, deal, closing));
  return { shares: closing.shares, cash: closing.cash };
}
