// Combo orders through the bridge, against a stand-in for the sidecar's answers: each change reported to the gateway
// (placed, cancelled, read back), SinoPac's reports of a combo published with it, and a restore that tells combos
// from plain orders.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { OrderUpdate } from '../../../src/broker/port.js';
import { isTrackedCombo, LiveCombos } from '../../../src/broker/shioaji/live-combos.js';
import type { Report } from '../../../src/broker/shioaji/live-order-book.js';
import type { UpstreamCall } from '../../../src/broker/shioaji/upstream.js';
import { AccountBook } from '../../../src/domain/account-book.js';
import type { ComboTrade } from '../../../src/domain/orders.js';
import { ManualClock } from '../../../src/domain/time.js';

const account = {
  account_type: 'F' as const,
  person_id: 'A123456789',
  broker_id: 'F002000',
  account_id: '1234567',
  signed: true,
  username: 'trader',
};

function comboTrade(status: 'Submitted' | 'Cancelled' | 'Filled'): ComboTrade {
  const leg = (code: string, action: 'Buy' | 'Sell') => ({
    security_type: 'FUT' as const,
    exchange: 'TAIFEX' as const,
    code,
    target_code: null,
    action,
  });
  const filled = status === 'Filled';
  const deal = (price: number) => [{ seq: '000001', price, quantity: 1, ts: 1_790_000_100 }];
  return {
    contract: { legs: [leg('TXFL6', 'Sell'), leg('TXFA7', 'Buy')] },
    order: {
      id: 'c0mb0',
      seqno: '000007',
      ordno: 'C0001',
      action: 'Buy',
      price: 50,
      quantity: 1,
      time_in_force: 'ROD',
      order_type: 'ROD',
      price_type: 'LMT',
      octype: 'Auto',
      account,
      combo_type: 'TimeSpread',
    },
    status: {
      id: 'c0mb0',
      status,
      status_code: '00',
      web_id: '137',
      order_ts: 1_790_000_000,
      msg: '',
      modified_ts: 0,
      modified_price: 0,
      order_quantity: 1,
      deal_quantity: filled ? 1 : 0,
      cancel_quantity: status === 'Cancelled' ? 1 : 0,
      deals: filled ? { TXFL6: deal(23000), TXFA7: deal(23050) } : {},
    },
  };
}

function harness(answers: Record<string, () => unknown>) {
  const calls: string[] = [];
  const call = (async (method: string) => {
    calls.push(method);
    return structuredClone(answers[method]!());
  }) as UpstreamCall;
  const updates: OrderUpdate[] = [];
  const combos = new LiveCombos(call, new AccountBook([account]), new ManualClock(1_790_000_000_000), (update) =>
    updates.push(update),
  );
  return { combos, calls, updates };
}

const input = {
  legs: [
    { security_type: 'FUT' as const, code: 'TXFL6' },
    { security_type: 'FUT' as const, code: 'TXFA7' },
  ],
  order: { action: 'Buy' as const, price: 50, quantity: 1, price_type: 'LMT' as const, order_type: 'ROD' as const },
};

const report = (opType: string): Report =>
  ({
    state: 'FuturesOrder',
    body: { operation: { op_type: opType, op_code: '00', op_msg: '' }, order: { id: 'c0mb0' } },
  }) as unknown as Report;

describe('combo orders through the bridge', () => {
  test('a placed combo is reported with its reports that came first, and each later report of it', async () => {
    const { combos, updates } = harness({ place_comboorder: () => comboTrade('Submitted') });
    const placed = await combos.place(input, (id) => (id === 'c0mb0' ? [report('New')] : []));
    assert.equal(placed.order.id, 'c0mb0');
    assert.deepEqual(
      updates.map((u) => [u.placed, u.order.code, u.events.length]),
      [
        [true, 'TXFL6/TXFA7', 0],
        [false, 'TXFL6/TXFA7', 1],
      ],
    );
    assert.equal(combos.receive(report('Cancel')), true);
    assert.equal(combos.receive({ ...report('New'), body: { order: { id: 'other' } } } as unknown as Report), false);
    assert.equal(updates.at(-1)?.events[0]?.state, 'FuturesOrder');
    assert.equal(isTrackedCombo(updates[0]!.record()), true);
  });

  test('a listing reads SinoPac back once per session: a fill found there is reported with a deal per leg', async () => {
    let status: 'Submitted' | 'Filled' = 'Submitted';
    const { combos, calls, updates } = harness({
      place_comboorder: () => comboTrade('Submitted'),
      combo_trades: () => [comboTrade(status)],
    });
    await combos.place(input, () => []);
    status = 'Filled';
    const listed = await combos.list();
    assert.equal(listed[0]?.status.status, 'Filled');
    const fill = updates.at(-1)!;
    assert.deepEqual(
      fill.deals.map((d) => [d.code, d.action, d.deal.price]),
      [
        ['TXFL6', 'Sell', 23000],
        ['TXFA7', 'Buy', 23050],
      ],
    );
    await combos.list();
    assert.deepEqual(
      calls.filter((c) => c === 'combo_trades'),
      ['combo_trades'],
      'read back once until a new session or report',
    );
    combos.invalidate();
    await combos.list({ account_type: 'F' });
    assert.equal(calls.filter((c) => c === 'combo_trades').length, 2);
  });

  test('an unknown combo cannot be cancelled; a restored one can', async () => {
    const { combos } = harness({ cancel_comboorder: () => comboTrade('Cancelled') });
    await assert.rejects(combos.cancel('c0mb0'), /combo c0mb0 not found/);
    combos.restore({ combo: true, trade: comboTrade('Submitted'), accountKey: 'F002000-1234567', placedAt: 1 });
    assert.equal((await combos.cancel('c0mb0')).status.status, 'Cancelled');
  });
});
