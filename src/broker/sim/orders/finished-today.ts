// Today's finished orders as the order book lists them once they left memory: by id only, 4 bytes each, grouped by
// the trading day (with its market) they last changed on, so that a new day forgets them in one step. The records
// themselves are read back from the journal when the day's list is asked for.

import type { OrderDays } from './order-book.js';
import type { OrderRecord } from './trade-records.js';

export class FinishedToday {
  private byDay = new Map<string, OrderIdList>();
  /** Finished orders read back from the journal by id: listed already if they are today's. */
  private readBack = new WeakSet<OrderRecord>();
  /** The day (OrderDays.today) the lists were last checked on. */
  private keptFor = '';

  constructor(private readonly days: Pick<OrderDays, 'today' | 'isPast'>) {}

  /** Whether a market's day changed since the last call; the ids of days now past are forgotten. */
  turned(): boolean {
    const today = this.days.today();
    if (today === this.keptFor) return false;
    this.keptFor = today;
    for (const day of this.byDay.keys()) if (this.days.isPast(day)) this.byDay.delete(day);
    return true;
  }

  /** Lists an order that finished, once: one read back from the journal was listed when it finished or was restored. */
  add(record: OrderRecord, day: string): void {
    if (this.readBack.has(record)) return;
    const ids = this.byDay.get(day) ?? new OrderIdList();
    this.byDay.set(day, ids);
    ids.add(record.trade.order.id);
  }

  /** Marks an order read back from the journal. */
  wasReadBack(record: OrderRecord): OrderRecord {
    this.readBack.add(record);
    return record;
  }

  ids(): string[] {
    return [...this.byDay.values()].flatMap((ids) => ids.ids());
  }

  get count(): number {
    let count = 0;
    for (const ids of this.byDay.values()) count += ids.length;
    return count;
  }

  clear(): void {
    this.byDay = new Map();
    this.readBack = new WeakSet();
    this.keptFor = '';
  }
}

/** Order ids in the order added: 4 bytes each when they are 8 hex digits, as nextIds makes them; as text otherwise. */
class OrderIdList {
  private packed = new Uint32Array(256);
  private count = 0;
  private readonly others: string[] = [];

  get length(): number {
    return this.count + this.others.length;
  }

  add(id: string): void {
    if (!/^[0-9a-f]{8}$/.test(id)) {
      this.others.push(id);
      return;
    }
    if (this.count === this.packed.length) {
      const grown = new Uint32Array(this.packed.length * 2);
      grown.set(this.packed);
      this.packed = grown;
    }
    this.packed[this.count++] = Number.parseInt(id, 16);
  }

  ids(): string[] {
    const ids = Array.from(this.packed.subarray(0, this.count), (n) => n.toString(16).padStart(8, '0'));
    return ids.concat(this.others);
  }
}
