// What the ledger keeps per account: cash entries, open lots grouped into positions, realized P&L records.

import type { StockTaxKind } from '../../../domain/fees.js';
import type { Action, StockOrderCond } from '../../../domain/orders.js';
import type {
  FutureProfitDetail,
  FutureProfitLoss,
  StockProfitDetail,
  StockProfitLoss,
} from '../../../domain/portfolio.js';
import type { SettledPosition } from '../../port.js';
import type { CashChange } from './fills.js';

export type LedgerAccountType = 'S' | 'F';

/** The deal that opened a lot. */
export interface LotOrigin {
  orderId: string;
  seqno: string;
  ordno: string;
  dealSeq: number;
  at: number;
  day: string;
  price: number;
}

/** Shares opened by one deal and still open. Money fields are what is left of the opening amounts, whole NT$. */
export interface StockLot extends LotOrigin {
  shares: number;
  entryShares: number;
  value: number;
  fee: number;
  /** Transaction tax paid when the lot was opened by a sell (a short). */
  tax: number;
  /** Margin loan (融資金額) of a MarginTrading lot. */
  loan: number;
  /** Short-sale margin (融券保證金) the account paid for a ShortSelling lot. */
  shortMargin: number;
  /** Sale proceeds the broker holds as collateral (融券擔保價款) for a ShortSelling lot. */
  collateral: number;
  /** Securities-lending fee (借券費) of a ShortSelling lot. */
  borrowFee: number;
}

export interface StockPositionState {
  id: number;
  code: string;
  cond: StockOrderCond;
  direction: Action;
  /** How a sale of the shares is taxed: for the estimated costs of closing. */
  taxKind: StockTaxKind;
  /** Oldest first: the lots in memory, after those of `stored`. */
  lots: StockLot[];
  /**
   * The position's older lots, kept by the journal with the last checkpoint and not in memory until a deal closes
   * them or they are asked for (Ledger.openStockLots); what they sum to answers meanwhile.
   */
  stored?: StoredLots | undefined;
}

/** The amounts of a stock position's lots added up. */
export type StockTotals = Pick<StockLot, (typeof TOTALLED)[number]>;

/** Lots kept by the journal: how many, what they sum to and the day of the last one. */
export interface StoredLots extends StockTotals {
  count: number;
  lastDay: string;
}

const TOTALLED = ['shares', 'value', 'fee', 'tax', 'loan', 'shortMargin', 'collateral', 'borrowFee'] as const;

/** What lots sum to, from `start` (the sums of lots not given). */
export function totalsOf(lots: readonly StockLot[], start?: StockTotals): StockTotals {
  const totals: StockTotals = {
    shares: 0,
    value: 0,
    fee: 0,
    tax: 0,
    loan: 0,
    shortMargin: 0,
    collateral: 0,
    borrowFee: 0,
  };
  for (const field of TOTALLED) totals[field] = start?.[field] ?? 0;
  for (const lot of lots) for (const field of TOTALLED) totals[field] += lot[field];
  return totals;
}

/** What every lot of a stock position sums to, those the journal keeps included. */
export const stockTotals = (position: StockPositionState): StockTotals => totalsOf(position.lots, position.stored);

/** Contracts opened by one deal and still open. */
export interface FutureLot extends LotOrigin {
  quantity: number;
  entryQuantity: number;
  fee: number;
  tax: number;
}

/** What a futures or option contract settles on when its last trading day stops trading. */
export interface ExpiryTerms {
  /** 'YYYY-MM-DD'. */
  lastTradingDay: string;
  /** The index or stock its final settlement price is fixed on. */
  underlyingCode: string;
  /** Options only. */
  strike?: number | undefined;
  right?: 'C' | 'P' | undefined;
}

/** A position cash-settled at expiry: what the ledger books, the journal keeps and a restart books again. */
export type ExpirySettlement = SettledPosition;

export interface FuturePositionState {
  id: number;
  code: string;
  direction: Action;
  securityType: 'FUT' | 'OPT';
  root: string;
  multiplier: number;
  /** Unknown for a position of a contract no longer listed when its deals were booked. */
  expiry?: ExpiryTerms | undefined;
  /** Oldest first. */
  lots: FutureLot[];
}

/** One closing stock deal, in shares, with what the summaries add up. */
export interface StockRealized {
  record: StockProfitLoss;
  details: StockProfitDetail[];
  /** Direction of the position the deal closed. */
  direction: Action;
  entryValue: number;
  coverValue: number;
  /** Money of the buy side: value + fee. */
  buyCost: number;
  /** Money of the sell side: value - fee - tax (- lending fee). */
  sellCost: number;
  /** Opening value + opening fee: the base of pr_ratio. */
  cost: number;
}

/** One closing futures or options deal. */
export interface FutureRealized {
  record: FutureProfitLoss;
  details: FutureProfitDetail[];
  securityType: 'FUT' | 'OPT';
  multiplier: number;
  /** (cover - entry) x quantity x multiplier x direction, before fees and taxes. */
  gross: number;
  entryValue: number;
  coverValue: number;
  /** Fees and taxes of the buy side and the sell side. */
  buyCost: number;
  sellCost: number;
}

export interface LedgerCashEntry extends CashChange {
  /** The trading day of the deal that made the entry. */
  day: string;
}

export interface AccountState {
  key: string;
  type: LedgerAccountType;
  startingBalance: number;
  cash: LedgerCashEntry[];
  cashTotal: number;
  /** By stockPositionKey. */
  stocks: Map<string, StockPositionState>;
  /** By code: one net position per futures or option code. */
  futures: Map<string, FuturePositionState>;
  /** Shares held at the end of each trading day a deal touched the position key, oldest first. */
  heldAtDayEnd: Map<string, { day: string; shares: number }[]>;
  /** Realized rows not archived yet (ids above archivedThrough), oldest first; an account has one kind. */
  stockRealized: StockRealized[];
  futureRealized: FutureRealized[];
  /** Realized rows with ids up to this one are in the journal's archive, not in memory (realized-history.ts). */
  archivedThrough: number;
  nextPositionId: number;
  nextProfitLossId: number;
}

export function newAccountState(key: string, type: LedgerAccountType, startingBalance: number): AccountState {
  return {
    key,
    type,
    startingBalance,
    cash: [],
    cashTotal: 0,
    stocks: new Map(),
    futures: new Map(),
    heldAtDayEnd: new Map(),
    stockRealized: [],
    futureRealized: [],
    archivedThrough: 0,
    nextPositionId: 1,
    nextProfitLossId: 1,
  };
}

export const stockPositionKey = (code: string, direction: Action, cond: StockOrderCond): string =>
  `${code}|${direction}|${cond}`;

export const sharesOf = (position: StockPositionState): number =>
  position.lots.reduce((sum, lot) => sum + lot.shares, position.stored?.shares ?? 0);

export const contractsOf = (position: FuturePositionState): number =>
  position.lots.reduce((sum, lot) => sum + lot.quantity, 0);

export const opposite = (action: Action): Action => (action === 'Buy' ? 'Sell' : 'Buy');
