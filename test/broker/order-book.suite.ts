// The book keeps in memory only what is live: working orders, and those that changed on the current day unless a
// journal can list them back. A finished order of a past day is forgotten when the day changes, and read back from the
// journal by id when asked for.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FinishedToday } from '../../src/broker/sim/orders/finished-today.js';
import { OrderBook, type OrderLoader } from '../../src/broker/sim/orders/order-book.js';
import type { OrderRecord } from '../../src/broker/sim/orders/trade-records.js';

let placed = 0;

/** A record with only what the book reads: its id, account, status, when it was placed and the day it last changed. */
function order(id: string, status: string, day: string): OrderRecord {
  const record = { accountKey: 'S-1', trade: { order: { id }, status: { status } }, day, placedAt: ++placed };
  return record as unknown as OrderRecord;
}

/**
 * A book on a day with a journal (a Map in insertion order) that reads orders back by id; `listsBack`: it reads many
 * too, so that today's finished orders need not stay in memory.
 */
function bookOn(startDay: string, journal = new Map<string, OrderRecord>(), listsBack = false) {
  let today = startDay;
  const book = new OrderBook(() => false, {
    today: () => today,
    lastActiveDay: (record) => (record as unknown as { day: string }).day,
    isPast: (day) => day < today,
  });
  const reads: string[] = [];
  const loader: OrderLoader = {
    read: (id) => {
      reads.push(id);
      return journal.get(id);
    },
    holds: (id) => journal.has(id),
  };
  if (listsBack) {
    loader.readMany = (wanted) => {
      reads.push(`${wanted.length} ids`);
      const set = new Set(wanted);
      return [...journal.values()]
        .filter((record) => set.has(record.trade.order.id))
        .map((record) => structuredClone(record));
    };
  }
  book.reset(0, loader);
  return { book, reads, journal, moveTo: (day: string) => (today = day) };
}

const ids = (records: OrderRecord[]) => records.map((record) => record.trade.order.id);

describe('the order book keeps what is live', () => {
  test('a new day forgets the finished orders of the last one and keeps the working ones', () => {
    const { book, moveTo } = bookOn('2026-11-23');
    book.remember(order('a', 'Filled', '2026-11-23'));
    book.remember(order('b', 'Submitted', '2026-11-23'));
    book.remember(order('c', 'Cancelled', '2026-11-23'));
    assert.deepEqual(ids(book.list(null)), ['a', 'b', 'c']);
    moveTo('2026-11-24');
    assert.deepEqual(ids(book.list(null)), ['b']);
    book.remember(order('d', 'Filled', '2026-11-24'));
    assert.deepEqual(ids(book.list(null)), ['b', 'd']);
    assert.deepEqual(ids(book.workingNow()), ['b']);
  });

  test('growth is bounded by a day: after many days only the last day stays in memory', () => {
    const { book, moveTo } = bookOn('2026-01-01');
    for (let day = 1; day <= 30; day++) {
      const date = `2026-01-${String(day).padStart(2, '0')}`;
      moveTo(date);
      for (let i = 0; i < 100; i++) book.remember(order(`${day}-${i}`, 'Filled', date));
    }
    assert.equal(book.list(null).length, 100);
  });

  test('a forgotten order is read back from the journal by id, and asking does not keep it', () => {
    const journal = new Map([['old', order('old', 'Filled', '2026-11-20')]]);
    const { book, reads } = bookOn('2026-11-24', journal);
    assert.equal(book.get('old')?.trade.order.id, 'old');
    assert.equal(book.get('missing'), undefined);
    assert.deepEqual(reads, ['old', 'missing']);
    book.remember(book.get('old')!);
    assert.deepEqual(ids(book.list(null)), [], 'a finished order of a past day is not kept');
  });

  test('an id the journal holds is never handed out again', () => {
    const probe = bookOn('2026-11-24');
    const first = probe.book.nextIds().id;
    const { book } = bookOn('2026-11-24', new Map([[first, order(first, 'Filled', '2026-11-20')]]));
    assert.notEqual(book.nextIds().id, first);
  });
});

describe("with a journal that lists orders back, today's finished orders beyond a bound leave memory", () => {
  /** Journals an order as the gateway would (the latest state of each id) and hands it to the book. */
  function journaled(book: OrderBook, journal: Map<string, OrderRecord>, record: OrderRecord) {
    journal.set(record.trade.order.id, structuredClone(record));
    book.remember(record);
  }

  /** A book whose journal lists orders back, keeping at most `kept` finished orders of today in memory. */
  function boundedBook(kept: number) {
    const bound = FinishedToday.keptAtMost;
    FinishedToday.keptAtMost = kept;
    try {
      return bookOn('2026-11-24', new Map(), true);
    } finally {
      FinishedToday.keptAtMost = bound;
    }
  }

  test('the day lists them in placing order, read back or kept, working orders as the book holds them', () => {
    const { book, journal } = boundedBook(1);
    journaled(book, journal, order('0000000a', 'Filled', '2026-11-24'));
    const working = order('0000000b', 'Submitted', '2026-11-24');
    journaled(book, journal, working);
    journaled(book, journal, order('c-not-hex', 'Cancelled', '2026-11-24'));
    const listed = book.list(null);
    assert.deepEqual(ids(listed), ['0000000a', '0000000b', 'c-not-hex']);
    assert.equal(listed[1], working, "a working order is the book's own record, which trades");
    assert.deepEqual(book.held(), { inMemory: 2, listedById: 1 });
    working.trade.status.status = 'Filled';
    journaled(book, journal, working);
    assert.deepEqual(book.held(), { inMemory: 1, listedById: 2 });
    assert.deepEqual(ids(book.list(null)), ['0000000a', '0000000b', 'c-not-hex']);
  });

  test('memory stops growing at the bound whatever the orders finished today, and a new day forgets their ids', () => {
    const { book, journal, moveTo } = boundedBook(100);
    for (let i = 0; i < 5000; i++) {
      journaled(book, journal, order(i.toString(16).padStart(8, '0'), i % 2 ? 'Filled' : 'Cancelled', '2026-11-24'));
    }
    journaled(book, journal, order('ffffffff', 'Submitted', '2026-11-24'));
    assert.deepEqual(book.held(), { inMemory: 101, listedById: 4900 });
    assert.equal(book.list(null).length, 5001);
    moveTo('2026-11-25');
    assert.deepEqual(ids(book.list(null)), ['ffffffff']);
    assert.deepEqual(book.held(), { inMemory: 1, listedById: 0 });
  });

  test('an order read back by id and changed again is listed once', () => {
    const { book, journal } = boundedBook(0);
    journaled(book, journal, order('0000000a', 'Filled', '2026-11-24'));
    const readBack = book.get('0000000a')!;
    book.remember(readBack);
    book.remember(book.list(null)[0]!);
    assert.deepEqual(book.held(), { inMemory: 0, listedById: 1 });
    assert.deepEqual(ids(book.list(null)), ['0000000a']);
  });
});
