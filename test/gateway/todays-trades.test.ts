// Today's order/trades from the kept bytes (src/gateway/todays-trades.ts): after every kind of change the answer is
// byte for byte the list written afresh, and while nothing changed the venue is not asked for the list at all.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { SimVenue } from '../../src/broker/sim/sim-venue.js';
import type { AccountSelector } from '../../src/domain/accounts.js';
import type { StockInfo } from '../../src/domain/contracts.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { tradeJson } from '../../src/server/trade-json.js';

const home = mkdtempSync(join(tmpdir(), 'sjgate-todays-trades-'));
after(() => rmSync(home, { recursive: true, force: true }));

/** A gateway on the simulator in exchange mode, counting the venue's trades() calls. */
function gatewayOn(clock: ManualClock, journalPath: string, versioned = true) {
  const venue = new SimVenue({ clock, seed: 1, clockMode: 'exchange', apiKey: null });
  const { orders } = venue;
  const list = orders.trades.bind(orders);
  let lists = 0;
  orders.trades = (account) => {
    lists++;
    return list(account);
  };
  if (!versioned) delete orders.tradesVersion;
  const gateway = Gateway.open(venue, { journalPath, tradeJson, log: () => undefined });
  const info = (code: string) => venue.exchange.contracts.current().find(code) as StockInfo;
  return { gateway, info, lists: () => lists };
}

type Opened = ReturnType<typeof gatewayOn>;

/** The list written afresh: every trade the venue lists now, through the route's serializer. */
async function writtenAfresh(gateway: Gateway, account?: AccountSelector): Promise<string> {
  const trades = await gateway.orders.trades(account);
  return `[${trades.map((trade) => tradeJson.write(trade)).join(',')}]`;
}

/** The kept answer, checked against the list written afresh; `asked`: how many times the venue listed for it. */
async function answer(opened: Opened, what: string, account?: AccountSelector) {
  const before = opened.lists();
  const json = (await opened.gateway.orders.todaysTradesJson(account)).toString();
  const asked = opened.lists() - before;
  assert.equal(json, await writtenAfresh(opened.gateway, account), what);
  return { json, asked };
}

/** Asks again without any change: the same bytes, and the venue is not asked for its list. */
async function unchanged(opened: Opened, previous: string, account?: AccountSelector): Promise<void> {
  const again = await answer(opened, 'unchanged', account);
  assert.equal(again.json, previous);
  assert.equal(again.asked, 0, 'an unchanged list is answered without asking the venue');
}

const limitOrder = (action: 'Buy' | 'Sell', price: number, quantity = 1) => ({
  action,
  price,
  quantity,
  price_type: 'LMT' as const,
  order_type: 'ROD' as const,
});

describe("today's order/trades from the kept bytes", () => {
  test('place, fill as the clock moves, update, cancel, a failed write, a new day, a restart: each equals the fresh list', async () => {
    const clock = new ManualClock(taipeiInstant('2026-11-23', '07:00'));
    const journalPath = join(home, 'changes.db');
    let opened = gatewayOn(clock, journalPath);
    const { gateway, info } = opened;
    let last = await answer(opened, 'empty');
    assert.equal(last.json, '[]');
    await unchanged(opened, last.json);

    const place = (order: ReturnType<typeof limitOrder>) =>
      gateway.orders.place({ contract: { code: '2884' }, stockOrder: order, wait: true });
    const marketable = await place(limitOrder('Buy', info('2884').limit_up));
    assert.equal(marketable.status.status, 'PreSubmitted');
    let resting = marketable;
    // 5% and 6% below where the first filled: it rests until cancelled (the tick is NT$0.05 between NT$10 and NT$50).
    const below = async (share: number) => {
      const [filled] = (await gateway.orders.trades()).map((trade) => trade.status.deals[0]?.price ?? 0);
      return Math.round(filled! * (1 - share) * 20) / 20;
    };
    const steps: [string, () => Promise<unknown>, RegExp][] = [
      ['placed', async () => undefined, /"PreSubmitted"/],
      ['filled at the open, by no command', async () => clock.set(taipeiInstant('2026-11-23', '09:10')), /"Filled"/],
      ['placed in the session', async () => (resting = await place(limitOrder('Buy', await below(0.05), 3))), /"Sub/],
      ['quantity reduced', () => gateway.orders.updateQty(resting.order.id, 1), /"cancel_quantity":1/],
      ['price changed', async () => gateway.orders.updatePrice(resting.order.id, await below(0.06)), /"modified_pr/],
      ['cancelled', () => gateway.orders.cancel(resting.order.id), /"Cancelled"/],
    ];
    for (const [what, change, shows] of steps) {
      await change();
      const next = await answer(opened, what);
      assert.notEqual(next.json, last.json, `${what}: the answer changed`);
      assert.equal(next.asked, 1, what);
      assert.match(next.json, shows, what);
      last = next;
      await unchanged(opened, last.json);
    }

    // A place whose journal write fails did not happen: the venue is handed back what the journal holds.
    const { journal } = gateway;
    const transaction = journal.transaction.bind(journal);
    journal.transaction = () => {
      journal.transaction = transaction;
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    };
    await assert.rejects(place(limitOrder('Buy', await below(0.05))), /disk is full/);
    const rolledBack = await answer(opened, 'after a write that failed');
    assert.equal(rolledBack.json, last.json, 'the list as before the place');
    assert.equal(rolledBack.asked, 1, 'the venue was asked again');

    // The next trading day lists none of the finished orders of the last one, though no order changed.
    clock.set(taipeiInstant('2026-11-24', '10:00'));
    last = await answer(opened, 'a new day');
    assert.equal(last.json, '[]');
    await unchanged(opened, last.json);
    await place(limitOrder('Buy', info('2884').limit_down));
    last = await answer(opened, 'placed on the new day');
    assert.match(last.json, /"Submitted"/);

    await gateway.close();
    opened = gatewayOn(clock, journalPath);
    try {
      const restarted = await answer(opened, 'restarted');
      assert.equal(restarted.json, last.json, 'the same list after a restart');
      await unchanged(opened, restarted.json);
    } finally {
      await opened.gateway.close();
    }
  });

  test("each account's list is kept apart; a venue without a version is asked every time", async () => {
    const clock = new ManualClock(taipeiInstant('2026-11-23', '10:00'));
    for (const versioned of [true, false]) {
      const opened = gatewayOn(clock, join(home, `accounts-${versioned}.db`), versioned);
      const { gateway, info } = opened;
      try {
        await gateway.orders.place({
          contract: { code: '2884' },
          stockOrder: limitOrder('Buy', info('2884').limit_down),
          wait: true,
        });
        await gateway.orders.place({
          contract: { code: 'TXFR1' },
          futuresOrder: { ...limitOrder('Buy', info('TXFR1').limit_down), octype: 'Auto' },
          wait: true,
        });
        const selectors = [undefined, { account_type: 'S' as const }, { account_type: 'F' as const }];
        const answers = [];
        for (const account of selectors) answers.push((await answer(opened, `${account?.account_type}`, account)).json);
        assert.equal(new Set(answers).size, 3, 'every account, stocks and futures list differently');
        assert.match(answers[2]!, /TXF/);
        for (const [i, account] of selectors.entries()) {
          if (versioned) await unchanged(opened, answers[i]!, account);
          else assert.deepEqual(await answer(opened, 'again', account), { json: answers[i], asked: 1 });
        }
      } finally {
        await gateway.close();
      }
    }
  });
});
