import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatTrades, isSettled, settle, tradeRow } from '../../../../src/cli/commands/order/trades.js';
import type { Trade } from '../../../../src/domain/orders.js';
import { FUTURES_TRADE, stockTrade } from './fixtures.js';

describe('settle', () => {
  const noSleep = async () => {};

  test('a trade the exchange answered is returned without a call', async () => {
    const trade = stockTrade('Submitted');
    const result = await settle(trade, async () => assert.fail('no listing expected'), { sleep: noSleep });
    assert.equal(result, trade);
    assert.ok(isSettled(stockTrade('Failed')));
    assert.ok(!isSettled(stockTrade('PendingSubmit')));
    assert.ok(!isSettled(stockTrade('Inactive')));
  });

  test('polls the trade account until the trade leaves PendingSubmit', async () => {
    const selectors: unknown[] = [];
    const waits: number[] = [];
    const answers = [stockTrade('PendingSubmit'), stockTrade('Filled')];
    const result = await settle(
      stockTrade('PendingSubmit'),
      async (selector) => {
        selectors.push(selector);
        return [stockTrade('Submitted', { id: 'other' }), answers.shift()!];
      },
      { sleep: async (ms) => void waits.push(ms) },
    );
    assert.equal(result.status.status, 'Filled');
    assert.deepEqual(waits, [200, 200]);
    assert.deepEqual(selectors, [
      { broker_id: '9A95', account_id: '6880831' },
      { broker_id: '9A95', account_id: '6880831' },
    ]);
  });

  test('gives up after the timeout with the latest state; a trade without id is not looked for', async () => {
    let calls = 0;
    const result = await settle(
      stockTrade('PendingSubmit'),
      async () => {
        calls++;
        return [stockTrade('PendingSubmit')];
      },
      { sleep: noSleep, intervalMs: 200, timeoutMs: 1000 },
    );
    assert.equal(result.status.status, 'PendingSubmit');
    assert.equal(calls, 5);
    const inactive = stockTrade('Inactive', { id: '' });
    assert.equal(await settle(inactive, async () => assert.fail('no listing expected'), { sleep: noSleep }), inactive);
  });
});

describe('formatting', () => {
  test('one row per trade: id, code, action, price, type, qty, status, filled at what price and when, cancelled, msg', () => {
    assert.deepEqual(tradeRow(stockTrade('Filled')), {
      id: 'c604f33c',
      code: '2330',
      action: 'Buy',
      price: 1000,
      type: 'ROD',
      qty: 2,
      status: 'Filled',
      filled: 2,
      fill_price: 995,
      fill_time: '10:00:00',
      cancelled: 0,
      msg: '委託成功',
    });
    const twoDeals = stockTrade('Filled');
    twoDeals.status.deals = [
      { seq: '000001', price: 995, quantity: 1, ts: 1795399200 },
      { seq: '000002', price: 1000, quantity: 2, ts: 1795399261.5 },
    ];
    assert.deepEqual([tradeRow(twoDeals).fill_price, tradeRow(twoDeals).fill_time], [998.3333, '10:01:01']);
    assert.deepEqual([tradeRow(FUTURES_TRADE).fill_price, tradeRow(FUTURES_TRADE).fill_time], [null, null]);
    assert.equal(tradeRow(FUTURES_TRADE).price, 'MKT');
    assert.equal(tradeRow(stockTrade('Inactive', { id: '' })).id, '-');
    const alias: Trade = { ...FUTURES_TRADE, contract: { ...FUTURES_TRADE.contract, code: 'TXFR1' } };
    assert.equal(tradeRow(alias).code, 'TXFR1 (TXFL6)');
  });

  test('a table with a header and one line per trade', () => {
    const text = formatTrades([stockTrade('Filled'), FUTURES_TRADE]);
    const lines = text.split('\n');
    assert.match(lines.find((l) => l.includes('id')) ?? '', /id\s*│\s*code\s*│\s*action\s*│\s*price/);
    assert.equal(lines.filter((l) => /c604f33c|b0fc523b/.test(l)).length, 2);
    assert.match(
      text,
      /c604f33c\s*│\s*2330\s*│\s*Buy\s*│\s*1000\s*│\s*ROD\s*│\s*2\s*│\s*Filled\s*│\s*2\s*│\s*995\s*│\s*10:00:00\s*│\s*0\s*│\s*委託成功/,
    );
    assert.match(
      text,
      /b0fc523b\s*│\s*TXFL6\s*│\s*Sell\s*│\s*MKT\s*│.*Failed.*當日市價單不允許當日有效委託\(ROD\) \(a market order cannot be ROD/,
    );
    assert.equal(formatTrades([]), '(none)');
  });
});
