// Sweeps: bursts of trades within milliseconds at successive price levels, laid over the tape without moving the
// call auctions; they are what makes the scanner's price-move rules (1% and 3 ticks within a second) fire.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import type { Tape } from '../../src/broker/sim/market/tape.js';
import { SCANNER_EXCHANGES } from '../../src/domain/scanner-rules.js';
import { isOnTickGrid } from '../../src/domain/ticks.js';
import { taipeiInstant } from '../../src/domain/time.js';
import { simBrokerAt } from '../helpers/sim-market.js';

const DAY = '2026-11-24';
const market = new SimMarket(1, 'exchange');
const tapeOf = (code: string) => market.tape(market.listings.stockOn(code, DAY), DAY);

/** Runs of at least `levels` trades, each within 1 ms of the one before, stepping one way on the tick grid. */
function sweepsIn(tape: Tape, levels: number): number[] {
  const starts: number[] = [];
  let start = 0;
  let direction = 0;
  for (let k = 1; k <= tape.times.length; k++) {
    const step = k < tape.times.length ? Math.sign(tape.prices[k]! - tape.prices[k - 1]!) : 0;
    const close = k < tape.times.length && tape.times[k]! - tape.times[k - 1]! <= 1000;
    if (close && step !== 0 && (direction === 0 || step === direction)) {
      direction = step;
      continue;
    }
    if (k - start >= levels && direction !== 0) starts.push(start);
    start = k;
    direction = 0;
  }
  return starts;
}

describe('sweeps', () => {
  test('print bursts at successive levels, in time order, on the grid and inside the limits', () => {
    for (const code of ['2330', '2409', '2884']) {
      const tape = tapeOf(code);
      const rules = tape.rules!;
      assert.ok(sweepsIn(tape, 3).length > 0, `${code} has no sweep of three levels`);
      for (let k = 1; k < tape.times.length; k++) assert.ok(tape.times[k]! >= tape.times[k - 1]!, `${code} ${k}`);
      for (const price of tape.prices) {
        assert.ok(isOnTickGrid(rules.ticks, price) && price <= rules.limitUp && price >= rules.limitDown, `${price}`);
      }
    }
  });

  test('leave the opening and closing auctions where they were', () => {
    const tape = tapeOf('2330');
    assert.equal(tape.times[0], taipeiInstant(DAY, '09:00') * 1000 + 1000);
    assert.equal(tape.tickTypes[0], 0);
    assert.equal(tape.prices.at(-1), market.daily.closeOf('2330', DAY));
  });

  test("make the scanner's price-move rules fire within a few minutes of the market", () => {
    const { broker, run } = simBrokerAt(DAY, '10:00', 100);
    const signals: { scanner: string; extra: { change_percent: string; tick_change: number } }[] = [];
    broker.scanner.onMarketEvent((event) => signals.push(event.data as (typeof signals)[number]));
    for (const exchange of SCANNER_EXCHANGES) {
      for (const scanner of ['trade_price_surge', 'trade_price_drop'] as const) {
        broker.scanner.subscribe({ scanner, region: 'TW', security_type: 'STK', exchange });
      }
    }
    run(3 * 60_000);
    assert.ok(signals.length > 0, 'no price-move signal in three minutes');
    for (const { extra } of signals) {
      assert.ok(Math.abs(Number(extra.change_percent)) >= 1 && Math.abs(extra.tick_change) >= 3, JSON.stringify(extra));
    }
  });
});
