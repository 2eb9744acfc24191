// Today's finished orders as the order book keeps them: the last FinishedToday.keptAtMost to finish in memory (a
// day's list of them is a copy, as fast as before), and those that finished before by id only, 4 bytes each, read
// back from the journal when the day's list is asked for. Both are grouped by the trading day (with its market) they
// last changed on, so that a new day forgets them in one step.

import type { OrderDays } from './order-book.js';
import type { OrderRecord } from './trade-records.js';

export class FinishedToday {
  /** How many finished orders of today stay in memory; older ones are listed by id. */
  static keptAtMost = 10_000;
  /** The ids of the finished orders kept in memory, oldest first, with their day. */
  private kept = new Map<string, string>();
  private byDay = new Map<string, OrderIdList>();
  /** Finished orders read back from the journal by id: listed already if they are today's. */
  private readBack = new WeakSet<OrderRecord>();
  /** The day (OrderDays.today) the lists were last checked on. */
  private keptFor = '';

  constructor(
    private readonly days: Pick<OrderDays, 'today' | 'isPast'>,
    private readonly limit = FinishedToday.keptAtMost,
  ) {}

  /** Whether a market's day changed since the last call; the ids of days now past are forgotten. */
  turned(): boolean {
    const today = this.days.today();
    if (today === this.keptFor) return false;
    this.keptFor = today;
    for (const day of this.byDay.keys()) if (this.days.isPast(day)) this.byDay.delete(day);
    for (const [id, day] of this.kept) if (this.days.isPast(day)) this.kept.delete(id);
    return true;
  }

  /**
   * Keeps an order of `day` that finished (once: one read back from the journal is listed by id already) and returns
   * the ids that leave memory: the oldest kept beyond the limit, or the order itself when it was read back.
   */
  keep(record: OrderRecord, day: string): string[] {
    const { id } = record.trade.order;
    if (this.readBack.has(record)) return [id];
    if (this.kept.has(id)) return [];
    this.kept.set(id, day);
    const leaving: string[] = [];
    for (const [oldest, oldestDay] of this.kept) {
      if (this.kept.size <= this.limit) break;
      this.kept.delete(oldest);
      const ids = this.byDay.get(oldestDay) ?? new OrderIdList();
      this.byDay.set(oldestDay, ids);
      ids.add(oldest);
      leaving.push(oldest);
    }
    return leaving;
  }

  /** Marks an order read back from the journal. */
  wasReadBack(record: OrderRecord): OrderRecord {
    this.readBack.add(record);
    return record;
  }

  /** The ids of those that left memory. */
  ids(): string[] {
    return [...this.byDay.values()].flatMap((ids) => ids.ids());
  }

  /** How many left memory. */
  get count(): number {
    let count = 0;
    for (const ids of this.byDay.values()) count += ids.length;
    return count;
  }

  clear(): void {
    this.kept = new Map();
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
