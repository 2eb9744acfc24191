// What the orders engine hands the ledger for every deal, and what the ledger hands back for the journal.

import type { StockTaxKind } from '../../../domain/fees.js';
import type { FuturesOCType, StockOrderCond, StockOrderLot } from '../../../domain/orders.js';
import type { LedgerRows } from '../../port.js';
import type { ExpiryTerms, LotOrigin } from './account-state.js';

export interface BookedFill {
  accountKey: string;
  orderId: string;
  seqno: string;
  /** Shown as dseq. */
  ordno: string;
  /** Per order, from 1. */
  dealSeq: number;
  /** Epoch ms of the deal. */
  at: number;
  /** 'YYYY-MM-DD' trading day the deal belongs to (a futures night-session deal belongs to the next trading day). */
  day: string;
  code: string;
  action: 'Buy' | 'Sell';
  price: number;
  /** Stocks: SHARES (already converted from lots); futures/options: contracts. */
  quantity: number;
  stock?: {
    cond: StockOrderCond;
    lot: StockOrderLot;
    taxKind: StockTaxKind;
    daytradeShort: boolean;
    /** Percent, e.g. 60. */
    marginLoanRatio: number;
    /** Percent, e.g. 90. */
    shortMarginRatio: number;
  };
  /** Set on the cash settlement of a position at expiry: the price is what it settles at, the quantity all of it. */
  expirySettlement?: { finalPrice: number } | undefined;
  derivative?: {
    securityType: 'FUT' | 'OPT';
    root: string;
    multiplier: number;
    ocType: FuturesOCType;
    /** How the contract expires: kept with its position, which is cash-settled when trading stops. */
    expiry?: ExpiryTerms | undefined;
  };
}

/** The deal a lot opened by this fill comes from. */
export function lotOrigin(fill: BookedFill): LotOrigin {
  const { orderId, seqno, ordno, dealSeq, at, day, price } = fill;
  return { orderId, seqno, ordno, dealSeq, at, day, price };
}

/** What booking a fill wrote: the rows the venue reports with the order's change. */
export type LedgerChanges = LedgerRows;

export type CashChange = LedgerChanges['cash'][number];
