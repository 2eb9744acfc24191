// bench/history/generate.ts writes a year of orders straight into a journal. Each day's futures must be the month
// TXFR1 stood for that day (a contract not listed yet on a day is refused when the gateway books the deal), and a
// gateway started on the journal books every deal of it.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { generateHistory } from '../../bench/history/generate.js';
import { nextTradingDay } from '../../src/domain/calendar.js';
import { futuresCode } from '../../src/domain/derivative-codes.js';
import { spotMonth } from '../../src/domain/listing.js';
import { ManualClock, taipeiDate, taipeiInstant } from '../../src/domain/time.js';
import { JOURNAL_FILE } from '../../src/server/data-home.js';
import { simGateway } from '../helpers/gateway.js';

const homes: string[] = [];
after(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

test('250 days of history name the futures month listed on each day, and a gateway books every deal', async () => {
  const lastDay = '2026-11-24';
  const history = await generateHistory({ days: 250, ordersPerDay: 8, lastDay });
  homes.push(history.home);
  assert.equal(history.orders, 2000);
  assert.equal(history.firstDay, '2025-11-14');
  const path = join(history.home, JOURNAL_FILE);

  const db = new Database(path, { readonly: true });
  const futures = db.prepare("SELECT code, at, record FROM deals WHERE code LIKE 'TXF%'").all() as {
    code: string;
    at: number;
    record: string;
  }[];
  const withJson = db.prepare('SELECT count(wire) AS n FROM orders').get() as { n: number };
  db.close();
  assert.equal(withJson.n, 2000, "every copy has its trade's JSON");
  assert.equal(futures.length, 250 * 4);
  const months = new Set<string>();
  for (const deal of futures) {
    const day = taipeiDate(deal.at);
    const listed = futuresCode('TXF', spotMonth(day));
    assert.equal(deal.code, listed, `the deal of ${day}`);
    assert.equal((JSON.parse(deal.record) as { code?: string }).code ?? listed, listed);
    months.add(deal.code);
  }
  assert.ok(months.size >= 12, `a year of months: ${[...months].join(', ')}`);

  const lines: string[] = [];
  const clock = new ManualClock(taipeiInstant(nextTradingDay(lastDay), '10:00'));
  const options = { clock, seed: 1, clockMode: 'exchange' as const, apiKey: null, journalPath: path };
  const { broker, gateway } = simGateway({ ...options, log: (line) => lines.push(line) });
  try {
    assert.deepEqual(lines, [], 'no row left out');
    const range = { begin_date: history.firstDay, end_date: lastDay };
    const closings = broker.portfolio.profitLoss({ account_type: 'F' }, range, 'Common');
    assert.equal(closings.length, 250 * 2, 'two round trips a day, each closed');

    // The copies' trade JSON (moved like their records) is what the gateway writes from the moved records.
    const page = { limit: 1000, beginDate: '2026-03-02' };
    const fromCopies = await gateway.orders.tradesPage(undefined, page);
    assert.equal(fromCopies.count, 1000);
    gateway.journal.orders.forgetWire();
    assert.deepEqual((await gateway.orders.tradesPage(undefined, page)).json, fromCopies.json);
  } finally {
    await gateway.close();
  }
});
