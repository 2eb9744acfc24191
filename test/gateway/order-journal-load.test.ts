// What a restart hands back to the venue: open orders, recent ones and those with deals; an old finished order
// without deals stays in the journal and is read back by id.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { keepCheckpoint, OrderJournal } from '../../src/gateway/order-journal.js';
import { Connection } from '../../src/store/connection.js';
import { Journal } from '../../src/store/journal.js';

const DAY_MS = 86_400_000;
const NOW = Date.UTC(2026, 10, 25, 2);

function journalWith(orders: { id: string; open: boolean; age: number; deals: number }[], into?: Journal) {
  const journal = into ?? Journal.open(':memory:');
  journal.transaction(() => {
    for (const { id, open, age, deals } of orders) {
      const at = NOW - age * DAY_MS;
      const record = { id, note: 'a venue record' };
      journal.orders.save({
        id,
        accountKey: 'S-1',
        code: '2330',
        status: open ? 'Submitted' : 'Cancelled',
        placedAt: at,
        updatedAt: at,
        open,
        record,
      });
      for (let seq = 1; seq <= deals; seq++) {
        const deal = {
          orderId: id,
          seq,
          accountKey: 'S-1',
          code: '2330',
          action: 'Buy' as const,
          price: 1,
          quantity: 1,
          at,
        };
        journal.orders.addDeal({ ...deal, record: { seq } });
      }
    }
  });
  return new OrderJournal(journal, { onFailedCommit: () => undefined });
}

describe('a restart hands back what the venue needs', () => {
  test('open, recent and dealt orders; an old finished order without deals only when asked for by id', () => {
    const orders = new OrderJournal(Journal.open(':memory:'), { onFailedCommit: () => undefined });
    assert.deepEqual(orders.load(() => undefined, NOW).orders, [], 'an empty journal');
    const journal = journalWith([
      { id: 'old-cancelled', open: false, age: 60, deals: 0 },
      { id: 'old-filled', open: false, age: 50, deals: 2 },
      { id: 'old-open', open: true, age: 40, deals: 0 },
      { id: 'recent-cancelled', open: false, age: 1, deals: 0 },
    ]);
    const saved = journal.load(() => undefined, NOW - 21 * DAY_MS);
    assert.deepEqual(
      saved.orders.map((order) => order.id),
      ['old-filled', 'old-open', 'recent-cancelled'],
    );
    assert.deepEqual(
      saved.deals.map((deal) => [deal.orderId, deal.seq]),
      [
        ['old-filled', 1],
        ['old-filled', 2],
      ],
    );
    assert.deepEqual(saved.order?.('old-cancelled'), {
      record: { id: 'old-cancelled', note: 'a venue record' },
      deals: [],
    });
    assert.equal(saved.holds?.('old-cancelled'), true);
    assert.equal(saved.holds?.('never-placed'), false);
    assert.equal(saved.order?.('never-placed'), undefined);
    assert.equal(journal.load(() => undefined).orders.length, 4, 'without a bound, every order');
  });

  test('a checkpoint covers the deals up to its last row: a deal of the same millisecond after it is booked', () => {
    const journal = Journal.open(':memory:');
    journalWith([{ id: 'before', open: false, age: 0, deals: 2 }], journal);
    keepCheckpoint(journal, { state: 'booked two', archive: [] }, NOW);
    // A deal stamped in the same millisecond as the last one the checkpoint covers, of another order.
    journalWith([{ id: 'after', open: false, age: 0, deals: 1 }], journal);
    const lines: string[] = [];
    const saved = new OrderJournal(journal, { onFailedCommit: () => undefined }).load(
      (row, reason) => lines.push(`${row}: ${reason}`),
      NOW,
    );
    assert.equal(lines.join('\n'), '');
    assert.equal(saved.checkpoint?.state, 'booked two');
    assert.deepEqual(
      saved.deals.map((deal) => [deal.orderId, deal.seq, deal.covered]),
      [
        ['before', 1, true],
        ['before', 2, true],
        ['after', 1, false],
      ],
    );
    journal.transaction(() => journal.orders.addDeal({ ...deal('before', 3), at: NOW - 1 }));
    const later = new OrderJournal(journal, { onFailedCommit: () => undefined }).load(
      (row, reason) => lines.push(`${row}: ${reason}`),
      NOW,
    );
    assert.equal(later.deals.find((d) => d.orderId === 'before' && d.seq === 3)?.covered, false);
    assert.equal(lines.join('\n'), '', 'a deal written after it, even with an earlier time, is simply not covered');
  });
});

describe('the deals a checkpoint covers are counted once per process', () => {
  /** The SQL of every statement the journal prepares or reuses while `work` runs. */
  function statementsDuring<T>(work: () => T): { result: T; sql: string[] } {
    const original = Connection.prototype.prepared;
    const sql: string[] = [];
    Connection.prototype.prepared = function (this: Connection, text: string) {
      sql.push(text);
      return original.call(this, text);
    };
    try {
      return { result: work(), sql };
    } finally {
      Connection.prototype.prepared = original;
    }
  }
  const countsEveryDeal = (sql: string[]) =>
    sql.filter((text) => text === 'SELECT count(*) AS count FROM deals').length;

  test('a start counts every deal to check the checkpoint, and its own checkpoint only the deals after it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-count-once-'));
    try {
      const path = join(dir, 'journal.db');
      const before = Journal.open(path);
      journalWith([{ id: 'first', open: false, age: 1, deals: 3 }], before);
      const first = statementsDuring(() => keepCheckpoint(before, { state: 'three', archive: [] }, NOW));
      assert.equal(countsEveryDeal(first.sql), 1, 'without a count known, every deal is counted');
      journalWith([{ id: 'second', open: false, age: 0, deals: 2 }], before);
      before.close();

      const journal = Journal.open(path);
      const lines: string[] = [];
      const start = statementsDuring(() => {
        const saved = new OrderJournal(journal, { onFailedCommit: () => undefined }).load(
          (row) => lines.push(row),
          NOW,
        );
        journalWith([{ id: 'third', open: false, age: 0, deals: 4 }], journal);
        keepCheckpoint(journal, { state: 'nine', archive: [] }, NOW);
        return saved;
      });
      assert.equal(lines.join('\n'), '');
      assert.equal(start.result.checkpoint?.state, 'three');
      assert.equal(countsEveryDeal(start.sql), 1, 'only the check of the checkpoint counts every deal');
      const latest = journal.checkpoints.latest()!;
      assert.deepEqual([latest.deals, latest.lastDealRowid], [9, 9], 'the count carried forward counts every deal');
      journal.close();
      const next = Journal.open(path);
      const checked = new OrderJournal(next, { onFailedCommit: () => undefined }).load((row) => lines.push(row), NOW);
      assert.equal(checked.checkpoint?.state, 'nine', 'the next start finds the count it carried right');
      assert.equal(lines.join('\n'), '');
      next.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a checkpoint the journal holds already', () => {
  test('is not written again; one with other deals, another state or a count that no longer matches is', () => {
    const journal = Journal.open(':memory:');
    journalWith([{ id: 'first', open: false, age: 1, deals: 2 }], journal);
    keepCheckpoint(journal, { state: 'two', archive: [] }, NOW);
    const takenAt = () => journal.checkpoints.latest()?.takenAt;
    keepCheckpoint(journal, { state: 'two', archive: [] }, NOW + 1);
    assert.equal(takenAt(), NOW, 'the same deals and state: kept as it was');
    keepCheckpoint(journal, { state: 'two, read again', archive: [] }, NOW + 2);
    assert.equal(takenAt(), NOW + 2, 'another state');
    journalWith([{ id: 'second', open: false, age: 0, deals: 1 }], journal);
    keepCheckpoint(journal, { state: 'two, read again', archive: [] }, NOW + 3);
    assert.deepEqual([takenAt(), journal.checkpoints.latest()?.deals], [NOW + 3, 3], 'a deal after it');
    const lots = [{ accountKey: 'S-1', openPositionIds: [1], written: [{ positionId: 1, firstLot: 0, body: 'a' }] }];
    keepCheckpoint(journal, { state: 'two, read again', archive: [], lots }, NOW + 4);
    assert.equal(takenAt(), NOW + 4, 'lots to keep');
    assert.deepEqual(journal.checkpoints.lotsOf('S-1', 1), ['a']);
    journal.checkpoints.save({ ...journal.checkpoints.latest()!, deals: 4 });
    keepCheckpoint(journal, { state: 'two, read again', archive: [] }, NOW + 5);
    assert.deepEqual([takenAt(), journal.checkpoints.latest()?.deals], [NOW + 5, 3], 'a count that does not match');
    journal.close();
  });
});

function deal(orderId: string, seq: number) {
  const fields = { accountKey: 'S-1', code: '2330', action: 'Buy' as const, price: 1, quantity: 1 };
  return { orderId, seq, ...fields, at: NOW, record: { seq } };
}
