// The ledger's checkpoint (issue 22): a restart puts back the state of the deals before it and books only the later
// ones, and that gives the same books, to the dollar, as booking every deal of the journal again.

import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { ledgerCheckpoint } from '../../src/broker/sim/portfolio/ledger-checkpoint.js';
import type { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { taipeiInstant } from '../../src/domain/time.js';
import {
  archivedRows,
  booksOf,
  brokerAt,
  copyWithoutCheckpoint,
  DAYS,
  dealsIn,
  editJournal,
  firstDay,
  futures,
  orderIds,
  removeTradedJournal,
  replayedDuring,
  secondDay,
  stock,
  withTwoDaysOfTrading,
} from '../helpers/traded-journal.js';

describe('the ledger checkpoint', () => {
  after(removeTradedJournal);

  test(
    'a restart books only the deals after it, and the books equal booking every deal again',
    withTwoDaysOfTrading(async (path, dir) => {
      const everyDeal = copyWithoutCheckpoint(path, dir);

      const full = replayedDuring(() => brokerAt(DAYS[2], '10:00', everyDeal));
      const fromCheckpoint = replayedDuring(() => brokerAt(DAYS[2], '10:00', path));
      assert.equal(full.replayed, dealsIn(path), 'without a checkpoint every deal of both days is booked');
      assert.ok(dealsIn(path, DAYS[1]) >= 5 && dealsIn(path, DAYS[1]) < dealsIn(path));
      assert.equal(fromCheckpoint.replayed, dealsIn(path, DAYS[1]), "with the first day's checkpoint, the second's");
      assert.deepEqual(booksOf(fromCheckpoint.result.broker), booksOf(full.result.broker));
      const ids = orderIds(path);
      assert.ok(ids.length >= 9);
      for (const id of ids) {
        const trade = fromCheckpoint.result.broker.orders.trade(id);
        assert.ok(trade, `order ${id} of a past day is read back by id`);
        assert.deepEqual(trade, full.result.broker.orders.trade(id));
      }
      await full.result.gateway.close();
      await fromCheckpoint.result.gateway.close();

      const again = replayedDuring(() => brokerAt(DAYS[2], '11:00', path));
      assert.equal(again.replayed, 0, 'the last run wrote a checkpoint of both days');
      const reference = brokerAt(DAYS[2], '11:00', everyDeal);
      assert.deepEqual(booksOf(again.result.broker), booksOf(reference.broker));
      await again.result.gateway.close();
      await reference.gateway.close();
    }),
  );

  test(
    'the books compacted in the checkpoint answer as those of a gateway that never restarted',
    withTwoDaysOfTrading(async (path) => {
      const restarted = brokerAt(DAYS[2], '10:00', path);
      const live = brokerAt(DAYS[0], '10:00', ':memory:');
      firstDay(live.broker);
      live.clock.set(taipeiInstant(DAYS[1], '10:00'));
      secondDay(live.broker);
      live.clock.set(taipeiInstant(DAYS[2], '10:00'));
      const { accounts: compacted, ...views } = booksOf(restarted.broker);
      const { accounts: whole, ...liveViews } = booksOf(live.broker);
      assert.deepEqual(views, liveViews);
      const cashEntries = (accounts: [string, { cash: unknown[] }][]) => accounts.flatMap(([, a]) => a.cash).length;
      assert.ok(cashEntries(compacted) < cashEntries(whole), 'the first days cash entries are carried in one');
      await restarted.gateway.close();
      await live.gateway.close();
    }),
  );

  test(
    'trading after a restart from a checkpoint books as it would have without one',
    withTwoDaysOfTrading(async (path, dir) => {
      const everyDeal = copyWithoutCheckpoint(path, dir);
      const books = [];
      for (const journal of [path, everyDeal]) {
        const { broker, gateway } = brokerAt(DAYS[2], '10:00', journal);
        stock(broker, '2330', 'Sell', 4, 'Cash');
        stock(broker, '2884', 'Sell', 3, 'MarginTrading');
        futures(broker, 'Sell', 1);
        books.push(booksOf(broker));
        await gateway.close();
      }
      assert.deepEqual(books[0], books[1]);
      const afterClose = replayedDuring(() => brokerAt(DAYS[2], '10:00', path));
      assert.equal(afterClose.replayed, 0, "the close wrote a checkpoint of the run's deals");
      assert.deepEqual(booksOf(afterClose.result.broker), books[0]);
      await afterClose.result.gateway.close();
    }),
  );

  test(
    'a checkpoint that no longer matches the deals, or cannot be read, is left out with a log line',
    withTwoDaysOfTrading(async (path, dir) => {
      const everyDeal = copyWithoutCheckpoint(path, dir);
      const expected = brokerAt(DAYS[2], '10:00', everyDeal);
      const expectedBooks = booksOf(expected.broker);
      await expected.gateway.close();

      for (const [edit, message] of [
        ['UPDATE checkpoints SET deals = deals + 1', /the checkpoint left out at load: it covers \d+ deals up to row/],
        ['UPDATE checkpoints SET state = \'{"version": 99}\'', /checkpoint left out at load \(every deal is booked/],
        ["UPDATE checkpoints SET state = 'not json'", /checkpoint left out at load \(every deal is booked/],
      ] as const) {
        const copy = join(dir, 'edited.db');
        copyFileSync(path, copy);
        editJournal(copy, edit);
        const lines: string[] = [];
        const restarted = replayedDuring(() => brokerAt(DAYS[2], '10:00', copy, (line) => lines.push(line)));
        assert.equal(restarted.replayed, dealsIn(copy), `${edit}: every deal is booked`);
        assert.ok(
          lines.some((line) => message.test(line)),
          `${edit}: logged ${JSON.stringify(lines)}`,
        );
        assert.deepEqual(booksOf(restarted.result.broker), expectedBooks);
        await restarted.result.gateway.close();
        rmSync(copy);
      }
      const latest = brokerAt(DAYS[2], '10:00', path);
      await latest.gateway.close();
      const lines: string[] = [];
      const clockSetBack = replayedDuring(() => brokerAt(DAYS[1], '10:00', path, (line) => lines.push(line)));
      assert.equal(clockSetBack.replayed, dealsIn(path), 'a clock before the compacted days books every deal');
      assert.ok(
        lines.some((line) => /it answers for 2026-11-24 and later/.test(line)),
        JSON.stringify(lines),
      );
      await clockSetBack.result.gateway.close();
    }),
  );

  test(
    'realized rows of past days leave memory for the journal, and answer to the dollar as the books that kept them',
    withTwoDaysOfTrading(async (path) => {
      // Two trading days after the second: its closings are of a day before the previous one, so they are archived.
      const later = '2026-11-27';
      const restarted = brokerAt(later, '10:00', path);
      const live = brokerAt(DAYS[0], '10:00', ':memory:');
      firstDay(live.broker);
      live.clock.set(taipeiInstant(DAYS[1], '10:00'));
      secondDay(live.broker);
      live.clock.set(taipeiInstant(later, '10:00'));

      const inMemory = (broker: SimBroker) =>
        [...broker.orders.ledger.accounts.values()].flatMap((a) => [...a.stockRealized, ...a.futureRealized]).length;
      assert.equal(inMemory(restarted.broker), 0, 'every realized row is of a past day: none is kept in memory');
      assert.ok(inMemory(live.broker) >= 4, 'the live books hold the expiry and the second day closings');
      assert.equal(archivedRows(path), inMemory(live.broker));

      const answers = (broker: SimBroker) => {
        const { portfolio } = broker;
        const ranges = [
          { begin_date: DAYS[0], end_date: later },
          { begin_date: '2026-11-18', end_date: '2026-11-18' },
          { begin_date: DAYS[1], end_date: DAYS[1] },
          { begin_date: DAYS[2], end_date: later },
        ];
        return ranges.map((range) => {
          const stock = portfolio.profitLoss({ account_type: 'S' }, range, 'Share') as { id: number }[];
          const futures = portfolio.profitLoss({ account_type: 'F' }, range, 'Common') as { id: number }[];
          return {
            stock,
            futures,
            stockSummary: portfolio.profitLossSummary({ account_type: 'S' }, range),
            futuresSummary: portfolio.profitLossSummary({ account_type: 'F' }, range),
            stockDetails: stock.map((row) => portfolio.profitLossDetail({ account_type: 'S' }, row.id, 'Share')),
            futuresDetails: futures.map((row) => portfolio.profitLossDetail({ account_type: 'F' }, row.id, 'Common')),
          };
        });
      };
      const restartedAnswers = answers(restarted.broker);
      assert.deepEqual(restartedAnswers, answers(live.broker));
      assert.ok(restartedAnswers[0]!.stock.length >= 3 && restartedAnswers[0]!.futures.length >= 1);
      assert.equal(restartedAnswers[3]!.stock.length, 0, 'none after the second day');
      assert.deepEqual(
        restarted.broker.portfolio.settlements({ account_type: 'S' }),
        live.broker.portfolio.settlements({ account_type: 'S' }),
      );
      assert.throws(
        () => restarted.broker.portfolio.profitLossDetail({ account_type: 'S' }, 99, 'Share'),
        (error: Error) => /no profit_loss with detail_id 99 .*ids run from 1 to \d+/.test(error.message),
      );
      await restarted.gateway.close();
      await live.gateway.close();
    }),
  );

  test('while running, a checkpoint is kept on each new day: after a crash only the later deals are booked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-ledger-checkpoint-daily-'));
    try {
      const path = join(dir, 'sjgate.db');
      const running = brokerAt(DAYS[1], '10:00', path, undefined, 1e10, 5);
      firstDay(running.broker);
      running.clock.set(taipeiInstant(DAYS[2], '09:30'));
      const newDay = taipeiInstant(DAYS[2]);
      while ((running.gateway.journal.checkpoints.latest()?.takenAt ?? 0) < newDay) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      secondDay(running.broker);
      await running.gateway.durable();
      running.gateway.journal.close();

      const restarted = replayedDuring(() => brokerAt(DAYS[2], '11:00', path));
      const dealsFrom = (day: string) => {
        const db = new Database(path, { readonly: true });
        const row = db.prepare('SELECT count(*) AS n FROM deals WHERE at >= ?').get(taipeiInstant(day)) as {
          n: number;
        };
        db.close();
        return row.n;
      };
      assert.equal(restarted.replayed, dealsFrom(DAYS[2]), "only the deals after the new day's checkpoint");
      assert.ok(restarted.replayed >= 5 && restarted.replayed < dealsFrom(DAYS[1]));
      const reference = brokerAt(DAYS[2], '11:00', copyWithoutCheckpoint(path, dir));
      assert.deepEqual(booksOf(restarted.result.broker), booksOf(reference.broker));
      await restarted.result.gateway.close();
      await reference.gateway.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test(
    'what an account starts with is read from the configuration at each start, not from the checkpoint',
    withTwoDaysOfTrading(async (path) => {
      const before = brokerAt(DAYS[2], '10:00', path);
      const balance = before.broker.portfolio.accountBalance({ account_type: 'S' }).acc_balance;
      await before.gateway.close();
      const richer = replayedDuring(() => brokerAt(DAYS[2], '10:00', path, undefined, 2e10));
      assert.equal(richer.replayed, 0, 'from the checkpoint');
      assert.equal(richer.result.broker.portfolio.accountBalance({ account_type: 'S' }).acc_balance, balance + 1e10);
      await richer.result.gateway.close();
    }),
  );

  test(
    'a journal from before checkpoints starts, books every deal, and gets one',
    withTwoDaysOfTrading(async (path) => {
      const expected = brokerAt(DAYS[2], '10:00', path);
      const expectedBooks = booksOf(expected.broker);
      await expected.gateway.close();
      editJournal(
        path,
        'DROP TABLE checkpoints; DROP TABLE archived_rows; DROP TABLE checkpoint_lots; DROP INDEX orders_by_updated_at; ' +
          'ALTER TABLE orders DROP COLUMN wire; PRAGMA user_version = 4;',
      );

      const old = replayedDuring(() => brokerAt(DAYS[2], '10:00', path));
      assert.equal(old.replayed, dealsIn(path));
      assert.deepEqual(booksOf(old.result.broker), expectedBooks);
      await old.result.gateway.close();
      const next = replayedDuring(() => brokerAt(DAYS[2], '10:00', path));
      assert.equal(next.replayed, 0, 'the migrated journal got a checkpoint at its first start');
      assert.deepEqual(booksOf(next.result.broker), expectedBooks);
      await next.result.gateway.close();
    }),
  );

  test('a year of realized rows is archived in one checkpoint (no spread of every row into one call)', () => {
    const { broker, clock } = brokerAt(DAYS[0], '10:00', ':memory:');
    firstDay(broker);
    clock.set(taipeiInstant(DAYS[1], '10:00'));
    secondDay(broker);
    const account = [...broker.orders.ledger.accounts.values()].find((a) => a.stockRealized.length > 0);
    assert.ok(account, 'the second day closes a stock position');
    const row = account.stockRealized[0]!;
    // 300,000 rows: far past what a function call's arguments can hold on Node's default stack.
    account.stockRealized = Array.from({ length: 300_000 }, (_, i) => ({
      ...row,
      record: { ...row.record, id: i + 1 },
    }));
    const { archive } = ledgerCheckpoint(broker.orders.ledger, 0, '2026-11-27');
    assert.equal(archive.filter((archived) => archived.accountKey === account.key).length, 300_000);
  });
});
