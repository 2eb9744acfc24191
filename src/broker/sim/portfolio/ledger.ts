// The simulated broker's books: every deal is booked once, in deal order, live and when the journal is replayed at
// start. Booking is deterministic, so replaying the same fills rebuilds the same state, ids included.

import type { Action, StockOrderCond } from '../../../domain/orders.js';
import {
  type AccountState,
  contractsOf,
  type FuturePositionState,
  type FutureRealized,
  type LedgerAccountType,
  type LedgerCashEntry,
  newAccountState,
  type StockLot,
  type StockPositionState,
  type StockRealized,
  sharesOf,
  stockPositionKey,
  stockTotals,
} from './account-state.js';
import type { BookedFill, LedgerChanges } from './fills.js';
import { bookDerivativeFill, settleAtExpiry } from './futures-book.js';
import { bookStockFill } from './stock-book.js';
import { StoredLotReader } from './stored-lots.js';

export type * from './account-state.js';
export type { BookedFill, CashChange, LedgerChanges } from './fills.js';

export interface LedgerOptions {
  /** What a stock (S) account starts with. */
  startingCash: number;
  /** What a futures (F) account starts with. */
  startingCollateral: number;
}

/** What simulated accounts start with unless configured (SJ_SIM_STARTING_CASH, SJ_SIM_STARTING_COLLATERAL). */
export const DEFAULT_STARTING_FUNDS: LedgerOptions = { startingCash: 10_000_000, startingCollateral: 2_000_000 };

export class Ledger {
  /** By account key; ledger-checkpoint.ts reads and restores it whole. Do not mutate elsewhere. */
  readonly accounts = new Map<string, AccountState>();
  /** The stock lots the journal keeps (stored-lots.ts): the venue sets its reader when it is restored. */
  readonly storedLots = new StoredLotReader();
  constructor(private readonly options: LedgerOptions) {}

  /** Forgets every account, so that the journal's deals can be booked again from the start. */
  clear(): void {
    this.accounts.clear();
  }

  /**
   * Makes an account known as a stock (S) or futures (F) account; booking a fill does it too. Idempotent.
   * Throws RangeError when the account is already known with the other type.
   */
  open(accountKey: string, type: LedgerAccountType): void {
    const known = this.accounts.get(accountKey);
    if (known && known.type !== type) {
      throw new RangeError(`account ${accountKey} is a ${known.type} account, not ${type}`);
    }
    if (!known) {
      const starting = type === 'S' ? this.options.startingCash : this.options.startingCollateral;
      this.accounts.set(accountKey, newAccountState(accountKey, type, starting));
    }
  }

  /**
   * Books one deal, or the cash settlement of a position at expiry (a fill marked expirySettlement, which closes the
   * whole position at its price), and returns the cash entries and positions (record null = closed) to journal.
   * Throws RangeError for a fill that is neither stock nor derivative, or a margin sell or short cover beyond what
   * is held (the orders engine checks heldShares first).
   */
  book(fill: BookedFill): LedgerChanges {
    const { account, booking } = this.replay(fill);
    const type = fill.stock ? 'S' : 'F';
    return {
      cash: booking.cash.map(({ day: _day, ...entry }) => entry),
      positions: booking.touched.map((key) => ({
        accountKey: account.key,
        key,
        record: type === 'S' ? stockSnapshot(account.stocks.get(key)) : futuresSnapshot(account.futures.get(key)),
      })),
    };
  }

  /**
   * Books a fill whose rows the journal holds already (a restart): only the state changes, nothing to journal is
   * made. The rows' position snapshots sum every open lot, which over a long history made a restart quadratic in the
   * deals of a position. Returns the account and what changed in it, which book() turns into rows.
   */
  replay(fill: BookedFill) {
    requireBookable(fill);
    this.open(fill.accountKey, fill.stock ? 'S' : 'F');
    const account = this.accounts.get(fill.accountKey)!;
    const booking = fill.stock
      ? toMany(bookStockFill(account, fill, fill.stock, (position) => this.storedLots.load(account.key, position)))
      : fill.expirySettlement
        ? settleAtExpiry(account, fill)
        : bookDerivativeFill(account, fill, fill.derivative!);
    for (const entry of booking.cash) {
      account.cash.push(entry);
      account.cashTotal += entry.amount;
    }
    return { account, booking };
  }

  accountType(accountKey: string): LedgerAccountType | undefined {
    return this.accounts.get(accountKey)?.type;
  }

  /** What the account started with: startingCash for S, startingCollateral for F. */
  startingBalance(accountKey: string): number {
    return accountIn(this.accounts, accountKey).startingBalance;
  }

  /** Starting balance plus every cash entry, whatever its settle date. */
  cash(accountKey: string): number {
    const account = accountIn(this.accounts, accountKey);
    return account.startingBalance + account.cashTotal;
  }

  /** Starting balance plus the entries that count at once or settle on or before `day`. */
  settledCash(accountKey: string, day: string): number {
    const account = accountIn(this.accounts, accountKey);
    const settled = account.cash.filter((e) => e.settleDate === null || e.settleDate <= day);
    return account.startingBalance + sum(settled.map((e) => e.amount));
  }

  /** In booking order. */
  cashEntries(accountKey: string): readonly LedgerCashEntry[] {
    return this.accounts.get(accountKey)?.cash ?? [];
  }

  /** Long shares held for Cash, MarginTrading and the other conditions; short shares for ShortSelling. */
  heldShares(accountKey: string, code: string, cond: StockOrderCond): number {
    const direction: Action = cond === 'ShortSelling' ? 'Sell' : 'Buy';
    const position = this.accounts.get(accountKey)?.stocks.get(stockPositionKey(code, direction, cond));
    return position ? sharesOf(position) : 0;
  }

  /** Net contracts of a futures or option code: positive long, negative short. */
  netContracts(accountKey: string, code: string): number {
    const position = this.accounts.get(accountKey)?.futures.get(code);
    if (!position) return 0;
    return position.direction === 'Buy' ? contractsOf(position) : -contractsOf(position);
  }

  /** Oldest first, those the journal keeps read into memory. Do not mutate. */
  openStockLots(accountKey: string, code: string, cond: StockOrderCond, direction: Action): readonly StockLot[] {
    const position = this.accounts.get(accountKey)?.stocks.get(stockPositionKey(code, direction, cond));
    return position ? this.storedLots.load(accountKey, position) : [];
  }

  /** Open stock positions by id. Do not mutate. */
  stockPositions(accountKey: string): readonly StockPositionState[] {
    return [...(this.accounts.get(accountKey)?.stocks.values() ?? [])].sort((a, b) => a.id - b.id);
  }

  /** Open futures and option positions by id. Do not mutate. */
  futuresPositions(accountKey: string): readonly FuturePositionState[] {
    return [...(this.accounts.get(accountKey)?.futures.values() ?? [])].sort((a, b) => a.id - b.id);
  }

  /** Shares of a stock position held at the end of the last trading day before `day` that had a deal in it. */
  sharesHeldBefore(accountKey: string, position: StockPositionState, day: string): number {
    const key = stockPositionKey(position.code, position.direction, position.cond);
    const history = this.accounts.get(accountKey)?.heldAtDayEnd.get(key) ?? [];
    return history.findLast((entry) => entry.day < day)?.shares ?? 0;
  }

  /**
   * Closing stock deals, by id: those in memory, which after a checkpoint are of its previous trading day and later
   * (realized-history.ts reads the archived ones too).
   */
  stockRealized(accountKey: string): readonly StockRealized[] {
    return this.accounts.get(accountKey)?.stockRealized ?? [];
  }

  /** Closing futures and options deals, by id: those in memory, as stockRealized. */
  futureRealized(accountKey: string): readonly FutureRealized[] {
    return this.accounts.get(accountKey)?.futureRealized ?? [];
  }
}

function accountIn(accounts: ReadonlyMap<string, AccountState>, accountKey: string): AccountState {
  const account = accounts.get(accountKey);
  if (!account) throw new RangeError(`account ${accountKey} is unknown to the ledger: open() it first`);
  return account;
}

function requireBookable(fill: BookedFill): void {
  if ((fill.stock === undefined) === (fill.derivative === undefined)) {
    throw new RangeError(`fill ${fill.orderId}:${fill.dealSeq} needs exactly one of stock and derivative terms`);
  }
  if (!Number.isInteger(fill.quantity) || fill.quantity <= 0) {
    throw new RangeError(`fill ${fill.orderId}:${fill.dealSeq} has quantity ${fill.quantity}`);
  }
  // An option that expires out of the money closes at 0.
  if (!Number.isFinite(fill.price) || fill.price < 0 || (fill.price === 0 && !fill.expirySettlement)) {
    throw new RangeError(`fill ${fill.orderId}:${fill.dealSeq} has price ${fill.price}`);
  }
}

const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);

const toMany = (booking: { cash: LedgerCashEntry; touched: string[] }) => ({ ...booking, cash: [booking.cash] });

/** The journal's row of a stock position: what it holds now, in totals (the lots are rebuilt from the deals). */
function stockSnapshot(position: StockPositionState | undefined): unknown | null {
  if (!position) return null;
  const { id, code, cond, direction, lots, stored } = position;
  const { shares, value, fee, loan, shortMargin } = stockTotals(position);
  return { id, code, cond, direction, shares, value, fee, loan, shortMargin, lots: lots.length + (stored?.count ?? 0) };
}

function futuresSnapshot(position: FuturePositionState | undefined): unknown | null {
  if (!position) return null;
  const { id, code, direction, securityType, lots } = position;
  const entryValue = lots.reduce((sum, lot) => sum + lot.price * lot.quantity, 0);
  return { id, code, direction, securityType, quantity: contractsOf(position), entryValue, lots: lots.length };
}
