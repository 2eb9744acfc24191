// Expiry: when a futures or option contract stops trading (13:30 of its last trading day), every position still open
// in it is cash-settled at the final settlement price (docs/portfolio.md, "Expiry"). Each settlement is reported once
// with the ledger rows it booked and the list of every settlement so far, which the gateway journals as a named value;
// a restart books that list again in deal order, so a settlement is neither lost nor made twice.

import { accountKeyOf } from '../../../domain/accounts.js';
import { expiryCloseAt, intrinsicValue } from '../../../domain/final-settlement.js';
import type { Clock } from '../../../domain/time.js';
import type { SettledPosition, SettlementUpdate } from '../../port.js';
import type { SimAccounts } from '../accounts.js';
import type { SimMarket } from '../market/market.js';
import type { FuturePositionState, Ledger, LedgerChanges } from './ledger.js';

/** The named value the settlements are journaled under. */
export const EXPIRY_SETTLEMENTS_STATE = 'expiry_settlements';

type Prices = Pick<SettledPosition, 'finalPrice' | 'coverPrice' | 'at' | 'day' | 'bookedAt'>;

export class ExpirySettlements {
  /** Every position settled so far, oldest first: what the journal keeps. */
  private settled: SettledPosition[] = [];
  private readonly listeners = new Set<(update: SettlementUpdate) => void>();

  constructor(
    private readonly ledger: Ledger,
    private readonly accounts: SimAccounts,
    private readonly market: SimMarket,
    private readonly clock: Clock,
  ) {}

  listen(listener: (update: SettlementUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How many positions were settled so far. */
  get settledCount(): number {
    return this.settled.length;
  }

  /** Settles every open position whose contract stopped trading by now, and reports them in one update. */
  settleDue(now = this.clock.now()): void {
    const due = this.expiredPositions(now);
    if (due.length === 0) return;
    const update: SettlementUpdate = { settlements: [], ledger: [], state: {}, at: Math.round(now) };
    for (const { accountKey, position } of due) {
      const expiry = position.expiry!;
      const finalPrice = this.market.values.finalSettlementOf({
        underlying_code: expiry.underlyingCode,
        last_trading_date: expiry.lastTradingDay,
      });
      const coverPrice =
        position.securityType === 'OPT' ? intrinsicValue(expiry.right!, expiry.strike!, finalPrice) : finalPrice;
      const at = expiryCloseAt(expiry.lastTradingDay);
      const { changes, settled } = this.settle(accountKey, position, {
        finalPrice,
        coverPrice,
        at,
        day: expiry.lastTradingDay,
        bookedAt: Math.round(now),
      });
      update.settlements.push(settled);
      update.ledger.push(changes);
    }
    update.state[EXPIRY_SETTLEMENTS_STATE] = JSON.stringify(this.settled);
    for (const listener of this.listeners) listener(update);
  }

  /**
   * Forgets what was settled and reads the journal's list back (a value that cannot be read is left out with one
   * log line: those positions then settle again when next due). The returned function books the saved settlements
   * made before an instant (bookedAt): the orders call it before each deal they book again, with the deal's time,
   * then with Infinity. A settlement is made once every fill up to its moment is booked, so this is the live order.
   * The first `inCheckpoint` are in the ledger's checkpoint already: they are kept, not booked again.
   */
  restore(value: string | undefined, log: (line: string) => void, inCheckpoint = 0): (before: number) => void {
    const saved = savedSettlements(value, log);
    // The first ones are booked in the ledger's checkpoint already.
    this.settled = saved.slice(0, inCheckpoint);
    let next = this.settled.length;
    return (before) => {
      for (; next < saved.length && saved[next]!.bookedAt <= before; next++) {
        const { accountKey, code } = saved[next]!;
        const position = this.ledger.futuresPositions(accountKey).find((p) => p.code === code);
        if (position) this.settle(accountKey, position, saved[next]!);
        else log(`journal: the expiry settlement of ${code} in ${accountKey} left out at load: no position`);
      }
    };
  }

  /** Closes the whole position at its settlement price in the ledger (futures-book.ts settleAtExpiry). */
  private settle(
    accountKey: string,
    position: FuturePositionState,
    prices: Prices,
  ): { changes: LedgerChanges; settled: SettledPosition } {
    const quantity = position.lots.reduce((sum, lot) => sum + lot.quantity, 0);
    const changes = this.ledger.book({
      accountKey,
      orderId: `expiry:${position.code}`,
      seqno: '',
      ordno: 'EXPIRY',
      dealSeq: 1,
      at: prices.at,
      day: prices.day,
      code: position.code,
      action: position.direction === 'Buy' ? 'Sell' : 'Buy',
      price: prices.coverPrice,
      quantity,
      expirySettlement: { finalPrice: prices.finalPrice },
      derivative: { ...position, ocType: 'Cover' },
    });
    const settled: SettledPosition = {
      accountKey,
      code: position.code,
      ...prices,
      quantity,
      direction: position.direction,
      securityType: position.securityType,
      amount: changes.cash.reduce((sum, entry) => sum + entry.amount, 0),
      profitLossId: this.ledger.futureRealized(accountKey).at(-1)!.record.id,
    };
    this.settled.push(settled);
    return { changes, settled };
  }

  /** Open positions of the futures accounts whose contract stopped trading by now, by account and position id. */
  private expiredPositions(now: number): { accountKey: string; position: FuturePositionState }[] {
    return this.accounts
      .list()
      .filter((account) => account.account_type === 'F')
      .flatMap((account) => {
        const accountKey = accountKeyOf(account);
        return this.ledger
          .futuresPositions(accountKey)
          .filter((position) => position.expiry && expiryCloseAt(position.expiry.lastTradingDay) <= now)
          .map((position) => ({ accountKey, position }));
      });
  }
}

/** The settlements the journal kept, oldest first; a value that cannot be read gives none, with one log line. */
function savedSettlements(value: string | undefined, log: (line: string) => void): SettledPosition[] {
  if (value === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    if (!Array.isArray(parsed)) throw new TypeError('not a list');
    return (parsed as SettledPosition[])
      .filter((s) => typeof s?.code === 'string' && Number.isFinite(s.bookedAt) && Number.isFinite(s.coverPrice))
      .sort((a, b) => a.bookedAt - b.bookedAt);
  } catch (error) {
    log(`journal: ${EXPIRY_SETTLEMENTS_STATE} left out at load: ${(error as Error).message}`);
    return [];
  }
}
