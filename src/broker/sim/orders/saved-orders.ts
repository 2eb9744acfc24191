// Putting back what the gateway kept of the simulator's orders: plain orders, combos, and the ledger rebuilt from
// their deals (the ledger's own rows were reported for audit, never read back).

import type { Deal } from '../../../domain/orders.js';
import type { SavedOrder, SavedOrders } from '../../port.js';
import { type ComboDesk, isComboRecord } from './combo-orders.js';
import type { OrderBook, OrderLoader } from './order-book.js';
import { dealProblem, type OrderRecord, recordProblem, restoredRecord } from './trade-records.js';

export interface RestoreTarget {
  book: OrderBook;
  combos: ComboDesk;
  /** Books a deal of a plain order in the ledger, unless the ledger's checkpoint holds it (`covered`). */
  bookDeal: (record: OrderRecord, deal: Deal, seq: number, covered: boolean) => void;
  /** The instant of the restore: only deals of its trading day matter to the books' memory. */
  now: number;
}

/**
 * A row that cannot be put back is left out with one log line and the rest loads: one damaged row must not stop
 * the gateway or break every later listing. An order whose record holds a number that is not finite is neither
 * listed nor traded, but its deals were real fills and still count.
 */
export function loadSavedOrders(saved: SavedOrders, into: RestoreTarget, log: (line: string) => void): void {
  const leftOut = (row: string, reason: string) => log(`journal: ${row} left out at load: ${reason}`);
  /** Orders left out whose deals are still booked. */
  const unlisted = new Map<string, unknown>();
  /** Every plain order while its deals are booked; only the live ones stay in the book. */
  const plainOrders = new Map<string, OrderRecord>();
  for (const stored of saved.orders) {
    const problem = recordProblem(stored.record);
    if (problem) {
      const deals =
        problem.kind === 'numbers' ? 'not listed or traded; any deals of it still count' : 'its deals are left out too';
      leftOut(`order ${stored.id}`, `${problem.reason} (${deals})`);
      if (problem.kind === 'numbers') unlisted.set(stored.id, stored.record);
      continue;
    }
    if (isComboRecord(stored.record)) into.combos.remember(stored.record);
    else plainOrders.set(stored.id, restoredRecord(stored.record as OrderRecord));
  }
  for (const record of plainOrders.values()) if (into.book.isLive(record)) into.book.remember(record);
  for (const deal of saved.deals) {
    const problem = dealProblem(deal.record);
    if (problem) {
      leftOut(`deal ${deal.seq} of order ${deal.orderId}`, problem);
      continue;
    }
    const record = plainOrders.get(deal.orderId);
    if (record) record.trade.status.deals[deal.seq - 1] = deal.record as Deal;
    const unlistedRecord = unlisted.get(deal.orderId);
    const plain = record ?? (unlistedRecord && !isComboRecord(unlistedRecord) ? unlistedRecord : undefined);
    const covered = deal.covered === true;
    if (plain) into.bookDeal(plain as OrderRecord, deal.record as Deal, deal.seq, covered);
    const combo = into.combos.records.get(deal.orderId) ?? (isComboRecord(unlistedRecord) ? unlistedRecord : undefined);
    if (combo) {
      into.combos.replayDeal(combo, deal.code, deal.record as Deal, deal.seq, into.now, !covered);
    }
  }
}

/** A plain order of the journal as the book held it, deals put back; undefined for a combo or a bad row. */
export function savedRecord(stored: SavedOrder): OrderRecord | undefined {
  if (recordProblem(stored.record) || isComboRecord(stored.record)) return undefined;
  const record = restoredRecord(stored.record as OrderRecord);
  for (const deal of stored.deals) {
    if (!dealProblem(deal.record)) record.trade.status.deals[deal.seq - 1] = deal.record as Deal;
  }
  return record;
}

/** Reads finished plain orders back from the journal (SavedOrders.order, ordersById), when the gateway can. */
export function savedOrderLoader(saved: SavedOrders): OrderLoader | undefined {
  const { order: readOrder, ordersById, holds } = saved;
  if (!readOrder || !holds) return undefined;
  const read = (id: string) => {
    const stored = readOrder(id);
    return stored && savedRecord(stored);
  };
  const readMany =
    ordersById &&
    ((ids: readonly string[], accountKey?: string) =>
      ordersById(ids, accountKey).flatMap((stored) => savedRecord(stored) ?? []));
  return { read, holds, ...(readMany ? { readMany } : {}) };
}
