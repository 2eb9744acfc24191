// Expiry: when a futures or option contract stops trading (13:30 of its last trading day), every position still open
// in it is cash-settled at the final settlement price (docs/portfolio.md, "Expiry"). Each settlement is reported once
// with the ledger rows it booked and the list of every settlement so far, which the gateway journals as a named value;
// a restart books that list again in deal order, so a settlement is neither lost nor made twice.

import { expiryCloseAt, intrinsicValue } from '../../../domain/final-settlement.js';
import type { Clock } from '../../../domain/time.js';
import type { SettlementUpdate } from '../../port.js';
import type { SimMarket } from '../market/market.js';
import type { ExpirySettlement, Ledger } from '../portfolio/ledger.js';

/** The named value the settlements are journaled under. */
export const EXPIRY_SETTLEMENTS_STATE = 'expiry_settlements';

export class ExpirySettlements {
  private readonly listeners = new Set<(update: SettlementUpdate) => void>();

  constructor(
    private readonly ledger: Ledger,
    private readonly market: SimMarket,
    private readonly clock: Clock,
  ) {}

  listen(listener: (update: SettlementUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Settles every open position whose contract stopped trading by now, and reports them in one update. */
  settleDue(now = this.clock.now()): void {
    const due = this.ledger.expiredPositions(now);
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
      const { changes, settled } = this.ledger.settle(accountKey, position.code, {
        finalPrice,
        coverPrice,
        at: expiryCloseAt(expiry.lastTradingDay),
        day: expiry.lastTradingDay,
      });
      update.settlements.push(settled);
      update.ledger.push(changes);
    }
    update.state[EXPIRY_SETTLEMENTS_STATE] = JSON.stringify(this.ledger.settlements());
    for (const listener of this.listeners) listener(update);
  }
}

/**
 * The settlements the journal kept, to book again between the deals at restore, oldest first; a value that cannot
 * be read is left out with one log line (the positions then settle again when next due).
 */
export function savedSettlements(value: string | undefined, log: (line: string) => void): ExpirySettlement[] {
  if (value === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    if (!Array.isArray(parsed)) throw new TypeError('not a list');
    return (parsed as ExpirySettlement[])
      .filter((s) => typeof s?.code === 'string' && Number.isFinite(s.at) && Number.isFinite(s.coverPrice))
      .sort((a, b) => a.at - b.at);
  } catch (error) {
    log(`journal: ${EXPIRY_SETTLEMENTS_STATE} left out at load: ${(error as Error).message}`);
    return [];
  }
}
