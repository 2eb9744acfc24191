import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { publishedCount, type Tape } from '../../src/broker/sim/market/tape.js';
import type { FuturesInfo, OptionInfo } from '../../src/domain/contracts.js';
import { taipeiInstant } from '../../src/domain/time.js';

const DAY = '2026-11-20';
const market = new SimMarket(1, 'exchange');
const listed = [...market.listings.derivativesOn(DAY).values()].filter((info) => !info.target_code);
const nearMonth = (root: string) =>
  listed.find((info): info is FuturesInfo => info.security_type === 'FUT' && info.root === root)!;

/** The last trade of a tape at an instant, if it printed at most `freshMs` before it. */
function lastTrade(tape: Tape, epochMs: number, freshMs: number): number | null {
  const count = publishedCount(tape, epochMs);
  if (count === 0 || epochMs - tape.times[count - 1]! / 1000 > freshMs) return null;
  return tape.prices[count - 1]!;
}

/** Mean and largest |a - b| at each trade of `a`, against the last trade of `b` in the 10 s before. */
function gapsAtTrades(a: Tape, b: Tape): { mean: number; max: number; count: number } {
  let sum = 0;
  let max = 0;
  let count = 0;
  for (let k = 0; k < a.times.length - 1; k++) {
    const other = lastTrade(b, a.times[k]! / 1000, 10_000);
    if (other === null) continue;
    const gap = Math.abs(a.prices[k]! - other);
    sum += gap;
    max = Math.max(max, gap);
    count++;
  }
  return { mean: sum / count, max, count };
}

describe('one carry per underlying and expiry', () => {
  test('TXF, MXF and TMF of one month trade within a tick or two of each other all day and settle alike', () => {
    const [txf, mxf, tmf] = ['TXF', 'MXF', 'TMF'].map(nearMonth) as [FuturesInfo, FuturesInfo, FuturesInfo];
    assert.equal(mxf.delivery_month, txf.delivery_month);
    assert.equal(tmf.delivery_month, txf.delivery_month);
    const tape = market.tape(txf, DAY);
    for (const other of [mxf, tmf]) {
      const gaps = gapsAtTrades(tape, market.tape(other, DAY));
      assert.ok(gaps.count > 1000, `${other.code}: ${gaps.count} trades compared`);
      // One point is a tick of all three: trades at the bid or the ask, seconds apart, on the same forward.
      assert.ok(gaps.mean <= 3, `${txf.code} - ${other.code}: mean gap ${gaps.mean}`);
      assert.ok(gaps.max <= 40, `${txf.code} - ${other.code}: largest gap ${gaps.max}`);
      assert.equal(market.values.settlementOf(other, DAY), market.values.settlementOf(txf, DAY), other.code);
    }
    const at = taipeiInstant(DAY, '10:00');
    assert.equal(market.values.fairValueAt(mxf, at), market.values.fairValueAt(txf, at));
    assert.equal(market.values.fairValueAt(tmf, at), market.values.fairValueAt(txf, at));
  });

  test("a stock's futures of one month (2330's CDF and the small QFF) share one forward", () => {
    const [cdf, qff] = ['CDF', 'QFF'].map(nearMonth) as [FuturesInfo, FuturesInfo];
    assert.equal(cdf.delivery_month, qff.delivery_month);
    const at = taipeiInstant(DAY, '11:00');
    assert.equal(market.values.fairValueAt(cdf, at), market.values.fairValueAt(qff, at));
    assert.equal(market.values.settlementOf(cdf, DAY), market.values.settlementOf(qff, DAY));
  });

  test('different expiries carry differently, and the basis is zero at expiry', () => {
    const months = listed.filter((info): info is FuturesInfo => info.security_type === 'FUT' && info.root === 'TXF');
    const at = taipeiInstant(DAY, '10:00');
    const spot = Math.exp(market.factors.logAt('TSE', at));
    const carries = months.map((info) => {
      const years = (taipeiInstant(info.last_trading_date, '13:30') - at) / (365 * 86400_000);
      return (market.values.fairValueAt(info, at) / spot - 1) / years;
    });
    assert.equal(new Set(carries.map((c) => c.toFixed(6))).size, months.length, carries.join(' '));
    for (const carry of carries) assert.ok(carry >= -0.02 && carry <= 0.03, `annual carry ${carry}`);
    const expiry = months[0]!.last_trading_date;
    const close = taipeiInstant(expiry, '13:30');
    assert.equal(market.values.forwardAt('IX0001', expiry, close), Math.exp(market.factors.logAt('TSE', close)));
  });
});

describe('put-call parity against every futures product of the expiry', () => {
  const [txf, mxf, tmf] = ['TXF', 'MXF', 'TMF'].map(nearMonth) as [FuturesInfo, FuturesInfo, FuturesInfo];
  const options = listed.filter(
    (info): info is OptionInfo =>
      info.security_type === 'OPT' && info.root === 'TXO' && info.last_trading_date === txf.last_trading_date,
  );
  const forward = market.values.fairValueAt(txf, taipeiInstant(DAY, '11:00'));
  const strikes = [...new Set(options.map((o) => o.strike_price))]
    .sort((a, b) => Math.abs(a - forward) - Math.abs(b - forward))
    .slice(0, 3);
  const pair = (strike: number) =>
    (['C', 'P'] as const).map((right) =>
      options.find((o) => o.strike_price === strike && o.option_right === right),
    ) as [OptionInfo, OptionInfo];

  test('the fair values: C - P = F - K exactly on TXF, MXF and TMF (TXO is priced off the futures; no discount)', () => {
    for (const time of ['00:30', '09:00', '11:00', '13:40']) {
      const at = taipeiInstant(DAY, time);
      for (const strike of strikes) {
        const [call, put] = pair(strike);
        const premiums = market.values.optionValueAt(call, at) - market.values.optionValueAt(put, at);
        for (const futures of [txf, mxf, tmf]) {
          const residual = premiums - (market.values.fairValueAt(futures, at) - strike);
          assert.ok(Math.abs(residual) < 1e-6, `${futures.code} ${strike} ${time}: ${residual}`);
        }
      }
    }
  });

  test('the tapes: at the money, C - P - (MXF - K) is zero on average and within a few ticks', () => {
    const mxfTape = market.tape(mxf, DAY);
    for (const strike of strikes) {
      const [call, put] = pair(strike);
      const callTape = market.tape(call, DAY);
      const putTape = market.tape(put, DAY);
      const residuals: number[] = [];
      for (let k = 0; k < callTape.times.length - 1; k++) {
        const at = callTape.times[k]! / 1000;
        const putPrice = lastTrade(putTape, at, 30_000);
        const futuresPrice = lastTrade(mxfTape, at, 30_000);
        if (putPrice === null || futuresPrice === null) continue;
        residuals.push(callTape.prices[k]! - putPrice - (futuresPrice - strike));
      }
      assert.ok(residuals.length >= 20, `${strike}: ${residuals.length} instants`);
      const mean = residuals.reduce((a, b) => a + b, 0) / residuals.length;
      const meanAbs = residuals.reduce((a, b) => a + Math.abs(b), 0) / residuals.length;
      // A premium near the money has a tick of 1 to 5 points; each of the three trades is at its bid or ask, up to
      // 30 s old, and a near-the-money option's quote is often a tick or two wider (docs/matching.md, the quoted
      // spread): about half a spread of bounce on each option, so the mean of some 90 residuals is within about
      // three points of zero (three standard errors).
      assert.ok(Math.abs(mean) <= 3.5, `${strike}: mean residual ${mean}`);
      assert.ok(meanAbs <= 10, `${strike}: mean |residual| ${meanAbs}`);
    }
  });
});
