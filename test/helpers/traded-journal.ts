// A journal of two days of trading in stock and futures, made once per test file and copied for each test, and what
// the tests of the ledger's checkpoint compare (ledger-checkpoint.test.ts, stored-lots.test.ts).

import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Ledger } from '../../src/broker/sim/portfolio/ledger.js';
import type { SimBroker } from '../../src/broker/sim/sim-broker.js';
import type { StockInfo } from '../../src/domain/contracts.js';
import type { StockOrderCond } from '../../src/domain/orders.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { simGateway } from './gateway.js';

// Over 21 days apart: the first day's finished orders are not handed back at the last start, only read by id. The
// first day's futures are November's, cash-settled at expiry on 2026-11-18, as the second start finds.
export const DAYS = ['2026-11-02', '2026-11-24', '2026-11-25'] as const;

export function brokerAt(
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

export function stock(broker: SimBroker, code: string, action: 'Buy' | 'Sell', quantity: number, cond: StockOrderCond) {
  const info = broker.contracts.current().find(code)! as StockInfo;
  const price = action === 'Buy' ? info.limit_up : info.limit_down;
  const order = { action, price, quantity, price_type: 'LMT' as const, order_type: 'ROD' as const, order_cond: cond };
  const trade = broker.orders.place({ contract: { code }, stockOrder: order });
  assert.equal(trade.status.deal_quantity, quantity, `${cond} ${action} ${code} filled: ${trade.status.msg}`);
}

export function futures(broker: SimBroker, action: 'Buy' | 'Sell', quantity: number) {
  const order = { action, price: 0, quantity, price_type: 'MKP' as const, order_type: 'IOC' as const };
  broker.orders.place({ contract: { code: 'TXFR1' }, futuresOrder: order });
}

/** Everything the portfolio answers, over the whole history. */
export function booksOf(broker: SimBroker) {
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
export function replayedDuring<T>(work: () => T): { result: T; replayed: number } {
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

export function firstDay(broker: SimBroker): void {
  stock(broker, '2330', 'Buy', 3, 'Cash');
  stock(broker, '2884', 'Buy', 5, 'MarginTrading');
  stock(broker, '2317', 'Sell', 2, 'ShortSelling');
  futures(broker, 'Buy', 3);
}

export function secondDay(broker: SimBroker): void {
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
export async function twoDaysOfTrading(path: string): Promise<void> {
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
export function withTwoDaysOfTrading(work: (path: string, dir: string) => Promise<void>) {
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
export function dealsIn(path: string, fromDay: string = DAYS[0]): number {
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
export function copyWithoutCheckpoint(path: string, dir: string): string {
  const copy = join(dir, 'no-checkpoint.db');
  copyFileSync(path, copy);
  editJournal(copy, 'DELETE FROM checkpoints');
  return copy;
}

export function orderIds(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT id FROM orders ORDER BY rowid').all() as { id: string }[]).map((row) => row.id);
  } finally {
    db.close();
  }
}

export function archivedRows(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM archived_rows').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

export function editJournal(path: string, sql: string): void {
  const db = new Database(path);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/** Removes the journal withTwoDaysOfTrading made: call it after the file's tests. */
export async function removeTradedJournal(): Promise<void> {
  if (tradedJournal) rmSync((await tradedJournal).dir, { recursive: true, force: true });
}
