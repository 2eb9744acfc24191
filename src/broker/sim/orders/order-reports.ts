// What the simulator tells the gateway: every change of an order or combo as an OrderUpdate, with the ledger rows
// its deals booked and the id counter, so the gateway journals all of it together.

import type { OrderEvent } from '../../../domain/orders.js';
import type { Clock } from '../../../domain/time.js';
import type { OrderUpdate } from '../../port.js';
import { comboCodeOf } from '../market/market.js';
import type { LedgerChanges } from '../portfolio/ledger.js';
import type { ComboRecord } from './combo-orders.js';
import { type OrderRecord, storedRecord } from './trade-records.js';

/** The state the simulator keeps with its orders: how many ids were handed out. */
export const ORDER_COUNTER = 'order_counter';

export class OrderReports {
  /** What the deals of the change being made did to the ledger, reported with the change. */
  private booked: LedgerChanges[] = [];
  private readonly listeners = new Set<(update: OrderUpdate) => void>();

  constructor(
    private readonly clock: Clock,
    /** How many order ids were handed out, reported with each change. */
    private readonly issued: () => number,
  ) {}

  listen(listener: (update: OrderUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ledger rows of the change being made, reported with it. */
  book(changes: LedgerChanges): void {
    this.booked.push(changes);
  }

  /** Forgets rows not reported yet (a restore rebuilds the ledger). */
  discard(): void {
    this.booked = [];
  }

  /** Reports a plain order's change: its new deals and its events. `placed`: the order is new. */
  order(record: OrderRecord, events: OrderEvent[], placed = false): void {
    const { trade } = record;
    const deals = trade.status.deals.map((deal) => ({ code: trade.contract.code, action: trade.order.action, deal }));
    const order = { id: trade.order.id, accountKey: record.accountKey, code: trade.contract.code };
    this.report({
      order: { ...order, placedAt: record.placedAt },
      status: trade.status,
      record: () => storedRecord(record),
      deals,
      events,
      placed,
    });
  }

  combo(record: ComboRecord, events: OrderEvent[]): void {
    const { trade } = record;
    const [first, second] = trade.contract.legs;
    const firstDeals = trade.status.deals[first.code] ?? [];
    const secondDeals = trade.status.deals[second.code] ?? [];
    // Each fill made one deal per leg: they are journaled fill by fill, first leg first.
    const deals = firstDeals.flatMap((deal, i) => [
      { code: first.code, action: first.action, deal },
      { code: second.code, action: second.action, deal: secondDeals[i]! },
    ]);
    const code = comboCodeOf(record.combo);
    this.report({
      order: { id: trade.order.id, accountKey: record.accountKey, code, placedAt: record.placedAt },
      status: trade.status,
      record: () => record,
      deals,
      events,
      placed: false,
    });
  }

  private report(change: Omit<OrderUpdate, 'ledger' | 'at' | 'state'>): void {
    const ledger = this.booked;
    this.booked = [];
    const update: OrderUpdate = {
      ...change,
      ledger,
      at: Math.round(this.clock.now()),
      state: { [ORDER_COUNTER]: String(this.issued()) },
    };
    for (const listener of this.listeners) listener(update);
  }
}
