// Group commit of order changes: every change (the order, its status change, its new deals, its events, its ledger
// rows, its Idempotency-Key) is queued, and the changes of one turn of the event loop are written in one journal
// transaction. Nothing is answered (durable()) or published to listeners before that transaction commits.

import { type Action, type Deal, isFinalStatus, type OrderEvent, type OrderStatus } from '../../../domain/orders.js';
import type { Journal } from '../../../store/journal.js';
import type { JournaledOrderEvent } from '../../port.js';
import type { LedgerChanges } from '../portfolio/ledger.js';

/** One change of an order or combo, as it is journaled. */
export interface JournaledChange {
  order: { id: string; accountKey: string; code: string; placedAt: number };
  status: { status: string; msg: string };
  /** The record as it is when the writes run: a later change in the same turn writes it again anyway. */
  record: () => unknown;
  /** Every deal of the order so far; those the journal holds already are skipped. */
  deals: { code: string; action: Action; deal: Deal }[];
  events: OrderEvent[];
  ledger: LedgerChanges[];
  idempotencyKey?: string | undefined;
  /** The order is new: the journal holds nothing of it yet. */
  placed: boolean;
  at: number;
}

/** What the journal holds of an order that can still change: its status and how many deals. */
interface Written {
  status: string | undefined;
  deals: number;
}

/** The positions a transaction writes, by account and key: only the last state of each is written. */
type PendingPositions = Map<string, LedgerChanges['positions'][number]>;
type Write = (positions: PendingPositions) => JournaledOrderEvent[];

const NOTHING_WRITTEN: Written = { status: undefined, deals: 0 };

export class OrderJournal {
  private queue: Write[] = [];
  private waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  /** What the journal holds of each order that can still change, so its next write need not read it back. */
  private readonly written = new Map<string, Written>();
  /** The order counter as the journal holds it; -1 when not known. */
  private writtenCounter = -1;
  /** Idempotency keys of orders whose writes are still queued. */
  private readonly unwrittenKeys = new Map<string, string>();
  private readonly listeners = new Set<(event: JournaledOrderEvent) => void>();

  constructor(
    private readonly journal: Journal,
    /** The order counter to write with a commit: how many ids were handed out. */
    private readonly counter: () => number,
    /** Called when a commit failed: nothing of its changes happened, so memory must go back to the journal's state. */
    private readonly onFailedCommit: () => void,
  ) {}

  /** The order counter the journal holds; forgets what is queued or known of open orders (at a load). */
  reset(): number {
    this.written.clear();
    this.unwrittenKeys.clear();
    this.writtenCounter = Number(this.journal.getMeta('order_counter') ?? '0');
    return this.writtenCounter;
  }

  /** Tells what the journal holds of an open order, read at a load. */
  knowOpen(id: string, status: string): void {
    this.written.set(id, { status, deals: 0 });
  }

  knowDeal(id: string, seq: number): void {
    const known = this.written.get(id);
    if (known) known.deals = Math.max(known.deals, seq);
  }

  /** The order an Idempotency-Key placed, whether its writes are queued or committed. */
  orderIdForKey(key: string): string | undefined {
    return this.unwrittenKeys.get(key) ?? this.journal.orderIdForIdempotencyKey(key);
  }

  queueChange(change: JournaledChange): void {
    const { id } = change.order;
    if (change.idempotencyKey) this.unwrittenKeys.set(change.idempotencyKey, id);
    this.queue.push((positions) => this.write(change, positions));
    if (this.queue.length === 1) setImmediate(() => this.flushQuietly());
  }

  /** Writes every queued change in one transaction, then answers the waiting requests and tells the listeners. */
  flush(): void {
    if (this.queue.length === 0) return;
    const counter = this.counter();
    const writes = this.queue;
    const waiting = this.waiting;
    this.queue = [];
    this.waiting = [];
    let journaled: JournaledOrderEvent[];
    try {
      journaled = this.journal.transaction(() => {
        const positions: PendingPositions = new Map();
        const written = writes.flatMap((write) => write(positions));
        // Once per transaction, not per change: the last state of a position, the counter of the ids handed out.
        for (const position of positions.values()) this.journal.savePosition(position);
        if (counter !== this.writtenCounter) this.journal.setMeta('order_counter', String(counter));
        return written;
      });
      this.writtenCounter = counter;
    } catch (error) {
      this.onFailedCommit();
      for (const waiter of waiting) waiter.reject(error);
      throw error;
    }
    for (const waiter of waiting) waiter.resolve();
    for (const event of journaled) for (const listener of this.listeners) listener(event);
  }

  /** Flushes, leaving a failure to the requests waiting on it (they were answered with the error). */
  flushQuietly(): void {
    try {
      this.flush();
    } catch {
      // answered
    }
  }

  /** Resolves once every change made so far is in the journal; rejects if writing it failed. */
  durable(): Promise<void> {
    if (this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  eventsAfter(seq: number, limit?: number): JournaledOrderEvent[] {
    this.flushQuietly();
    return this.journal
      .eventsAfter(seq, limit === undefined ? {} : { limit })
      .map((stored) => ({ seq: stored.seq, accountKey: stored.accountKey, event: stored.payload as OrderEvent }));
  }

  lastEventSeq(): number {
    this.flushQuietly();
    return this.journal.lastEventSeq();
  }

  onOrderEvent(listener: (event: JournaledOrderEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private write(change: JournaledChange, positions: PendingPositions): JournaledOrderEvent[] {
    const { journal } = this;
    const { id, accountKey, code, placedAt } = change.order;
    const { status, msg } = change.status;
    const now = change.at;
    const known =
      this.written.get(id) ??
      (change.placed
        ? NOTHING_WRITTEN
        : { status: journal.order(id)?.status, deals: journal.deals({ orderId: id }).length });
    const open = !isFinalStatus(status as OrderStatus);
    journal.saveOrder({
      id,
      accountKey,
      code,
      placedAt: Math.round(placedAt),
      status,
      updatedAt: now,
      open,
      record: change.record(),
    });
    if (known.status !== status) journal.addStatusChange(id, now, status, msg);
    const stored = known.deals;
    // A finished order rarely changes again: if it does, its next write reads what it needs back.
    if (open) this.written.set(id, { status, deals: change.deals.length });
    else this.written.delete(id);
    change.deals.slice(stored).forEach(({ code: dealCode, action, deal }, i) => {
      const { price, quantity } = deal;
      const at = Math.round(deal.ts * 1000);
      journal.addDeal({
        orderId: id,
        seq: stored + i + 1,
        accountKey,
        code: dealCode,
        action,
        price,
        quantity,
        at,
        record: deal,
      });
    });
    for (const changes of change.ledger) {
      for (const entry of changes.cash) journal.addCashEntry(entry);
      for (const position of changes.positions) positions.set(`${position.accountKey}\u0000${position.key}`, position);
    }
    const key = change.idempotencyKey;
    if (key) {
      journal.rememberIdempotencyKey(key, id, now);
      this.unwrittenKeys.delete(key);
    }
    return change.events.map((event) => ({
      seq: journal.appendEvent({ at: now, kind: event.state, accountKey, payload: event }),
      accountKey,
      event,
    }));
  }
}
