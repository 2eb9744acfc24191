// The simulator's plain orders by id, the working ones apart (what sync and the reservation checks walk), and the
// counter their ids are made from.

import { isFinalStatus } from '../../../domain/orders.js';
import { hashKeys } from '../random.js';
import type { OrderRecord } from './trade-records.js';

export interface OrderIds {
  id: string;
  seqno: string;
  ordno: string;
}

export class OrderBook {
  private readonly records = new Map<string, OrderRecord>();
  private readonly working = new Set<OrderRecord>();
  private counter = 0;

  /** `taken`: whether an id is used by something else (a combo), so it is never handed out twice. */
  constructor(private readonly taken: (id: string) => boolean) {}

  get(id: string): OrderRecord | undefined {
    return this.records.get(id);
  }

  /** Keeps an order, and in the working set while it can still trade, so that no pass walks finished orders. */
  remember(record: OrderRecord): void {
    this.records.set(record.trade.order.id, record);
    if (isFinalStatus(record.trade.status.status)) this.working.delete(record);
    else this.working.add(record);
  }

  /** The working orders now, as a copy: a change may move a finished order out of the set meanwhile. */
  workingNow(): OrderRecord[] {
    return [...this.working];
  }

  *workingOf(accountKey: string): Iterable<OrderRecord> {
    for (const record of this.working) if (record.accountKey === accountKey) yield record;
  }

  /** Every order of an account (null: of every account), oldest first. */
  list(accountKey: string | null): OrderRecord[] {
    return [...this.records.values()].filter((record) => accountKey === null || record.accountKey === accountKey);
  }

  /** How many ids were handed out: kept with the orders, so a restart goes on from there. */
  get issued(): number {
    return this.counter;
  }

  /** Forgets every order; ids go on after `issued`. */
  reset(issued: number): void {
    this.records.clear();
    this.working.clear();
    this.counter = issued;
  }

  nextIds(): OrderIds {
    // The id is a 32-bit hash of the counter, and two counters may hash alike (the first pair: 539,599 and 722,382):
    // an id already taken is skipped, or the second order would overwrite the first in the journal.
    let id: string;
    do {
      this.counter++;
      id = hashKeys('order', this.counter).toString(16).padStart(8, '0');
    } while (this.records.has(id) || this.taken(id));
    return {
      id,
      seqno: String(100000 + (this.counter % 900000)),
      ordno: (36 ** 4 * 10 + this.counter).toString(36).toUpperCase().slice(-5),
    };
  }
}
