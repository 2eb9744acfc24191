import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { publishedCount } from '../../src/broker/sim/market/tape.js';
import type { SimBroker } from '../../src/broker/sim/sim-broker.js';
import type { FuturesInfo, IndexInfo, OptionInfo } from '../../src/domain/contracts.js';
import { futuresCost } from '../../src/domain/fees.js';
import type { FuturesOrderInput } from '../../src/domain/orders.js';
import type { FuturePosition, FutureProfitLoss } from '../../src/domain/portfolio.js';
import type { ClockMode } from '../../src/domain/sessions.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { simGateway } from '../helpers/gateway.js';

// 2026-12-16 is the third Wednesday of December: TXFL6 and the December TXO expire. 2026-11-25 is the fourth
// Wednesday of November: the TX4 weekly options expire.
const MONTHLY_EXPIRY = '2026-12-16';
const WEEKLY_EXPIRY = '2026-11-25';
const STARTING_COLLATERAL = 2_000_000;
const F = { account_type: 'F' as const };

function brokerAt(day: string, time: string, mode: ClockMode = 'always-open', journalPath?: string) {
  const clock = new ManualClock(taipeiInstant(day, time));
  const log = () => undefined;
  const { broker, gateway } = simGateway({ clock, seed: 1, clockMode: mode, apiKey: null, journalPath, log });
  return { clock, broker, gateway };
}

const marketOrder = (action: 'Buy' | 'Sell', quantity = 1): FuturesOrderInput => ({
  action,
  price: 0,
  quantity,
  price_type: 'MKT',
  order_type: 'IOC',
});

function fill(broker: SimBroker, code: string, action: 'Buy' | 'Sell', quantity = 1) {
  const trade = broker.orders.place({ contract: { code }, futuresOrder: marketOrder(action, quantity) });
  assert.equal(trade.status.status, 'Filled', `${code}: ${trade.status.msg}`);
  const deals = trade.status.deals;
  return deals.reduce((sum, deal) => sum + deal.price * deal.quantity, 0) / trade.status.deal_quantity;
}

/** What TAIFEX's rule gives from the simulated TAIEX the index tape shows: 13:00-13:25 every 5 s and the close. */
function indexAverage(broker: SimBroker, day: string): number {
  const info = broker.market.listings.infoOn('IX0001', day) as IndexInfo;
  const tape = broker.market.tape(info, day);
  const samples: number[] = [];
  const priceAt = (t: number) => tape.prices[publishedCount(tape, t) - 1]!;
  for (let t = taipeiInstant(day, '13:00'); t <= taipeiInstant(day, '13:25'); t += 5000) samples.push(priceAt(t));
  samples.push(priceAt(taipeiInstant(day, '13:30')));
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return Math.floor(mean + 0.5);
}

describe('an expiring contract stops trading at 13:30 of its last trading day', () => {
  for (const mode of ['always-open', 'exchange'] as const) {
    test(`orders to it are refused after 13:30 (${mode})`, { timeout: 30_000 }, () => {
      const { clock, broker } = brokerAt(MONTHLY_EXPIRY, '13:29', mode);
      fill(broker, 'TXFL6', 'Buy');
      clock.set(taipeiInstant(MONTHLY_EXPIRY, '13:31'));
      const refused = broker.orders.place({ contract: { code: 'TXFL6' }, futuresOrder: marketOrder('Sell') });
      assert.equal(refused.status.status, 'Failed');
      assert.match(refused.status.msg, /TXFL6 stopped trading at 13:30 on 2026-12-16/);
      // The next month still trades.
      fill(broker, 'TXFA7', 'Buy');
    });
  }

  test('an expiring weekly option takes no order after 13:30; the monthly series still trades', {
    timeout: 30_000,
  }, () => {
    const { clock, broker } = brokerAt(WEEKLY_EXPIRY, '13:29', 'exchange');
    const callsOf = (root: string) => broker.contracts.options({ root }).filter((info) => info.option_right === 'C');
    const calls = callsOf('TX4');
    const expiring = calls.filter((info) => info.last_trading_date === WEEKLY_EXPIRY);
    const later = callsOf('TXO').filter((info) => info.last_trading_date > WEEKLY_EXPIRY);
    const nearMoney = (series: typeof calls) => series[Math.floor(series.length / 2)]!.code;
    fill(broker, nearMoney(expiring), 'Buy');
    clock.set(taipeiInstant(WEEKLY_EXPIRY, '13:31'));
    const code = nearMoney(expiring);
    const refused = broker.orders.place({ contract: { code }, futuresOrder: marketOrder('Sell') });
    assert.equal(refused.status.status, 'Failed');
    assert.match(refused.status.msg, new RegExp(`${code} stopped trading at 13:30 on ${WEEKLY_EXPIRY}`));
    fill(broker, nearMoney(later), 'Buy');
  });

  test('a resting order on it expires at 13:30, and a combo with a leg in it is refused', { timeout: 30_000 }, () => {
    const { clock, broker } = brokerAt(MONTHLY_EXPIRY, '13:00');
    const info = broker.contracts.info('TXFL6') as FuturesInfo;
    const resting = broker.orders.place({
      contract: { code: 'TXFL6' },
      futuresOrder: { ...marketOrder('Buy'), price: info.limit_down, price_type: 'LMT', order_type: 'ROD' },
    });
    assert.equal(resting.status.status, 'Submitted', resting.status.msg);
    clock.set(taipeiInstant(MONTHLY_EXPIRY, '13:30:01'));
    broker.orders.sync();
    const expired = broker.orders.trade(resting.order.id)!;
    assert.equal(expired.status.status, 'Cancelled');
    assert.match(expired.status.msg, /stopped trading at expiry/);
    const [combo] = broker.contracts.futuresCombos('TXF');
    assert.ok(
      combo!.legs.some((leg) => leg.code === 'TXFL6'),
      combo!.code ?? '',
    );
    const legs = combo!.legs.map((leg) => ({ security_type: leg.security_type, code: leg.code }));
    const refused = broker.orders.placeCombo({ legs, order: marketOrder('Buy') });
    assert.equal(refused.status.status, 'Failed');
    assert.match(refused.status.msg, /leg TXFL6 stopped trading at 13:30 on 2026-12-16/);
  });

  test('its tape ends at 13:30 with the final settlement, after every other trade', { timeout: 30_000 }, () => {
    const { broker } = brokerAt(MONTHLY_EXPIRY, '10:00', 'exchange');
    const info = broker.market.listings.infoOn('TXFL6', MONTHLY_EXPIRY) as FuturesInfo;
    const tape = broker.market.tape(info, MONTHLY_EXPIRY);
    const last = tape.times.length - 1;
    for (let k = 1; k < tape.times.length; k++) assert.ok(tape.times[k]! >= tape.times[k - 1]!, `trade ${k} in order`);
    assert.equal(tape.times[last]! / 1000, taipeiInstant(MONTHLY_EXPIRY, '13:30'));
    assert.ok(tape.times[last - 1]! < tape.times[last]!, 'the settlement print is the last one');
    assert.equal(tape.prices[last], indexAverage(broker, MONTHLY_EXPIRY));
    // A contract that does not expire trades on to 13:45, its settlement print still the last.
    const next = broker.market.listings.infoOn('TXFA7', MONTHLY_EXPIRY) as FuturesInfo;
    const nextTape = broker.market.tape(next, MONTHLY_EXPIRY);
    const n = nextTape.times.length - 1;
    assert.equal(nextTape.times[n]! / 1000, taipeiInstant(MONTHLY_EXPIRY, '13:44:59'));
    for (let k = 1; k <= n; k++) assert.ok(nextTape.times[k]! >= nextTape.times[k - 1]!, `trade ${k} in order`);
  });

  test('every contract expiring on a day prints its final settlement last, after every other trade (both modes)', {
    timeout: 30_000,
  }, () => {
    const kinds = new Set<string>();
    for (const mode of ['always-open', 'exchange'] as const) {
      const market = new SimMarket(1, mode);
      // The third Wednesday (monthly futures, stock futures, the monthly TXO) and a Friday (weekly options).
      for (const day of [MONTHLY_EXPIRY, '2026-11-27']) {
        const expiring = [...market.listings.derivativesOn(day).values()].filter(
          (info): info is FuturesInfo | OptionInfo =>
            (info.security_type === 'FUT' || info.security_type === 'OPT') &&
            !info.target_code &&
            info.last_trading_date === day,
        );
        assert.ok(expiring.length > 50, `${mode} ${day}: ${expiring.length}`);
        // Every index future, every eighth stock future (some 200 expire together, each on its own stock's tape) and
        // every fourth option series: the ones left out share the code path of those sampled.
        const everyNth = (info: FuturesInfo | OptionInfo) =>
          info.security_type === 'OPT' ? 4 : info.underlying_code === 'IX0001' ? 1 : 8;
        const sampled = expiring.filter((info, k) => k % everyNth(info) === 0);
        for (const info of sampled) {
          const { times, prices } = market.tape(info, day);
          const last = times.length - 1;
          for (let k = 1; k < last; k++) assert.ok(times[k]! >= times[k - 1]!, `${mode} ${info.code}: trade ${k}`);
          assert.ok(times[last - 1]! < times[last]!, `${mode} ${info.code}: the settlement print is the last`);
          assert.equal(times[last]! / 1000, taipeiInstant(day, '13:30'), `${mode} ${info.code}`);
          assert.equal(prices[last], market.values.settlementOf(info, day), `${mode} ${info.code}`);
          kinds.add(`${info.security_type} ${info.underlying_code === 'IX0001' ? 'index' : 'stock'}`);
        }
      }
    }
    assert.deepEqual([...kinds].sort(), ['FUT index', 'FUT stock', 'OPT index']);
  });

  test('a combo with a leg that expires stops printing at 13:30 with it', { timeout: 30_000 }, () => {
    for (const mode of ['always-open', 'exchange'] as const) {
      const { broker } = brokerAt(MONTHLY_EXPIRY, '10:00', mode);
      const combos = broker.contracts.futuresCombos('TXF').filter((c) => c.legs.some((l) => l.code === 'TXFL6'));
      assert.ok(combos.length > 0);
      for (const combo of combos) {
        const tape = broker.market.comboTape(combo, MONTHLY_EXPIRY);
        assert.ok(tape.times.length > 0, combo.code ?? '');
        assert.ok(tape.times[tape.times.length - 1]! / 1000 < taipeiInstant(MONTHLY_EXPIRY, '13:30'), combo.code ?? '');
      }
    }
  });

  test('the final settlement price is the same in both clock modes, and is what the index or the stock showed', () => {
    const prices = (['always-open', 'exchange'] as const).map((mode) => {
      const market = new SimMarket(1, mode);
      return [MONTHLY_EXPIRY, WEEKLY_EXPIRY, '2026-11-27'].flatMap((day) =>
        ['IX0001', '2330'].map((code) =>
          market.values.finalSettlementOf({ underlying_code: code, last_trading_date: day }),
        ),
      );
    });
    assert.deepEqual(prices[0], prices[1]);
    // A stock future averages its stock every 5 s from 12:30 to 13:25 and its 13:30 close, to NT$0.01.
    const exchange = new SimMarket(1, 'exchange');
    const stockPrices: number[] = [];
    for (let t = taipeiInstant(MONTHLY_EXPIRY, '12:30'); t <= taipeiInstant(MONTHLY_EXPIRY, '13:25'); t += 5000) {
      stockPrices.push(exchange.stockPriceAt('2330', t));
    }
    stockPrices.push(exchange.daily.closeOf('2330', MONTHLY_EXPIRY));
    const mean = stockPrices.reduce((a, b) => a + b, 0) / stockPrices.length;
    assert.equal(prices[0]![1], Math.round(mean * 100) / 100);
    for (const mode of ['always-open', 'exchange'] as const) {
      const { broker } = brokerAt(MONTHLY_EXPIRY, '15:00', mode);
      assert.equal(indexAverage(broker, MONTHLY_EXPIRY), prices[0]![0], `${mode}: the index tape's average`);
    }
  });
});

describe('positions held through expiry are cash-settled', () => {
  test('a held TXF settles at the final price and the next day shows no position and the right equity', {
    timeout: 30_000,
  }, () => {
    const { clock, broker } = brokerAt(MONTHLY_EXPIRY, '10:00');
    const entry = fill(broker, 'TXFL6', 'Buy');
    const final = broker.market.values.finalSettlementOf({
      underlying_code: 'IX0001',
      last_trading_date: MONTHLY_EXPIRY,
    });
    clock.set(taipeiInstant('2026-12-17', '10:00'));
    assert.deepEqual(broker.portfolio.positions(F, 'Common'), []);
    const records = broker.portfolio.profitLoss(F, { begin_date: MONTHLY_EXPIRY }, 'Common') as FutureProfitLoss[];
    assert.equal(records.length, 1);
    const settled = records[0]!;
    assert.equal(settled.cover_price, final);
    assert.equal(settled.date, MONTHLY_EXPIRY);
    const open = futuresCost({ securityType: 'FUT', root: 'TXF', multiplier: 200, price: entry, quantity: 1 });
    const close = futuresCost({ securityType: 'FUT', root: 'TXF', multiplier: 200, price: final, quantity: 1 });
    const gross = Math.round((final - entry) * 200);
    assert.equal(settled.pnl, gross - open.fee - open.tax - close.fee - close.tax);
    const margin = broker.portfolio.margin(F);
    assert.equal(margin.initial_margin, 0, 'the margin is released');
    assert.equal(margin.future_open_position, 0);
    assert.equal(margin.equity, STARTING_COLLATERAL + settled.pnl);
    assert.equal(margin.yesterday_balance, margin.equity, 'the settlement belongs to the expiry day');
  });

  test('options are exercised in the money, long or short, and expire worthless out of it', { timeout: 30_000 }, () => {
    const { clock, broker } = brokerAt(WEEKLY_EXPIRY, '10:00');
    const final = broker.market.values.finalSettlementOf({
      underlying_code: 'IX0001',
      last_trading_date: WEEKLY_EXPIRY,
    });
    const weeklies = broker.contracts
      .options({ root: 'TX4' })
      .filter((info) => info.last_trading_date === WEEKLY_EXPIRY);
    const nearest = (right: 'C' | 'P', wanted: number) =>
      weeklies
        .filter((info) => info.option_right === right)
        .reduce((best, info) =>
          Math.abs(info.strike_price - wanted) < Math.abs(best.strike_price - wanted) ? info : best,
        );
    const itmCall = nearest('C', final - 300);
    const otmCall = nearest('C', final + 300);
    const itmPut = nearest('P', final + 200);
    assert.ok(itmCall.strike_price < final && otmCall.strike_price > final && itmPut.strike_price > final);
    const callPaid = fill(broker, itmCall.code, 'Buy', 2);
    fill(broker, otmCall.code, 'Buy');
    const putReceived = fill(broker, itmPut.code, 'Sell');
    const before = broker.portfolio.margin(F);
    assert.ok(before.initial_margin > 0, 'the short put needs margin');

    clock.set(taipeiInstant('2026-11-26', '10:00'));
    assert.deepEqual(broker.portfolio.positions(F, 'Common') as FuturePosition[], []);
    const records = broker.portfolio.profitLoss(F, { begin_date: WEEKLY_EXPIRY }, 'Common') as FutureProfitLoss[];
    const byCode = new Map(records.map((r) => [r.code, r]));
    const callValue = final - itmCall.strike_price;
    const putValue = itmPut.strike_price - final;
    assert.equal(byCode.get(itmCall.code)!.cover_price, callValue);
    assert.equal(byCode.get(otmCall.code)!.cover_price, 0);
    assert.equal(byCode.get(itmPut.code)!.cover_price, putValue);
    const cost = (price: number, quantity: number) =>
      futuresCost({ securityType: 'OPT', root: 'TX4', multiplier: 50, price, quantity });
    const exercise = cost(callValue, 2);
    const openCall = cost(callPaid, 2);
    assert.equal(
      byCode.get(itmCall.code)!.pnl,
      Math.round((callValue - callPaid) * 2 * 50) - openCall.fee - openCall.tax - exercise.fee - exercise.tax,
    );
    const assigned = cost(putValue, 1);
    const openPut = cost(putReceived, 1);
    assert.equal(
      byCode.get(itmPut.code)!.pnl,
      Math.round((putReceived - putValue) * 50) - openPut.fee - openPut.tax - assigned.fee - assigned.tax,
    );
    const margin = broker.portfolio.margin(F);
    assert.equal(margin.initial_margin, 0);
    assert.equal(margin.option_openbuy_market_value, 0);
    const realized = records.reduce((sum, r) => sum + r.pnl, 0);
    assert.equal(margin.equity_amount, STARTING_COLLATERAL + realized, 'every premium, exercise and cost is counted');
  });

  test('a settlement survives a restart and is not made again', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-expiry-'));
    try {
      const path = join(dir, 'sjgate.db');
      const first = brokerAt(MONTHLY_EXPIRY, '10:00', 'always-open', path);
      fill(first.broker, 'TXFL6', 'Sell');
      fill(first.broker, 'TXFA7', 'Buy');
      first.clock.set(taipeiInstant(MONTHLY_EXPIRY, '13:31'));
      first.broker.orders.sync();
      // A deal after the settlement, in a contract that trades on.
      fill(first.broker, 'TXFA7', 'Sell');
      await first.gateway.durable();
      const margin = first.broker.portfolio.margin(F);
      const records = first.broker.portfolio.profitLoss(F, { begin_date: MONTHLY_EXPIRY }, 'Common');
      assert.equal(records.length, 2);
      assert.deepEqual(
        records.map((r) => r.code),
        ['TXFL6', 'TXFA7'],
      );
      const account = first.broker.accounts.defaultAccount('F');
      const accountKey = `${account.broker_id}-${account.account_id}`;
      const settlementRows = first.gateway.journal.ledger
        .cashEntries(accountKey)
        .filter((entry) => entry.ref === 'expiry:TXFL6');
      assert.ok(settlementRows.length >= 1, 'the settlement is in the journal');
      await first.gateway.close();

      for (const time of ['13:32', '15:00']) {
        const again = brokerAt(MONTHLY_EXPIRY, time, 'always-open', path);
        again.broker.orders.sync();
        assert.deepEqual(again.broker.portfolio.profitLoss(F, { begin_date: MONTHLY_EXPIRY }, 'Common'), records);
        assert.deepEqual(again.broker.portfolio.positions(F, 'Common'), []);
        const after = again.broker.portfolio.margin(F);
        assert.equal(after.today_balance, margin.today_balance, 'settled once');
        await again.gateway.durable();
        assert.equal(
          again.gateway.journal.ledger.cashEntries(accountKey).filter((e) => e.ref === 'expiry:TXFL6').length,
          settlementRows.length,
          'no second settlement in the journal',
        );
        await again.gateway.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('settlement is deterministic', () => {
  test('the same seed settles a held TXO the same in both clock modes', { timeout: 60_000 }, () => {
    const outcomes = (['always-open', 'exchange'] as const).map((mode) => {
      const { clock, broker } = brokerAt(MONTHLY_EXPIRY, '13:00', mode);
      const option = broker.contracts
        .options({ root: 'TXO', deliveryMonth: '202612', optionRight: 'C' })
        .find((info: OptionInfo) => info.strike_price % 1000 === 0 && info.reference > 100)!;
      fill(broker, option.code, 'Buy');
      clock.set(taipeiInstant(MONTHLY_EXPIRY, '14:00'));
      const record = (broker.portfolio.profitLoss(F, {}, 'Common') as FutureProfitLoss[])[0]!;
      return { code: option.code, cover: record.cover_price };
    });
    assert.deepEqual(outcomes[0], outcomes[1]);
  });
});
