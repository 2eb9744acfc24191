// The life of an order at the exchange, shared by plain orders and combos: on arrival it takes what depth its limit
// allows (or, outside continuous trading, none), an IOC/FOK or market remainder is cancelled, and a ROD remainder
// rests behind the volume displayed at its price. Then it meets the tape's trades as the clock moves, and whatever is
// left when its trading day ends expires. What differs (which book and tape, the limit, how a fill is booked) comes
// from the order's kind through a RestingKind. A kind with a book memory leaves the depth it took missing until it
// refills and shares each tape trade's volume among the user's resting orders once (their caller meets them in
// priority); with a depth model (plain board lots) it walks the book past the five displayed levels.

import type { Action, OrderEvent, OrderType } from '../../../domain/orders.js';
import type { BookMemory, BookSideName } from '../exchange/book-memory.js';
import type { DepthModel } from '../exchange/depth-model.js';
import {
  displayedAt,
  type Fill,
  ladder,
  meetTrade,
  type TapeTrade,
  takeOnArrival,
  topOf,
} from '../exchange/matching.js';
import type { Book } from '../market/book.js';
import { publishedCount, type Tape } from '../market/tape.js';

/** What the engine keeps of an order between two passes. */
export interface RestingState {
  /** The day of the tape the order trades on, and how many of its trades it has met. */
  cursor: { day: string; count: number } | null;
  /** Volume at the order's price that trades before it. */
  queueAhead: number;
  /** When it joined the queue at its price (its time priority); absent in records of an older sjgate. */
  queuedAt?: number;
}

/** The user's memory of one tape's book: what their orders took from it and got of its trades. */
export interface BookOverlay {
  memory: BookMemory;
  /** The book's key in the memory: one per tape. */
  key: string;
  /** The latent depth past the displayed levels; null for a book with none (odd lots, combos). */
  model: DepthModel | null;
  /** How long it takes half of the depth taken at a price to come back. */
  halfLifeMs: number;
}

/** An order's terms as the engine reads them; they do not change while it meets the tape. */
export interface RestingTerms {
  action: Action;
  orderType: OrderType;
  /** The price it rests at; null for a market order, which never rests. */
  limit: number | null;
}

/** What one kind of order (plain or combo) tells the engine. */
export interface RestingKind<R extends RestingState> {
  dayAt(record: R, at: number): string;
  tape(record: R, day: string): Tape;
  /** The book at the order's arrival, from its tape. */
  book(record: R, tape: Tape, count: number): Book;
  /** The memory of the tape's book, when the kind has one: without, the displayed book is all there is. */
  overlay?(record: R, tape: Tape): BookOverlay;
  /** The order's terms; `book` (the book it meets) is given at arrival: a protective limit is set from it. */
  terms(record: R, book?: () => Book): RestingTerms;
  /** How many are still open. */
  open(record: R): number;
  /** Whether a trade of the tape is an auction's, which fills the whole queue at its price. */
  auction(record: R, tape: Tape, index: number): boolean;
  /** A call auction's trade as this order meets it (its fill at the uncross with the users' orders); else null. */
  callAuction?(record: R, tape: Tape, index: number): TapeTrade | null;
  /** `taker`: the fills took depth on arrival (not a tape trade's volume). */
  fill(record: R, fills: Fill[], at: number, taker: boolean): OrderEvent[];
  cancelRest(record: R, at: number, reason: string): OrderEvent[];
  /** When the contract stops trading on a day before the day ends (13:30 of its last trading day), if it does. */
  tradingEndsAt?(record: R, day: string): number | undefined;
}

/** The order arrives: it takes depth when `takes` (continuous trading on its board), then rests or is cancelled. */
export function arrive<R extends RestingState>(kind: RestingKind<R>, record: R, at: number, takes: boolean) {
  const day = kind.dayAt(record, at);
  const tape = kind.tape(record, day);
  const count = publishedCount(tape, at);
  record.cursor = { day, count };
  record.queuedAt = at;
  const displayed = kind.book(record, tape, count);
  const overlay = kind.overlay?.(record, tape) ?? null;
  const levels = (side: BookSideName) => () => levelsNow(displayed, side, overlay, at);
  const book = () => (overlay ? { bid: topOf(levels('bid')()), ask: topOf(levels('ask')()) } : displayed);
  const { action, orderType, limit } = kind.terms(record, book);
  const events: OrderEvent[] = [];
  if (takes) {
    const opposite: BookSideName = action === 'Buy' ? 'ask' : 'bid';
    const fills = takeOnArrival(levels(opposite), action, limit, kind.open(record), orderType);
    if (overlay) {
      // Stamped as its deals are (in seconds), so that replaying them after a restart gives the same instant.
      const stamp = (at / 1000) * 1000;
      for (const fill of fills) {
        overlay.memory.take(overlay.key, opposite, fill.price, fill.quantity, stamp, overlay.halfLifeMs);
      }
    }
    events.push(...kind.fill(record, fills, at, true));
  }
  const immediate = orderType !== 'ROD' || limit === null;
  if (immediate && kind.open(record) > 0) {
    events.push(...kind.cancelRest(record, at, ''));
  } else if (limit !== null) {
    record.queueAhead = displayedAt(levels(action === 'Buy' ? 'bid' : 'ask')(), action, limit);
  }
  return events;
}

/** One side's levels at an instant: the displayed book, and with a memory the latent depth, less what was taken. */
function levelsNow(book: Book, side: BookSideName, overlay: BookOverlay | null, at: number): Iterable<Fill> {
  const taken = overlay
    ? (price: number) => overlay.memory.takenAt(overlay.key, side, price, at, overlay.halfLifeMs)
    : () => 0;
  return ladder(book[side], side === 'ask' ? 1 : -1, overlay?.model ?? null, taken);
}

/** The tape's trades since the order's cursor, up to now; an order left open when its day ends expires. */
export function meetTape<R extends RestingState>(kind: RestingKind<R>, record: R, now: number): OrderEvent[] {
  const cursor = record.cursor;
  if (!cursor) return [];
  const events: OrderEvent[] = [];
  const tape = kind.tape(record, cursor.day);
  const upTo = publishedCount(tape, now);
  const { action, limit } = kind.terms(record);
  const overlay = kind.overlay?.(record, tape) ?? null;
  const own: BookSideName = action === 'Buy' ? 'bid' : 'ask';
  for (let k = cursor.count; k < upTo && kind.open(record) > 0; k++) {
    // A call auction shares its own volume among the users' orders at the uncross; any other trade's volume that
    // the user's resting orders ahead of this one got is not there for it.
    const call = kind.callAuction?.(record, tape, k) ?? null;
    const shared = overlay && !call ? overlay.memory.shared(overlay.key, own, k) : 0;
    const trade = call ?? {
      price: tape.prices[k]!,
      volume: Math.max(0, tape.volumes[k]! - shared),
      auction: kind.auction(record, tape, k),
    };
    const met = meetTrade(
      { action, price: limit ?? 0, remaining: kind.open(record), queueAhead: record.queueAhead },
      trade,
    );
    record.queueAhead = met.queueAhead;
    if (!met.fill) continue;
    overlay?.memory.share(overlay.key, own, k, met.fill.quantity);
    events.push(...kind.fill(record, [met.fill], tape.times[k]! / 1000, false));
  }
  cursor.count = upTo;
  const endsAt = kind.tradingEndsAt?.(record, cursor.day);
  if (kind.open(record) > 0 && endsAt !== undefined && now >= endsAt) {
    events.push(...kind.cancelRest(record, now, 'the order expired when its contract stopped trading at expiry'));
  } else if (kind.open(record) > 0 && kind.dayAt(record, now) !== cursor.day) {
    events.push(...kind.cancelRest(record, now, 'the order expired at the end of its trading day'));
  }
  return events;
}
