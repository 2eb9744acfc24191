// The book keeps in memory only what is live: working orders and those that changed on the current day. A finished
// order of a past day is forgotten when the day changes, and read back from the journal by id when asked for.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OrderBook, type OrderLoader } from '../../src/broker/sim/orders/order-book.js';
import type { OrderRecord } from '../../src/broker/sim/orders/trade-records.js';

/** A record with only what the book reads: its id, account, status and the day it last changed. */
function order(id: string, status: string, day: string): OrderRecord {
  return { accountKey: 'S-1', trade: { order: { id }, status: { status } }, day } as unknown as OrderRecord;
}

function bookOn(startDay: string, journal = new Map<string, OrderRecord>()) {
  let today = startDay;
  const book = new OrderBook(() => false, {
    today: () => today,
    lastActiveBefore: (record) => (record as unknown as { day: string }).day < today,
  });
  const reads: string[] = [];
  const loader: OrderLoader = {
    read: (id) => {
      reads.push(id);
      return journal.get(id);
    },
    holds: (id) => journal.has(id),
  };
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
