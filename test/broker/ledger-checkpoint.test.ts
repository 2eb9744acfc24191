// The ledger's checkpoint (issue 22): a restart puts back the state of the deals before it and books only the later
// ones, and that gives the same books, to the dollar, as booking every deal of the journal again.

import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { Ledger } from '../../src/broker/sim/portfolio/ledger.js';
import { ledgerCheckpoint } from '../../src/broker/sim/portfolio/ledger-checkpoint.js';
import type { SimBroker } from '../../src/broker/sim/sim-broker.js';
import type { StockInfo } from '../../src/domain/contracts.js';
import type { StockOrderCond } from '../../src/domain/orders.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { simGateway } from '../helpers/gateway.js';

// Over 21 days apart: the first day's finished orders are not handed back at the last start, only read by id. The
// first day's futures are November's, cash-settled at expiry on 2026-11-18, as the second start finds.
const DAYS = ['2026-11-02', '2026-11-24', '2026-11-25'] as const;

function brokerAt(
  day: string,
  time: string,
  journalPath: string,
  log?: (line: string) => void,
  startingCash = 1e10,
  dailyCheckpointCheckMs?: number,
) {
  const clock = new ManualClock(taipeiInstant(day, time));
  const startingFunds = { startingCash, startingCollateral: 1e8 };
  const options = { clock, seed: 1, clockMode: 'exchange' as const, apiKey: null, journalPath, startingFunds };
  Object.assign(options, { dailyCheckpointCheckMs });
  return { clock, ...simGateway({ ...options, log: log ?? (() => undefined) }) };
}

function stock(broker: SimBroker, code: string, action: 'Buy' | 'Sell', quantity: number, cond: StockOrderCond) {
  const info = broker.contracts.current().find(code)! as StockInfo;
  const price = action === 'Buy' ? info.limit_up : info.limit_down;
  const order = { action, price, quantity, price_type: 'LMT' as const, order_type: 'ROD' as const, order_cond: cond };
  const trade = broker.orders.place({ contract: { code }, stockOrder: order });
  assert.equal(trade.status.deal_quantity, quantity, `${cond} ${action} ${code} filled: ${trade.status.msg}`);
}

function futures(broker: SimBroker, action: 'Buy' | 'Sell', quantity: number) {
  const order = { action, price: 0, quantity, price_type: 'MKP' as const, order_type: 'IOC' as const };
  broker.orders.place({ contract: { code: 'TXFR1' }, futuresOrder: order });
}

/** Everything the portfolio answers, over the whole history. */
function booksOf(broker: SimBroker) {
  const range = { begin_date: DAYS[0], end_date: DAYS[2] };
  const { portfolio } = broker;
  return {
    accounts: JSON.parse(JSON.stringify([...broker.orders.ledger.accounts])),
    stock: portfolio.positions({ account_type: 'S' }, 'Share'),
    futures: portfolio.positions({ account_type: 'F' }, 'Common'),
    balance: portfolio.accountBalance({ account_type: 'S' }),
    settlements: portfolio.settlements({ account_type: 'S' }),
    margin: portfolio.margin({ account_type: 'F' }),
    stockPnl: portfolio.profitLoss({ account_type: 'S' }, range, 'Share'),
    futuresPnl: portfolio.profitLoss({ account_type: 'F' }, range, 'Common'),
    summary: portfolio.profitLossSummary({ account_type: 'S' }, range),
  };
}

/** How many fills the ledger books again while `work` runs. */
function replayedDuring<T>(work: () => T): { result: T; replayed: number } {
  const original = Ledger.prototype.replay;
  let replayed = 0;
  Ledger.prototype.replay = function (this: Ledger, fill) {
    replayed++;
    return original.call(this, fill);
  };
  try {
    return { result: work(), replayed };
  } finally {
    Ledger.prototype.replay = original;
  }
}

function firstDay(broker: SimBroker): void {
  stock(broker, '2330', 'Buy', 3, 'Cash');
  stock(broker, '2884', 'Buy', 5, 'MarginTrading');
  stock(broker, '2317', 'Sell', 2, 'ShortSelling');
  futures(broker, 'Buy', 3);
}

function secondDay(broker: SimBroker): void {
  stock(broker, '2330', 'Sell', 1, 'Cash');
  stock(broker, '2884', 'Sell', 2, 'MarginTrading');
  stock(broker, '2317', 'Buy', 1, 'ShortSelling');
  stock(broker, '2330', 'Buy', 2, 'Cash');
  futures(broker, 'Sell', 2);
}

/**
 * Two days of trading, each in its own run of the gateway: the first closes (a checkpoint of the first day), the
 * second stops without closing once its deals are durable, as a crash would (its start's checkpoint is the latest).
 */
async function twoDaysOfTrading(path: string): Promise<void> {
  const first = brokerAt(DAYS[0], '10:00', path);
  firstDay(first.broker);
  await first.gateway.close();
  const second = brokerAt(DAYS[1], '10:00', path);
  secondDay(second.broker);
  await second.gateway.durable();
  second.gateway.journal.close();
}

let tradedJournal: Promise<{ dir: string; path: string }> | undefined;

/** In a fresh directory, a copy of the journal of twoDaysOfTrading, which is made once for the file. */
function withTwoDaysOfTrading(work: (path: string, dir: string) => Promise<void>) {
  return async () => {
    tradedJournal ??= (async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sjgate-ledger-checkpoint-traded-'));
      const path = join(dir, 'sjgate.db');
      await twoDaysOfTrading(path);
      return { dir, path };
    })();
    const traded = await tradedJournal;
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-ledger-checkpoint-'));
    try {
      copyFileSync(traded.path, join(dir, 'sjgate.db'));
      await work(join(dir, 'sjgate.db'), dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** How many fills the ledger books for the journal: its deals (in all or from a day on) and expiry settlements. */
function dealsIn(path: string, fromDay: string = DAYS[0]): number {
  const db = new Database(path, { readonly: true });
  try {
    const row = db.prepare('SELECT count(*) AS n FROM deals WHERE at >= ?').get(taipeiInstant(fromDay, '00:00'));
    const settled = db.prepare("SELECT value FROM meta WHERE name = 'expiry_settlements'").get() as { value: string };
    return (row as { n: number }).n + (JSON.parse(settled.value) as unknown[]).length;
  } finally {
    db.close();
  }
}

/** A copy of the journal without its checkpoint: a start on it books every deal. */
function copyWithoutCheckpoint(path: string, dir: string): string {
  const copy = join(dir, 'no-checkpoint.db');
  copyFileSync(path, copy);
  editJournal(copy, 'DELETE FROM checkpoints');
  return copy;
}

function orderIds(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT id FROM orders ORDER BY rowid').all() as { id: string }[]).map((row) => row.id);
  } finally {
    db.close();
  }
}

function archivedRows(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM archived_rows').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

function editJournal(path: string, sql: string): void {
  const db = new Database(path);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

describe('the ledger checkpoint', () => {
  after(async () => {
    if (tradedJournal) rmSync((await tradedJournal).dir, { recursive: true, force: true });
  });

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
        'DROP TABLE checkpoints; DROP TABLE archived_rows; DROP INDEX orders_by_updated_at; ' +
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
