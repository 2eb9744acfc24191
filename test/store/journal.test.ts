import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import {
  type CashEntry,
  Journal,
  JournalError,
  type StoredDeal,
  type StoredEvent,
  type StoredOrder,
} from '../../src/store/journal.js';
import { SCHEMA_VERSION } from '../../src/store/schema.js';

const T0 = Date.UTC(2025, 5, 2, 1, 0, 0);
const tempDirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sjgate-journal-'));
  tempDirs.push(dir);
  return dir;
}

after(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

function order(id: string, overrides: Partial<StoredOrder> = {}): StoredOrder {
  return {
    id,
    accountKey: 'S1',
    code: '2330',
    status: 'Submitted',
    placedAt: T0,
    updatedAt: T0,
    open: true,
    record: { id, price: 580.5, quantity: 2, tags: ['a', null] },
    ...overrides,
  };
}

function deal(orderId: string, seq: number, overrides: Partial<StoredDeal> = {}): StoredDeal {
  return {
    orderId,
    seq,
    accountKey: 'S1',
    code: '2330',
    action: 'Buy',
    price: 580.5,
    quantity: 1,
    at: T0 + seq,
    record: { exchange_seq: `X${seq}` },
    ...overrides,
  };
}

function event(at: number, accountKey = 'S1'): Omit<StoredEvent, 'seq'> {
  return { at, kind: 'StockOrder', accountKey, payload: { state: 'StockOrder', data: { at } } };
}

function cash(amount: number, overrides: Partial<CashEntry> = {}): CashEntry {
  return { accountKey: 'S1', at: T0, amount, reason: 'deposit', ref: null, settleDate: null, ...overrides };
}

describe('orders', () => {
  test('an order round-trips with its JSON record', () => {
    const journal = Journal.open(':memory:');
    journal.orders.save(order('A'));
    assert.deepEqual(journal.orders.get('A'), order('A'));
    assert.equal(journal.orders.get('missing'), undefined);
  });

  test('saving an order with the same id replaces it', () => {
    const journal = Journal.open(':memory:');
    journal.orders.save(order('A'));
    const filled = order('A', { status: 'Filled', updatedAt: T0 + 5, open: false, record: { filled: true } });
    journal.orders.save(filled);
    assert.deepEqual(journal.orders.get('A'), filled);
    assert.equal(journal.orders.list().length, 1);
  });

  test('orders come in placing order and filter by account, openness and time', () => {
    const journal = Journal.open(':memory:');
    journal.orders.save(order('late', { placedAt: T0 + 20 }));
    journal.orders.save(order('closed', { placedAt: T0 + 10, open: false }));
    journal.orders.save(order('other', { placedAt: T0 + 15, accountKey: 'F1' }));
    journal.orders.save(order('early', { placedAt: T0 }));
    const ids = (orders: StoredOrder[]) => orders.map((o) => o.id);
    assert.deepEqual(ids(journal.orders.list()), ['early', 'closed', 'other', 'late']);
    assert.deepEqual(ids(journal.orders.list({ accountKey: 'S1' })), ['early', 'closed', 'late']);
    assert.deepEqual(ids(journal.orders.list({ openOnly: true })), ['early', 'other', 'late']);
    assert.deepEqual(ids(journal.orders.list({ since: T0 + 10 })), ['closed', 'other', 'late']);
    assert.deepEqual(ids(journal.orders.list({ accountKey: 'S1', openOnly: true, since: T0 + 1 })), ['late']);
    assert.deepEqual(ids(journal.orders.list({ openOnly: false })), ids(journal.orders.list()));
  });

  test('status changes are kept per order in the order they happened', () => {
    const journal = Journal.open(':memory:');
    journal.orders.save(order('A'));
    journal.orders.save(order('B'));
    journal.orders.addStatusChange('A', T0, 'PendingSubmit', '');
    journal.orders.addStatusChange('B', T0 + 1, 'Failed', 'price out of limits');
    journal.orders.addStatusChange('A', T0, 'Submitted', 'accepted');
    assert.deepEqual(journal.orders.statusChanges('A'), [
      { at: T0, status: 'PendingSubmit', message: '' },
      { at: T0, status: 'Submitted', message: 'accepted' },
    ]);
    assert.deepEqual(journal.orders.statusChanges('B'), [
      { at: T0 + 1, status: 'Failed', message: 'price out of limits' },
    ]);
    assert.deepEqual(journal.orders.statusChanges('none'), []);
  });

  test('a status change or a deal of an order never saved is refused', () => {
    const journal = Journal.open(':memory:');
    assert.throws(() => journal.orders.addStatusChange('ghost', T0, 'Submitted', ''), /FOREIGN KEY/);
    assert.throws(() => journal.orders.addDeal(deal('ghost', 1)), /FOREIGN KEY/);
  });
});

describe('rows that do not parse', () => {
  test('are told to the caller and left out of orders and deals; without a caller they throw', {
    timeout: 10_000,
  }, () => {
    const path = join(tempDir(), 'journal.db');
    const journal = Journal.open(path);
    journal.orders.save(order('A'));
    journal.orders.save(order('B', { placedAt: T0 + 1 }));
    journal.orders.addDeal(deal('A', 1));
    journal.orders.addDeal(deal('A', 2));
    const db = new Database(path);
    db.prepare(`UPDATE orders SET record = '{"id": "B", "pri' WHERE id = 'B'`).run();
    db.prepare(`UPDATE deals SET record = 'not json' WHERE order_id = 'A' AND seq = 2`).run();
    db.close();
    const told: [string, string][] = [];
    const tell = (row: string, reason: string) => told.push([row, reason]);
    assert.deepEqual(journal.orders.list({}, tell), [order('A')]);
    assert.deepEqual(journal.orders.deals({}, tell), [deal('A', 1)]);
    assert.deepEqual(
      told.map(([row]) => row),
      ['order B', 'deal 2 of order A'],
    );
    assert.match(told[0]![1], /^its JSON does not parse \(/);
    assert.throws(() => journal.orders.list(), SyntaxError);
    journal.close();
  });
});

describe('deals', () => {
  test('deals round-trip and filter by account, order and time', () => {
    const journal = Journal.open(':memory:');
    journal.orders.save(order('A'));
    journal.orders.save(order('B', { accountKey: 'F1', code: 'TXFF5' }));
    const a1 = deal('A', 1, { at: T0 + 1 });
    const b1 = deal('B', 1, { at: T0 + 2, accountKey: 'F1', code: 'TXFF5', action: 'Sell', price: 21500 });
    const a2 = deal('A', 2, { at: T0 + 3, quantity: 3 });
    for (const d of [a1, b1, a2]) journal.orders.addDeal(d);
    assert.deepEqual(journal.orders.deals(), [a1, b1, a2]);
    assert.deepEqual(journal.orders.deals({ orderId: 'A' }), [a1, a2]);
    assert.deepEqual(journal.orders.deals({ accountKey: 'F1' }), [b1]);
    assert.deepEqual(journal.orders.deals({ since: T0 + 2 }), [b1, a2]);
    assert.deepEqual(journal.orders.deals({ accountKey: 'S1', orderId: 'A', since: T0 + 2 }), [a2]);
  });

  test('a deal seq is used once per order', () => {
    const journal = Journal.open(':memory:');
    journal.orders.save(order('A'));
    journal.orders.addDeal(deal('A', 1));
    assert.throws(() => journal.orders.addDeal(deal('A', 1)), /UNIQUE/);
  });
});

describe('events', () => {
  test('events get strictly increasing seqs and are read after a seq', () => {
    const journal = Journal.open(':memory:');
    assert.equal(journal.events.lastSeq(), 0);
    const seqs = [event(T0), event(T0 + 1, 'F1'), event(T0 + 2), event(T0 + 3, 'X9')].map((e) =>
      journal.events.append(e),
    );
    assert.deepEqual(seqs, [1, 2, 3, 4]);
    assert.equal(journal.events.lastSeq(), 4);
    assert.deepEqual(journal.events.after(0)[1], { seq: 2, ...event(T0 + 1, 'F1') });
    assert.deepEqual(
      journal.events.after(1).map((e) => e.seq),
      [2, 3, 4],
    );
    assert.deepEqual(
      journal.events.after(0, { accountKeys: ['S1', 'F1'] }).map((e) => e.seq),
      [1, 2, 3],
    );
    assert.deepEqual(
      journal.events.after(1, { accountKeys: ['S1'], limit: 1 }).map((e) => e.seq),
      [3],
    );
    assert.deepEqual(
      journal.events.after(0, { limit: 2 }).map((e) => e.seq),
      [1, 2],
    );
    assert.deepEqual(journal.events.after(0, { accountKeys: [] }), []);
    assert.deepEqual(journal.events.after(4), []);
  });

  test('seqs keep increasing across a close and reopen, and are not reused after events are deleted', () => {
    const path = join(tempDir(), 'journal.db');
    const first = Journal.open(path);
    first.events.append(event(T0));
    first.events.append(event(T0 + 1));
    first.close();

    // Drop the newest event behind the journal's back: its seq must still never come again.
    const raw = new Database(path);
    raw.prepare('DELETE FROM events WHERE seq = 2').run();
    raw.close();

    const second = Journal.open(path);
    assert.equal(second.events.lastSeq(), 2);
    assert.equal(second.events.append(event(T0 + 2)), 3);
    assert.deepEqual(
      second.events.after(0).map((e) => e.seq),
      [1, 3],
    );
    second.close();
  });
});

describe('cash', () => {
  test('entries round-trip with ids and balances sum them, by settle date when asked', () => {
    const journal = Journal.open(':memory:');
    const entries = [
      cash(1_000_000),
      cash(-580_500, { reason: 'buy', ref: 'A', settleDate: '2025-06-04' }),
      cash(-826, { reason: 'fee', ref: 'A', settleDate: '2025-06-04' }),
      cash(300_000, { reason: 'sell', ref: 'B', settleDate: '2025-06-05' }),
      cash(5, { accountKey: 'F1' }),
    ];
    const ids = entries.map((entry) => journal.ledger.addCashEntry(entry));
    assert.deepEqual(ids, [1, 2, 3, 4, 5]);
    assert.deepEqual(
      journal.ledger.cashEntries('S1'),
      entries.slice(0, 4).map((entry, i) => ({ ...entry, id: ids[i] })),
    );
    assert.equal(journal.ledger.cashBalance('S1'), 1_000_000 - 580_500 - 826 + 300_000);
    assert.equal(journal.ledger.cashBalance('S1', {}), journal.ledger.cashBalance('S1'));
    assert.equal(journal.ledger.cashBalance('S1', { settledBy: '2025-06-03' }), 1_000_000);
    assert.equal(journal.ledger.cashBalance('S1', { settledBy: '2025-06-04' }), 1_000_000 - 580_500 - 826);
    assert.equal(journal.ledger.cashBalance('S1', { settledBy: '2025-12-31' }), journal.ledger.cashBalance('S1'));
    assert.equal(journal.ledger.cashBalance('F1'), 5);
    assert.equal(journal.ledger.cashBalance('nobody'), 0);
  });

  test('an id given with a new entry is ignored', () => {
    const journal = Journal.open(':memory:');
    assert.equal(journal.ledger.addCashEntry({ ...cash(1), id: 99 }), 1);
  });

  test('settle dates must be YYYY-MM-DD, which is what makes them compare as dates', () => {
    const journal = Journal.open(':memory:');
    assert.throws(() => journal.ledger.addCashEntry(cash(1, { settleDate: '2025-6-4' })), RangeError);
    assert.throws(() => journal.ledger.cashBalance('S1', { settledBy: '20250604' }), RangeError);
    assert.deepEqual(journal.ledger.cashEntries('S1'), []);
  });
});

describe('positions', () => {
  test('positions upsert by account and key, list in key order, and a null record deletes', () => {
    const journal = Journal.open(':memory:');
    journal.ledger.savePosition({ accountKey: 'S1', key: '2330|Buy|Cash', record: { quantity: 2 } });
    journal.ledger.savePosition({ accountKey: 'S1', key: '2317|Buy|Cash', record: { quantity: 1 } });
    journal.ledger.savePosition({ accountKey: 'F1', key: 'TXFF5|Sell|', record: { quantity: 1 } });
    journal.ledger.savePosition({ accountKey: 'S1', key: '2330|Buy|Cash', record: { quantity: 3 } });
    assert.deepEqual(journal.ledger.positions('S1'), [
      { accountKey: 'S1', key: '2317|Buy|Cash', record: { quantity: 1 } },
      { accountKey: 'S1', key: '2330|Buy|Cash', record: { quantity: 3 } },
    ]);
    assert.deepEqual(
      journal.ledger.positions().map((p) => p.accountKey),
      ['F1', 'S1', 'S1'],
    );
    journal.ledger.savePosition({ accountKey: 'S1', key: '2317|Buy|Cash', record: null });
    journal.ledger.savePosition({ accountKey: 'S1', key: 'never-held', record: null });
    assert.deepEqual(
      journal.ledger.positions('S1').map((p) => p.key),
      ['2330|Buy|Cash'],
    );
  });
});

describe('checkpoints and archived rows', () => {
  const row = (accountKey: string, id: number, date: string) => ({ accountKey, id, date, body: `${accountKey}#${id}` });

  test('rows archived with a checkpoint are read by account, date range and id, up to the id trusted; bad dates refused', () => {
    const journal = Journal.open(':memory:');
    const checkpoint = { takenAt: T0, before: T0, lastDealRowid: 0, deals: 0, state: 'one' };
    journal.checkpoints.save(checkpoint, [
      row('S1', 1, '2025-06-02'),
      row('S1', 2, '2025-06-03'),
      row('F1', 1, '2025-06-03'),
    ]);
    journal.checkpoints.save({ ...checkpoint, state: 'two' }, [
      { ...row('S1', 2, '2025-06-03'), body: 'again' },
      row('S1', 3, '2025-06-04'),
    ]);
    assert.equal(journal.checkpoints.latest()?.state, 'two');
    assert.deepEqual(journal.checkpoints.archivedWithin('S1', '2025-06-01', '2025-06-30', 3), [
      'S1#1',
      'again',
      'S1#3',
    ]);
    assert.deepEqual(journal.checkpoints.archivedWithin('S1', '2025-06-03', '2025-06-03', 3), ['again']);
    assert.deepEqual(journal.checkpoints.archivedWithin('S1', '2025-06-01', '2025-06-30', 2), ['S1#1', 'again']);
    assert.deepEqual(journal.checkpoints.archivedWithin('F1', '2025-06-01', '2025-06-30', 1), ['F1#1']);
    assert.equal(journal.checkpoints.archivedById('S1', 3, 3), 'S1#3');
    assert.equal(journal.checkpoints.archivedById('S1', 3, 2), undefined, 'beyond the trusted id');
    assert.equal(journal.checkpoints.archivedById('F1', 2, 5), undefined);
    assert.throws(() => journal.checkpoints.save({ ...checkpoint, state: 'bad' }, [row('S1', 4, '2025-6-5')]), /date/);
    assert.equal(journal.checkpoints.latest()?.state, 'two', 'a bad row refuses its checkpoint');
    journal.close();
  });

  test("a checkpoint's lots: appended from a lot on, replaced from 0, dropped with their position, in one transaction", () => {
    const journal = Journal.open(':memory:');
    const checkpoint = { takenAt: T0, before: T0, lastDealRowid: 0, deals: 0, state: 'one' };
    const lots = (openPositionIds: number[], ...written: [number, number, string][]) => [
      {
        accountKey: 'S1',
        openPositionIds,
        written: written.map(([positionId, firstLot, body]) => ({ positionId, firstLot, body })),
      },
    ];
    journal.checkpoints.save(checkpoint, [], lots([1, 2], [1, 0, 'a'], [2, 0, 'x']));
    journal.checkpoints.save(checkpoint, [], lots([1, 2], [1, 3, 'b'], [1, 5, 'c']));
    assert.deepEqual(journal.checkpoints.lotsOf('S1', 1), ['a', 'b', 'c']);
    journal.checkpoints.save(checkpoint, [], lots([1, 2], [1, 0, 'all']));
    assert.deepEqual(journal.checkpoints.lotsOf('S1', 1), ['all'], 'from lot 0 the rows before are replaced');
    assert.deepEqual(journal.checkpoints.lotsOf('S1', 2), ['x'], 'a position not written keeps its lots');
    journal.checkpoints.save(checkpoint, [], lots([2]));
    assert.deepEqual(journal.checkpoints.lotsOf('S1', 1), [], 'a position no longer open loses its lots');
    assert.deepEqual(journal.checkpoints.lotsOf('S1', 2), ['x']);
    assert.deepEqual(journal.checkpoints.lotsOf('S2', 2), [], 'per account');
    assert.throws(() => journal.checkpoints.save(checkpoint, [row('S1', 9, 'bad')], lots([], [2, 0, 'y'])), /date/);
    assert.deepEqual(journal.checkpoints.lotsOf('S1', 2), ['x'], 'a refused checkpoint keeps the lots before it');
    journal.close();
  });
});

describe('idempotency keys and meta', () => {
  test('the first order remembered for an idempotency key wins', () => {
    const journal = Journal.open(':memory:');
    journal.orders.save(order('A'));
    journal.orders.save(order('B'));
    journal.idempotencyKeys.remember('client-1', 'A', T0);
    journal.idempotencyKeys.remember('client-1', 'B', T0 + 1);
    assert.deepEqual(journal.idempotencyKeys.orderFor('client-1'), { orderId: 'A', request: null });
    assert.equal(journal.idempotencyKeys.orderFor('client-2'), undefined);
  });

  test('meta values are set, replaced and read back', () => {
    const journal = Journal.open(':memory:');
    assert.equal(journal.meta.get('sim.seed'), undefined);
    journal.meta.set('sim.seed', '42');
    journal.meta.set('sim.seed', '43');
    assert.equal(journal.meta.get('sim.seed'), '43');
  });
});

describe('transactions', () => {
  test('a transaction returns its work and commits all of it', () => {
    const journal = Journal.open(':memory:');
    const seq = journal.transaction(() => {
      journal.orders.save(order('A'));
      journal.orders.addDeal(deal('A', 1));
      return journal.events.append(event(T0));
    });
    assert.equal(seq, 1);
    assert.equal(journal.orders.deals({ orderId: 'A' }).length, 1);
  });

  test('a transaction that throws leaves nothing behind, and the error comes out as thrown', () => {
    const journal = Journal.open(':memory:');
    const failure = new Error('matching blew up');
    assert.throws(
      () =>
        journal.transaction(() => {
          journal.orders.save(order('A'));
          journal.orders.addStatusChange('A', T0, 'Submitted', '');
          journal.orders.addDeal(deal('A', 1));
          journal.events.append(event(T0));
          journal.ledger.addCashEntry(cash(-100));
          journal.ledger.savePosition({ accountKey: 'S1', key: 'k', record: 1 });
          journal.idempotencyKeys.remember('k', 'A', T0);
          journal.meta.set('m', 'v');
          throw failure;
        }),
      (error) => error === failure,
    );
    assert.deepEqual(journal.orders.list(), []);
    assert.deepEqual(journal.orders.statusChanges('A'), []);
    assert.deepEqual(journal.orders.deals(), []);
    assert.deepEqual(journal.events.after(0), []);
    assert.deepEqual(journal.ledger.cashEntries('S1'), []);
    assert.deepEqual(journal.ledger.positions(), []);
    assert.equal(journal.idempotencyKeys.orderFor('k'), undefined);
    assert.equal(journal.meta.get('m'), undefined);
  });

  test('children may be written before their order inside a transaction, but the order must come', () => {
    const journal = Journal.open(':memory:');
    journal.transaction(() => {
      journal.orders.addDeal(deal('A', 1));
      journal.orders.save(order('A'));
    });
    assert.equal(journal.orders.deals().length, 1);
    assert.throws(() => journal.transaction(() => journal.orders.addDeal(deal('ghost', 1))), /FOREIGN KEY/);
    assert.equal(journal.orders.deals().length, 1);
  });

  test('a nested transaction joins the outer one: nothing is committed until the outer one is', () => {
    const journal = Journal.open(':memory:');
    assert.throws(() =>
      journal.transaction(() => {
        journal.transaction(() => journal.orders.save(order('inner')));
        journal.orders.save(order('outer'));
        throw new Error('outer fails after the inner one returned');
      }),
    );
    assert.deepEqual(journal.orders.list(), []);

    journal.transaction(() => {
      journal.transaction(() => journal.orders.save(order('inner')));
      journal.orders.save(order('outer'));
    });
    assert.deepEqual(
      journal.orders.list().map((o) => o.id),
      ['inner', 'outer'],
    );
  });

  test('asynchronous work is refused and rolled back', () => {
    const journal = Journal.open(':memory:');
    assert.throws(
      () =>
        journal.transaction(async () => {
          journal.orders.save(order('A'));
        }),
      /must be synchronous/,
    );
    assert.deepEqual(journal.orders.list(), []);
  });
});

describe('opening', () => {
  test('a file journal runs in WAL mode with full sync and keeps its data across reopening', () => {
    const path = join(tempDir(), 'journal.db');
    const journal = Journal.open(path);
    journal.orders.save(order('A'));
    journal.close();
    journal.close();

    const raw = new Database(path, { readonly: true });
    assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(raw.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    raw.close();

    const reopened = Journal.open(path);
    assert.deepEqual(reopened.orders.get('A'), order('A'));
    reopened.close();
  });

  test('a journal written by a newer sjgate is refused, not migrated', () => {
    const path = join(tempDir(), 'journal.db');
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    assert.throws(() => Journal.open(path), {
      name: 'JournalError',
      message: new RegExp(`journal at ${path} was written by a newer sjgate`),
    });
  });

  test('a file that is not a database gets a message that names it and says what to do', () => {
    const path = join(tempDir(), 'journal.db');
    writeFileSync(path, 'x'.repeat(8192));
    assert.throws(
      () => Journal.open(path),
      (error) =>
        error instanceof JournalError &&
        error.code === 'SQLITE_NOTADB' &&
        error.message.includes(`the file at ${path} is not an sjgate journal`) &&
        error.message.includes('move it aside'),
    );
  });

  test('a missing directory is named', () => {
    const path = join(tempDir(), 'absent', 'journal.db');
    assert.throws(() => Journal.open(path), { name: 'JournalError', message: /absent does not exist/ });
  });

  test('a journal locked by another process says so', () => {
    const path = join(tempDir(), 'journal.db');
    const journal = Journal.open(path, { busyTimeoutMs: 50 });
    const otherProcess = new Database(path);
    otherProcess.prepare('BEGIN IMMEDIATE').run();
    try {
      assert.throws(() => journal.orders.save(order('A')), {
        name: 'JournalError',
        code: 'SQLITE_BUSY',
        message: `the journal at ${path} is locked by another sjgate process: stop that process, or start this one with another SJ_HOME_PATH`,
      });
      assert.throws(() => journal.transaction(() => journal.orders.save(order('A'))), { code: 'SQLITE_BUSY' });
    } finally {
      otherProcess.prepare('ROLLBACK').run();
      otherProcess.close();
    }
    journal.orders.save(order('A'));
    assert.equal(journal.orders.list().length, 1);
    journal.close();
  });
});
