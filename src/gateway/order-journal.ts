// Group commit of order changes: every change a venue reports (the order, its status change, its new deals, its
// events, its ledger rows, the venue's own state) and every Idempotency-Key is queued, and the changes of one turn of
// the event loop are written in one journal transaction. Nothing is answered (durable()) or published to listeners
// before that transaction is committed and on disk (the disk's part runs off the event loop: Journal.synced).

import type { OrderUpdate, SavedOrders, VenueCheckpoint } from '../broker/port.js';
import { type Deal, isFinalStatus, type OrderEvent } from '../domain/orders.js';
import type { StoredCheckpoint } from '../store/checkpoint-table.js';
import type { Journal } from '../store/journal.js';

export interface JournaledOrderEvent {
  /** Strictly increasing, never reused, also across restarts: the SSE `id:`. */
  seq: number;
  /** `broker_id-account_id` of the account the event belongs to. */
  accountKey: string;
  event: OrderEvent;
}

/** The order an Idempotency-Key placed, and what the request asked for (compared with a retry's). */
export interface KeyedOrder {
  orderId: string;
  request: string | null;
}

/**
 * Named values a venue keeps beside its orders, changed by something that is not an order (a reserve, a position
 * settled at expiry), with the ledger rows that change booked, if any.
 */
export interface StateUpdate {
  state: Record<string, string>;
  ledger?: OrderUpdate['ledger'] | undefined;
}

export interface OrderJournalHooks {
  /** Called when a commit failed: nothing of its changes happened, so the venue must go back to the journal's state. */
  onFailedCommit: () => void;
  /** The trade JSON a finished order is kept with (TradeWire.ofFinished); none without. */
  finishedTradeJson?: ((record: unknown, deals: Deal[]) => string | null) | undefined;
}

const noTradeJson = () => null;

/** What the journal holds of an order that can still change: its status and how many deals. */
interface Written {
  status: string | undefined;
  deals: number;
}

/** What one transaction writes once, whoever changed it last: positions by account and key, the venue's state. */
interface Latest {
  positions: Map<string, OrderUpdate['ledger'][number]['positions'][number]>;
  state: Map<string, string>;
}
type Write = (latest: Latest) => JournaledOrderEvent[];

const NOTHING_WRITTEN: Written = { status: undefined, deals: 0 };

export class OrderJournal {
  private queue: Write[] = [];
  private waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  /** What the journal holds of each order that can still change, so its next write need not read it back. */
  private readonly written = new Map<string, Written>();
  /** The venue's state as the journal holds it, so a commit writes only what changed. */
  private readonly writtenState = new Map<string, string>();
  /** Idempotency keys of orders whose writes are still queued. */
  private readonly unwrittenKeys = new Map<string, KeyedOrder>();
  private readonly listeners = new Set<(event: JournaledOrderEvent) => void>();

  constructor(
    private readonly journal: Journal,
    private readonly hooks: OrderJournalHooks,
  ) {}

  /**
   * What the journal holds of the venue's orders, to hand back to it; forgets what is queued or known of open orders.
   * `leftOut` hears of every row that cannot be read. A finished order without deals that last changed before
   * `neededSince` is left in the journal (an algorithm's cancelled IOC orders are most of a long history): the venue
   * reads it back by id when asked.
   */
  load(leftOut: (row: string, reason: string) => void, neededSince?: number, withCheckpoint = true): SavedOrders {
    this.written.clear();
    this.unwrittenKeys.clear();
    this.writtenState.clear();
    const { journal } = this;
    const checkpoint = withCheckpoint ? matchingCheckpoint(journal, leftOut) : undefined;
    // Past the checkpoint an order with deals is needed only for its deals after it.
    const dealsAfterRowid = neededSince === undefined ? undefined : checkpoint?.lastDealRowid;
    const needed =
      neededSince === undefined ? {} : { neededSince, ...(dealsAfterRowid === undefined ? {} : { dealsAfterRowid }) };
    const orders = journal.orders.list(needed, leftOut);
    for (const { id, status, open } of orders) if (open) this.written.set(id, { status, deals: 0 });
    const ofNeededOrders =
      neededSince !== undefined && dealsAfterRowid !== undefined ? { neededSince, dealsAfterRowid } : undefined;
    const deals = coveredDeals(
      journal.orders.deals(ofNeededOrders ? { ofNeededOrders } : {}, leftOut),
      checkpoint && journal.checkpoints.dealsAfter(checkpoint.lastDealRowid),
    );
    for (const { orderId, seq } of deals) {
      const known = this.written.get(orderId);
      if (known) known.deals = Math.max(known.deals, seq);
    }
    const state = (name: string) => {
      const value = this.journal.meta.get(name);
      if (value !== undefined) this.writtenState.set(name, value);
      return value;
    };
    // What a venue reads back of an order it no longer keeps. The queued changes are written first, so an order
    // forgotten before its last change was committed reads back whole.
    const order = (id: string) => {
      this.flushQuietly();
      const stored = this.journal.orders.get(id);
      return stored && { record: stored.record, deals: this.journal.orders.deals({ orderId: id }) };
    };
    const ordersById = (ids: readonly string[], accountKey?: string) => {
      this.flushQuietly();
      return this.journal.orders.byIds(ids, accountKey).map(({ stored, deals }) => ({ record: stored.record, deals }));
    };
    const everything = () => this.load(leftOut, neededSince, false);
    return {
      orders,
      deals,
      state,
      order,
      ordersById,
      holds: (id) => journal.orders.has(id),
      checkpoint: checkpoint && { before: checkpoint.before, state: checkpoint.state, everything },
      archive: {
        within: (accountKey, begin, end, through) =>
          journal.checkpoints.archivedWithin(accountKey, begin, end, through),
        byId: (accountKey, id, through) => journal.checkpoints.archivedById(accountKey, id, through),
      },
      lots: (accountKey, positionId) => journal.checkpoints.lotsOf(accountKey, positionId),
    };
  }

  /** The order an Idempotency-Key placed, whether its writes are queued or committed. */
  orderForKey(key: string): KeyedOrder | undefined {
    return this.unwrittenKeys.get(key) ?? this.journal.idempotencyKeys.orderFor(key);
  }

  /** Queues a change of an order, or only named values the venue keeps (its reserves), for the next commit. */
  queueUpdate(update: OrderUpdate | StateUpdate): void {
    this.queueWrite((latest) => {
      if ('order' in update) return this.write(update, latest);
      writeLedger(this.journal, update.ledger ?? [], latest);
      // The last value of a name wins, as the orders' state does.
      for (const [name, value] of Object.entries(update.state)) latest.state.set(name, value);
      return [];
    });
  }

  /** Writes the key with the next commit, which holds the order it placed (or a later one). */
  queueKey(key: string, keyed: KeyedOrder, at: number): void {
    this.unwrittenKeys.set(key, keyed);
    this.queueWrite(() => {
      this.journal.idempotencyKeys.remember(key, keyed.orderId, at, keyed.request);
      this.unwrittenKeys.delete(key);
      return [];
    });
  }

  private queueWrite(write: Write): void {
    this.queue.push(write);
    if (this.queue.length === 1) setImmediate(() => this.flushQuietly());
  }

  /** Writes every queued change in one transaction, then answers the waiting requests and tells the listeners. */
  flush(): void {
    if (this.queue.length === 0) return;
    const writes = this.queue;
    const waiting = this.waiting;
    this.queue = [];
    this.waiting = [];
    let journaled: JournaledOrderEvent[];
    const latest: Latest = { positions: new Map(), state: new Map() };
    try {
      journaled = this.journal.transaction(() => {
        const written = writes.flatMap((write) => write(latest));
        // Once per transaction, not per change: the last state of a position, of each value the venue keeps.
        for (const position of latest.positions.values()) this.journal.ledger.savePosition(position);
        for (const [name, value] of latest.state) {
          if (this.writtenState.get(name) !== value) this.journal.meta.set(name, value);
        }
        return written;
      });
      for (const [name, value] of latest.state) this.writtenState.set(name, value);
    } catch (error) {
      this.hooks.onFailedCommit();
      for (const waiter of waiting) waiter.reject(error);
      throw error;
    }
    this.journal.synced().then(
      () => answer(waiting, journaled, this.listeners),
      (error: unknown) => {
        for (const waiter of waiting) waiter.reject(error);
      },
    );
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
    // A commit made meanwhile (a flush called directly) may still be on its way to the disk.
    if (this.queue.length === 0) return this.journal.synced();
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  eventsAfter(seq: number, limit?: number): JournaledOrderEvent[] {
    this.flushQuietly();
    return this.journal.events
      .after(seq, limit === undefined ? {} : { limit })
      .map((stored) => ({ seq: stored.seq, accountKey: stored.accountKey, event: stored.payload as OrderEvent }));
  }

  lastEventSeq(): number {
    this.flushQuietly();
    return this.journal.events.lastSeq();
  }

  onOrderEvent(listener: (event: JournaledOrderEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private write(change: OrderUpdate, latest: Latest): JournaledOrderEvent[] {
    const { journal } = this;
    const { id, accountKey, code, placedAt } = change.order;
    const { status, msg } = change.status;
    const now = change.at;
    const known =
      this.written.get(id) ??
      (change.placed
        ? NOTHING_WRITTEN
        : { status: journal.orders.get(id)?.status, deals: journal.orders.deals({ orderId: id }).length });
    const open = !isFinalStatus(status);
    const record = change.record();
    const tradeJson = this.hooks.finishedTradeJson ?? noTradeJson;
    const wire = open
      ? null
      : tradeJson(
          record,
          change.deals.map(({ deal }) => deal),
        );
    journal.orders.save(
      { id, accountKey, code, placedAt: Math.round(placedAt), status, updatedAt: now, open, record },
      wire,
    );
    if (known.status !== status) journal.orders.addStatusChange(id, now, status, msg);
    const stored = known.deals;
    // A finished order rarely changes again: if it does, its next write reads what it needs back.
    if (open) this.written.set(id, { status, deals: change.deals.length });
    else this.written.delete(id);
    change.deals.slice(stored).forEach(({ code: dealCode, action, deal }, i) => {
      const { price, quantity } = deal;
      const at = Math.round(deal.ts * 1000);
      journal.orders.addDeal({
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
    writeLedger(journal, change.ledger, latest);
    for (const [name, value] of Object.entries(change.state ?? {})) latest.state.set(name, value);
    return change.events.map((event) => ({
      seq: journal.events.append({ at: now, kind: event.state, accountKey, payload: event }),
      accountKey,
      event,
    }));
  }
}

/** Once a commit is on disk: answers the requests that waited for it, then tells the listeners of its events. */
function answer(
  waiting: { resolve: () => void }[],
  journaled: JournaledOrderEvent[],
  listeners: Iterable<(event: JournaledOrderEvent) => void>,
): void {
  for (const waiter of waiting) waiter.resolve();
  for (const event of journaled) for (const listener of listeners) listener(event);
}

/** Writes a change's cash entries now and keeps its positions for the end of the transaction (the last state wins). */
function writeLedger(journal: Journal, ledger: OrderUpdate['ledger'], latest: Latest): void {
  for (const changes of ledger) {
    for (const entry of changes.cash) journal.ledger.addCashEntry(entry);
    for (const position of changes.positions) {
      latest.positions.set(`${position.accountKey}\u0000${position.key}`, position);
    }
  }
}

/**
 * Keeps a venue's derived state as the journal's checkpoint, covering every deal the journal holds: call it with
 * nothing queued (after a flush), from a state that has booked them all. One the journal holds already (the same
 * deals, the same state, nothing to archive or keep: a start after a clean stop) is not written again.
 */
export function keepCheckpoint(
  journal: Journal,
  { state, archive, lots }: Pick<VenueCheckpoint, 'state' | 'archive' | 'lots'>,
  takenAt: number,
): void {
  const counted = journal.transaction(() => {
    const last = journal.checkpoints.lastDeal();
    const lastDealRowid = last?.rowid ?? 0;
    const deals = journal.checkpoints.dealsThrough(lastDealRowid);
    const checkpoint = { takenAt, before: last?.after ?? 0, lastDealRowid, deals, state };
    const nothingNew = archive.length === 0 && !lots?.some((account) => account.written.length > 0);
    if (!nothingNew || !sameCheckpoint(journal.checkpoints.latest(), checkpoint)) {
      journal.checkpoints.save(checkpoint, archive, lots);
    }
    return { lastDealRowid, deals };
  });
  // The next checkpoint counts only the deals after this one's.
  journal.checkpoints.counted(counted.lastDealRowid, counted.deals);
}

/** Whether a checkpoint kept says all another says (when it was taken aside). */
function sameCheckpoint(kept: StoredCheckpoint | undefined, checkpoint: StoredCheckpoint): boolean {
  if (!kept) return false;
  const { lastDealRowid, deals, before, state } = checkpoint;
  return kept.lastDealRowid === lastDealRowid && kept.deals === deals && kept.before === before && kept.state === state;
}

/** The journal's latest checkpoint, if the deals up to its last are still the ones it covered. */
function matchingCheckpoint(
  journal: Journal,
  leftOut: (row: string, reason: string) => void,
): { before: number; lastDealRowid: number; state: string } | undefined {
  const latest = journal.checkpoints.latest();
  if (!latest) return undefined;
  const { lastDealRowid } = latest;
  if (lastDealRowid === null) {
    leftOut('the checkpoint', 'it was written by an older build, which did not name its last deal');
    return undefined;
  }
  const held = journal.checkpoints.dealsThrough(lastDealRowid);
  if (held === latest.deals) {
    // The checkpoint written once the venue booked what it was handed counts only the deals after this one's.
    journal.checkpoints.counted(lastDealRowid, held);
    return { before: latest.before, lastDealRowid, state: latest.state };
  }
  leftOut('the checkpoint', `it covers ${latest.deals} deals up to row ${lastDealRowid}, the journal holds ${held}`);
  return undefined;
}

/**
 * The deals (read for this load: marked in place), each marked `covered` when a checkpoint is handed back and it is
 * not one of the deals after it (after a clean stop there are none).
 */
function coveredDeals<T extends { orderId: string; seq: number; covered?: boolean }>(
  deals: T[],
  after: { orderId: string; seq: number }[] | undefined,
): T[] {
  if (after === undefined) return deals;
  const key = (deal: { orderId: string; seq: number }) => `${deal.orderId}\u0000${deal.seq}`;
  const notCovered = after.length === 0 ? undefined : new Set(after.map(key));
  for (const deal of deals) deal.covered = !notCovered?.has(key(deal));
  return deals;
}
