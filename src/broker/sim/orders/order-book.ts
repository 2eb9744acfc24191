// The simulator's plain orders by id, the working ones apart (what sync and the reservation checks walk), and the
// counter their ids are made from. Only working orders stay in memory. With a journal to read them back from, a
// finished order leaves memory: today's (changed on its market's current day) are listed by id, 4 bytes each, and read
// back from the journal for the day's list; those of a past day are forgotten when the day changes and read back by id
// when asked for (the journal's pages list them, see docs/api.md). Without a journal, today's finished orders stay.

import { isFinalStatus } from '../../../domain/orders.js';
import { hashKeys } from '../random.js';
import { FinishedToday } from './finished-today.js';
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
  /** The trading day the order last changed (placed, modified, filled) on, with its market: 'stock 2026-11-24'. */
  lastActiveDay(record: OrderRecord): string;
  /** Whether such a day is before its market's current day. */
  isPast(activeDay: string): boolean;
}

/** What the journal holds of the orders the book no longer keeps. */
export interface OrderLoader {
  /** A finished order read back with its deals; undefined for an id the journal does not hold. */
  read(id: string): OrderRecord | undefined;
  /** Orders by id (of an account, when given) in the journal's order (placed, then written); ids it lacks left out. */
  readMany?(ids: readonly string[], accountKey?: string): OrderRecord[];
  /** Whether the journal holds an order of this id, without reading it. */
  holds(id: string): boolean;
}

export class OrderBook {
  /**
   * In placing order: the working orders and today's finished ones, of which only the last to finish when a journal
   * can list the others back (FinishedToday).
   */
  private readonly records = new Map<string, OrderRecord>();
  private readonly working = new Set<OrderRecord>();
  /** Which of today's finished orders stay in memory, and the others by id. */
  private readonly finished: FinishedToday;
  private counter = 0;
  private loader: OrderLoader | undefined;
  /** Counts what may change list(): every order kept, a new day, a reset. */
  private changes = 0;

  /** `taken`: whether an id is used by something else (a combo), so it is never handed out twice. */
  constructor(
    private readonly taken: (id: string) => boolean,
    private readonly days: OrderDays,
  ) {
    this.finished = new FinishedToday(days);
  }

  /** An order in memory, else a finished one read back from the journal (not kept). */
  get(id: string): OrderRecord | undefined {
    const read = this.records.get(id) ?? this.loader?.read(id);
    return read && !this.records.has(id) ? this.finished.wasReadBack(read) : read;
  }

  /** Whether an order belongs in the day's list: it is working, or changed on its market's current day. */
  isLive(record: OrderRecord): boolean {
    return !isFinalStatus(record.trade.status.status) || !this.days.isPast(this.days.lastActiveDay(record));
  }

  /**
   * Keeps an order, and in the working set while it can still trade, so that no pass walks finished orders. Today's
   * finished orders beyond the last FinishedToday.keptAtMost leave memory (when a journal can give them back) and are
   * listed by id; one of a past day (read back from the journal, or finished after its day) is not kept.
   */
  remember(record: OrderRecord): void {
    this.forgetPastDays();
    this.changes++;
    const { id } = record.trade.order;
    if (!isFinalStatus(record.trade.status.status)) {
      this.working.add(record);
      this.records.set(id, record);
      return;
    }
    this.working.delete(record);
    const day = this.days.lastActiveDay(record);
    if (this.days.isPast(day)) this.records.delete(id);
    else {
      this.records.set(id, record);
      if (this.loader?.readMany === undefined) return;
      for (const leaving of this.finished.keep(record, day)) this.records.delete(leaving);
    }
  }

  /** Once per day: forgets the finished orders of earlier days, which the journal holds. */
  private forgetPastDays(): void {
    if (!this.finished.turned()) return;
    this.changes++;
    for (const [id, record] of this.records) if (!this.isLive(record)) this.records.delete(id);
  }

  /** What the book holds: orders in memory, and today's finished orders listed by id (read back for the list). */
  held(): { inMemory: number; listedById: number } {
    return { inMemory: this.records.size, listedById: this.finished.count };
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
    const kept = [...this.records.values()].filter((record) => accountKey === null || record.accountKey === accountKey);
    const { loader } = this;
    if (loader?.readMany === undefined || this.finished.count === 0) return kept;
    // In the journal's order, which is the placing order, as the book's is.
    const read = loader.readMany(this.finished.ids(), accountKey ?? undefined);
    return byPlacing(
      read.map((record) => this.finished.wasReadBack(record)),
      kept,
    );
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
    this.finished.clear();
    this.counter = issued;
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

/** Two lists in placing order merged into one; at the same instant, those that left memory first (they finished first). */
function byPlacing(readBack: OrderRecord[], kept: OrderRecord[]): OrderRecord[] {
  const merged: OrderRecord[] = [];
  let k = 0;
  for (const record of readBack) {
    while (k < kept.length && kept[k]!.placedAt < record.placedAt) merged.push(kept[k++]!);
    merged.push(record);
  }
  return merged.concat(kept.slice(k));
}
