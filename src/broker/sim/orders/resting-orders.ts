// The life of an order at the exchange, shared by plain orders and combos: on arrival it takes what depth its limit
// allows (or, outside continuous trading, none), an IOC/FOK or market remainder is cancelled, and a ROD remainder
// rests behind the volume displayed at its price. Then it meets the tape's trades as the clock moves, and whatever is
// left when its trading day ends expires. What differs (which book and tape, the limit, how a fill is booked) comes
// from the order's kind through a RestingKind.

import type { Action, OrderEvent, OrderType } from '../../../domain/orders.js';
import { displayedAt, type Fill, meetTrade, type TapeTrade, takeOnArrival } from '../exchange/matching.js';
import type { Book } from '../market/book.js';
import { publishedCount, type Tape } from '../market/tape.js';

/** What the engine keeps of an order between two passes. */
export interface RestingState {
  /** The day of the tape the order trades on, and how many of its trades it has met. */
  cursor: { day: string; count: number } | null;
  /** Volume at the order's price that trades before it. */
  queueAhead: number;
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
  /** The order's terms; `book` is given at arrival (a protective limit is set from it). */
  terms(record: R, book?: Book): RestingTerms;
  /** How many are still open. */
  open(record: R): number;
  /** Whether a trade of the tape is an auction's, which fills the whole queue at its price. */
  auction(record: R, tape: Tape, index: number): boolean;
  /** A call auction's trade as this order meets it (its fill at the uncross with the users' orders); else null. */
  callAuction?(record: R, tape: Tape, index: number): TapeTrade | null;
  fill(record: R, fills: Fill[], at: number): OrderEvent[];
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
  const book = kind.book(record, tape, count);
  const { action, orderType, limit } = kind.terms(record, book);
  const events: OrderEvent[] = [];
  if (takes) {
    const opposite = action === 'Buy' ? book.ask : book.bid;
    events.push(...kind.fill(record, takeOnArrival(opposite, action, limit, kind.open(record), orderType), at));
  }
  const immediate = orderType !== 'ROD' || limit === null;
  if (immediate && kind.open(record) > 0) {
    events.push(...kind.cancelRest(record, at, ''));
  } else if (limit !== null) {
    record.queueAhead = displayedAt(action === 'Buy' ? book.bid : book.ask, limit);
  }
  return events;
}

/** The tape's trades since the order's cursor, up to now; an order left open when its day ends expires. */
export function meetTape<R extends RestingState>(kind: RestingKind<R>, record: R, now: number): OrderEvent[] {
  const cursor = record.cursor;
  if (!cursor) return [];
  const events: OrderEvent[] = [];
  const tape = kind.tape(record, cursor.day);
  const upTo = publishedCount(tape, now);
  const { action, limit } = kind.terms(record);
  for (let k = cursor.count; k < upTo && kind.open(record) > 0; k++) {
    const trade = kind.callAuction?.(record, tape, k) ?? {
      price: tape.prices[k]!,
      volume: tape.volumes[k]!,
      auction: kind.auction(record, tape, k),
    };
    const met = meetTrade(
      { action, price: limit ?? 0, remaining: kind.open(record), queueAhead: record.queueAhead },
      trade,
    );
    record.queueAhead = met.queueAhead;
    if (met.fill) events.push(...kind.fill(record, [met.fill], tape.times[k]! / 1000));
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
