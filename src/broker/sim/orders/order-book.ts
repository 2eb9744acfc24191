// The simulator's plain orders by id, the working ones apart (what sync and the reservation checks walk), and the
// counter their ids are made from. Only what is live stays in memory: the working orders and those that changed on
// their market's current day. A finished order of a past day is forgotten when the day changes and read back from the
// journal when asked for by id (the journal's pages list them, see docs/api.md).

import { isFinalStatus } from '../../../domain/orders.js';
import { hashKeys } from '../random.js';
import type { OrderRecord } from './trade-records.js';

export interface OrderIds {
  id: string;
  seqno: string;
  ordno: string;
}

/** The days orders are placed and listed on. */
export interface OrderDays {
  /** Changes when a market's trading day does (the stock and futures days together). */
  today(): string;
  /** Whether the order last changed (placed, modified, filled) on a trading day of its market before the current one. */
  lastActiveBefore(record: OrderRecord): boolean;
}

/** What the journal holds of the orders the book no longer keeps. */
export interface OrderLoader {
  /** A finished order read back with its deals; undefined for an id the journal does not hold. */
  read(id: string): OrderRecord | undefined;
  /** Whether the journal holds an order of this id, without reading it. */
  holds(id: string): boolean;
}

export class OrderBook {
  private readonly records = new Map<string, OrderRecord>();
  private readonly working = new Set<OrderRecord>();
  private counter = 0;
  /** The day the finished orders of earlier days were last forgotten on. */
  private keptFor = '';
  private loader: OrderLoader | undefined;
  /** Counts what may change list(): every order kept, a new day, a reset. */
  private changes = 0;

  /** `taken`: whether an id is used by something else (a combo), so it is never handed out twice. */
  constructor(
    private readonly taken: (id: string) => boolean,
    private readonly days: OrderDays,
  ) {}

  /** An order in memory, else one of a past day read back from the journal (not kept: it is finished). */
  get(id: string): OrderRecord | undefined {
    return this.records.get(id) ?? this.loader?.read(id);
  }

  /** Whether an order belongs in memory: it is working, or changed on its market's current day. */
  isLive(record: OrderRecord): boolean {
    return !isFinalStatus(record.trade.status.status) || !this.days.lastActiveBefore(record);
  }

  /**
   * Keeps an order, and in the working set while it can still trade, so that no pass walks finished orders. A
   * finished order of a past day (read back from the journal, or finished after its day) is not kept.
   */
  remember(record: OrderRecord): void {
    this.forgetPastDays();
    this.changes++;
    if (isFinalStatus(record.trade.status.status)) {
      this.working.delete(record);
      if (this.days.lastActiveBefore(record)) {
        this.records.delete(record.trade.order.id);
        return;
      }
    } else {
      this.working.add(record);
    }
    this.records.set(record.trade.order.id, record);
  }

  /** Once per day: forgets the finished orders of earlier days, which the journal holds. */
  private forgetPastDays(): void {
    const today = this.days.today();
    if (today === this.keptFor) return;
    this.keptFor = today;
    this.changes++;
    for (const [id, record] of this.records) if (!this.isLive(record)) this.records.delete(id);
  }

  /** The working orders now, as a copy: a change may move a finished order out of the set meanwhile. */
  workingNow(): OrderRecord[] {
    return [...this.working];
  }

  *workingOf(accountKey: string): Iterable<OrderRecord> {
    for (const record of this.working) if (record.accountKey === accountKey) yield record;
  }

  /** The working orders and today's of an account (null: of every account), oldest first. */
  list(accountKey: string | null): OrderRecord[] {
    this.forgetPastDays();
    return [...this.records.values()].filter((record) => accountKey === null || record.accountKey === accountKey);
  }

  /** Changes whenever list() may answer otherwise, for any account. */
  listVersion(): number {
    this.forgetPastDays();
    return this.changes;
  }

  /** How many ids were handed out: kept with the orders, so a restart goes on from there. */
  get issued(): number {
    return this.counter;
  }

  /** Forgets every order; ids go on after `issued`; `loader` reads a forgotten one back. */
  reset(issued: number, loader?: OrderLoader): void {
    this.records.clear();
    this.working.clear();
    this.counter = issued;
    this.keptFor = '';
    this.loader = loader;
    this.changes++;
  }

  nextIds(): OrderIds {
    // The id is a 32-bit hash of the counter, and two counters may hash alike (the first pair: 539,599 and 722,382):
    // an id already taken is skipped, or the second order would overwrite the first in the journal.
    let id: string;
    do {
      this.counter++;
      id = hashKeys('order', this.counter).toString(16).padStart(8, '0');
    } while (this.records.has(id) || this.taken(id) || this.loader?.holds(id));
    return {
      id,
      seqno: String(100000 + (this.counter % 900000)),
      ordno: (36 ** 4 * 10 + this.counter).toString(36).toUpperCase().slice(-5),
    };
  }
}
