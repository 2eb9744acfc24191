// A journal with rows that cannot be put back still loads: each such order is left out with one log line, and the
// listings answer (issue 14). The rows are the ones an older sjgate wrote for a request carrying 1e400
// (JSON.stringify writes Infinity as null), and a record whose JSON was cut short.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { accountKeyOf } from '../../src/domain/accounts.js';
import { ManualClock } from '../../src/domain/time.js';
import { buildApp } from '../../src/server/app.js';
import { MONDAY_MORNING } from '../helpers/app.js';
import { simGateway } from '../helpers/gateway.js';

test('orders whose records hold null numbers or broken JSON are left out at load, one log line each', {
  timeout: 60_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sjgate-poisoned-'));
  const path = join(dir, 'sjgate.db');
  try {
    const clock = new ManualClock(MONDAY_MORNING);
    const { broker: first, gateway: firstGateway } = simGateway({
      clock,
      seed: 1,
      clockMode: 'always-open',
      apiKey: null,
      journalPath: path,
    });
    const limitDown = (first.contracts.current().find('2330') as { limit_down: number }).limit_down;
    const stock = { action: 'Buy', quantity: 1, price_type: 'LMT', order_type: 'ROD' } as const;
    const resting = first.orders.place({
      contract: { code: '2330' },
      stockOrder: { ...stock, price: limitDown },
    });
    assert.equal(resting.status.status, 'Submitted', resting.status.msg);
    const failed = await firstGateway.orders.place({
      contract: { code: '2330' },
      stockOrder: { ...stock, price: 1 },
      idempotencyKey: 'k-failed',
      wait: true,
    });
    assert.equal(failed.status.status, 'Failed');
    const legs = first.contracts.futuresCombos('TXF')[0]!.legs.map((leg) => ({
      code: leg.code,
      security_type: 'FUT' as const,
    }));
    const [quote] = first.marketData.snapshots([{ legs }]);
    const combo = first.orders.placeCombo({
      legs,
      order: { action: 'Buy', price: quote!.sell_price, quantity: 1, price_type: 'LMT', order_type: 'IOC' },
    });
    assert.equal(combo.status.status, 'Filled', combo.status.msg);
    const accountKey = accountKeyOf(combo.order.account);
    const held = legs.map((leg) => first.orders.ledger.netContracts(accountKey, leg.code));
    assert.notDeepEqual(held, [0, 0]);
    await firstGateway.close();

    // What the old bug wrote: the Failed order and the filled combo with price null; and a record cut short.
    const db = new Database(path);
    db.prepare(`UPDATE orders SET record = json_set(record, '$.trade.order.price', json('null')) WHERE id = ?`).run(
      failed.order.id,
    );
    db.prepare(
      `UPDATE orders SET record = json_set(record, '$.trade.order.price', json('null'),
         '$.trade.status.modified_price', json('null')) WHERE id = ?`,
    ).run(combo.order.id);
    db.prepare(
      `INSERT INTO orders (id, account_key, code, status, placed_at, updated_at, open, record)
       SELECT 'cut00001', account_key, code, status, placed_at + 1, updated_at, open, substr(record, 1, 40)
       FROM orders WHERE id = ?`,
    ).run(resting.order.id);
    db.close();

    const lines: string[] = [];
    const { broker: second, gateway } = simGateway({
      clock: new ManualClock(clock.now()),
      seed: 1,
      clockMode: 'always-open',
      apiKey: null,
      journalPath: path,
      log: (line) => lines.push(line),
    });
    assert.equal(lines.length, 3, lines.join('\n'));
    assert.match(
      lines.find((line) => line.includes(failed.order.id)) ?? '',
      new RegExp(`^journal: order ${failed.order.id} left out at load: order\\.price is null, not a finite number`),
    );
    assert.match(
      lines.find((line) => line.includes(combo.order.id)) ?? '',
      /order\.price is null, status\.modified_price is null, not a finite number \(not listed or traded; any deals of it still count\)$/,
    );
    assert.match(
      lines.find((line) => line.includes('cut00001')) ?? '',
      /^journal: order cut00001 left out at load: its JSON does not parse/,
    );

    // The good order is back and still working; the combo's fills still count in the portfolio.
    assert.deepEqual(
      second.orders.trades().map((trade) => [trade.order.id, trade.status.status]),
      [[resting.order.id, 'Submitted']],
    );
    assert.deepEqual(second.orders.comboTrades(), []);
    await assert.rejects(
      gateway.orders.place({
        contract: { code: '2330' },
        stockOrder: { ...stock, price: 1 },
        idempotencyKey: 'k-failed',
        wait: true,
      }),
      (error: Error & { kind?: string }) =>
        error.kind === 'IDEMPOTENCY_KEY_REUSED' &&
        /k-failed.*could not be restored from the journal/.test(error.message),
    );
    assert.deepEqual(
      legs.map((leg) => second.orders.ledger.netContracts(accountKey, leg.code)),
      held,
    );

    const app = await buildApp({
      gateway,
      bindHost: '127.0.0.1',
      rateLimits: false,
      identity: { version: 'test', scheme: 'http', protocols: ['HTTP/1.1'], startedAt: Date.now() },
    });
    try {
      const post = async (url: string, payload: object) => {
        const response = await app.inject({ method: 'POST', url, payload });
        return { status: response.statusCode, body: response.json() };
      };
      for (const url of ['/api/v1/order/trades', '/api/v1/order/update_status']) {
        const listed = await post(url, {});
        assert.equal(listed.status, 200, JSON.stringify(listed.body));
        assert.deepEqual(
          listed.body.map((trade: { order: { id: string } }) => trade.order.id),
          [resting.order.id],
        );
      }
      assert.equal((await post('/api/v1/order/combotrades', {})).status, 200);
      const missing = await post('/api/v1/order/cancel_order', { trade_id: failed.order.id });
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error, 'ORDER_NOT_FOUND');
      assert.match(missing.body.message, new RegExp(failed.order.id));
      const cancelled = await post('/api/v1/order/cancel_order', { trade_id: resting.order.id });
      assert.equal(cancelled.status, 200);
      assert.equal(cancelled.body.status.status, 'Cancelled');
    } finally {
      await app.close();
      await gateway.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
