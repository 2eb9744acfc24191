// Open stock lots kept in the journal (issue 22): a restarted gateway holds only what each stock position's lots sum
// to, reads the lots when a deal closes them or position_detail asks, and answers to the dollar as one that kept every
// lot in memory. A journal of schema 6, whose checkpoint holds every lot in its state, is read and moved over.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import type { PackedRows } from '../../src/broker/sim/portfolio/packed-rows.js';
import { packRows, unpackRows } from '../../src/broker/sim/portfolio/packed-rows.js';
import type { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { taipeiInstant } from '../../src/domain/time.js';
import { SCHEMA_VERSION } from '../../src/store/schema.js';
import {
  booksOf,
  brokerAt,
  DAYS,
  firstDay,
  removeTradedJournal,
  replayedDuring,
  secondDay,
  stock,
  withTwoDaysOfTrading,
} from '../helpers/traded-journal.js';

const stockPositions = (broker: SimBroker) =>
  [...broker.orders.ledger.accounts.values()].filter((a) => a.type === 'S').flatMap((a) => [...a.stocks.values()]);

/** How many stock lots the ledger holds in memory, and how many the journal keeps for it. */
function lotsHeld(broker: SimBroker): { inMemory: number; stored: number } {
  const positions = stockPositions(broker);
  return {
    inMemory: positions.reduce((sum, p) => sum + p.lots.length, 0),
    stored: positions.reduce((sum, p) => sum + (p.stored?.count ?? 0), 0),
  };
}

/** What the stock account answers that open lots decide: positions, limits, balance, and each position's detail. */
function stockAnswers(broker: SimBroker) {
  const { portfolio } = broker;
  const S = { account_type: 'S' as const };
  const positions = portfolio.positions(S, 'Share') as { id: number }[];
  return {
    shares: portfolio.positions(S, 'Share'),
    common: portfolio.positions(S, 'Common'),
    limits: portfolio.tradingLimits(S),
    balance: portfolio.accountBalance(S),
    details: positions.map((p) => portfolio.positionDetail(S, p.id)),
  };
}

function liveBroker() {
  const live = brokerAt(DAYS[0], '10:00', ':memory:');
  firstDay(live.broker);
  live.clock.set(taipeiInstant(DAYS[1], '10:00'));
  secondDay(live.broker);
  live.clock.set(taipeiInstant(DAYS[2], '10:00'));
  return live;
}

describe('stock lots kept in the journal', () => {
  after(removeTradedJournal);

  test(
    'a restart keeps no lot in memory, reads them to close and for detail, and answers as the live books',
    withTwoDaysOfTrading(async (path) => {
      const restarted = brokerAt(DAYS[2], '10:00', path);
      const live = liveBroker();
      const held = lotsHeld(restarted.broker);
      assert.equal(held.inMemory, 0, 'the start checkpoint handed every lot to the journal');
      assert.equal(held.stored, lotsHeld(live.broker).inMemory);
      const { details, ...sums } = stockAnswers(restarted.broker);
      const { details: liveDetails, ...liveSums } = stockAnswers(live.broker);
      assert.deepEqual(sums, liveSums);
      assert.deepEqual(details, liveDetails);
      assert.ok(details.flat().length >= 3, 'lots of three positions');

      // Sales close the oldest lots first, those read back from the journal as those kept in memory.
      for (const { broker } of [restarted, live]) {
        stock(broker, '2330', 'Sell', 2, 'Cash');
        stock(broker, '2317', 'Buy', 1, 'ShortSelling');
        stock(broker, '2884', 'Buy', 1, 'MarginTrading');
      }
      assert.deepEqual(stockAnswers(restarted.broker), stockAnswers(live.broker));
      const range = { begin_date: DAYS[0], end_date: DAYS[2] };
      const pnl = (broker: SimBroker) => broker.portfolio.profitLoss({ account_type: 'S' }, range, 'Share');
      assert.deepEqual(pnl(restarted.broker), pnl(live.broker));

      // The close keeps them again: the next start reads them as they were left.
      const before = { books: booksOf(restarted.broker), answers: stockAnswers(restarted.broker) };
      await restarted.gateway.close();
      const again = replayedDuring(() => brokerAt(DAYS[2], '10:00', path));
      assert.equal(again.replayed, 0);
      assert.equal(lotsHeld(again.result.broker).inMemory, 0);
      assert.deepEqual(stockAnswers(again.result.broker), before.answers);
      await again.result.gateway.close();
      await live.gateway.close();
    }),
  );

  test(
    'lots opened after a checkpoint are appended to those it kept, without reading them',
    withTwoDaysOfTrading(async (path) => {
      const restarted = brokerAt(DAYS[2], '10:00', path);
      const live = liveBroker();
      for (const { broker } of [restarted, live]) stock(broker, '2884', 'Buy', 2, 'MarginTrading');
      assert.equal(lotsHeld(restarted.broker).inMemory, 1, 'a buy reads none of the lots kept');
      await restarted.gateway.close();
      const db = new Database(path, { readonly: true });
      const rows = db
        .prepare('SELECT first_lot AS firstLot FROM checkpoint_lots ORDER BY position_id, first_lot')
        .all();
      db.close();
      assert.ok(
        rows.some((row) => (row as { firstLot: number }).firstLot > 0),
        'a row from a later lot',
      );
      const again = brokerAt(DAYS[2], '10:00', path);
      assert.deepEqual(stockAnswers(again.broker), stockAnswers(live.broker));
      await again.gateway.close();
      await live.gateway.close();
    }),
  );

  test(
    'a schema-6 journal, whose checkpoint holds every lot, books no deal again and moves its lots over',
    withTwoDaysOfTrading(async (path) => {
      const first = brokerAt(DAYS[2], '10:00', path);
      const expected = { books: booksOf(first.broker), answers: stockAnswers(first.broker) };
      await first.gateway.close();
      toSchema6(path);

      const migrated = replayedDuring(() => brokerAt(DAYS[2], '10:00', path));
      assert.equal(migrated.replayed, 0, 'the version 3 checkpoint was read');
      assert.equal(lotsHeld(migrated.result.broker).inMemory, 0, 'its lots went to the journal at start');
      assert.deepEqual(booksOf(migrated.result.broker), expected.books);
      assert.deepEqual(stockAnswers(migrated.result.broker), expected.answers);
      await migrated.result.gateway.close();
      const db = new Database(path, { readonly: true });
      assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      db.close();
    }),
  );
});

/**
 * Rewrites the journal as schema 6 left it: the checkpoint (version 3) holds every stock lot in its state, and there
 * is no table of lots.
 */
function toSchema6(path: string): void {
  const db = new Database(path);
  try {
    const { id, state } = db.prepare('SELECT id, state FROM checkpoints').get() as { id: number; state: string };
    const saved = JSON.parse(state) as {
      version: number;
      accounts: { key: string; stocks: [string, { id: number; lots: PackedRows; stored?: unknown }][] }[];
    };
    const bodies = db.prepare(
      'SELECT body FROM checkpoint_lots WHERE account_key = ? AND position_id = ? ORDER BY first_lot',
    );
    for (const account of saved.accounts) {
      for (const [, position] of account.stocks) {
        const stored = (bodies.all(account.key, position.id) as { body: string }[]).flatMap(({ body }) =>
          unpackRows<object>(JSON.parse(body) as PackedRows),
        );
        position.lots = packRows([...stored, ...unpackRows<object>(position.lots)]);
        delete position.stored;
      }
    }
    saved.version = 3;
    db.prepare('UPDATE checkpoints SET state = ? WHERE id = ?').run(JSON.stringify(saved), id);
    db.exec('ALTER TABLE orders DROP COLUMN wire; DROP TABLE checkpoint_lots; PRAGMA user_version = 6;');
  } finally {
    db.close();
  }
}
