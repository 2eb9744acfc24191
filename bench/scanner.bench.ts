// The market scanner over whole exchanges: what a simulated hour at the open costs with nothing subscribed, with
// one rule, and with every rule and state on both exchanges; and the one-off cost of the first subscription (the
// day's tapes of every stock). Market time runs on a manual clock in 100 ms feed steps, as fast as it computes.

import { SimBroker } from '../src/broker/sim/sim-broker.js';
import { SCANNER_EXCHANGES, SCANNER_RULES, SCANNER_STATES, type ScannerId } from '../src/domain/scanner-rules.js';
import { ManualClock, taipeiInstant } from '../src/domain/time.js';

const MINUTES = Number(process.env.BENCH_SCANNER_MINUTES ?? '60');

function hour(label: string, scanners: ScannerId[]) {
  const clock = new ManualClock(taipeiInstant('2026-11-23', '09:00'));
  const broker = new SimBroker({ clock, seed: 1, clockMode: 'exchange', apiKey: null });
  let events = 0;
  broker.scanner.onMarketEvent(() => events++);
  const subscribeStart = performance.now();
  for (const exchange of SCANNER_EXCHANGES) {
    for (const scanner of scanners) broker.scanner.subscribe({ scanner, region: 'TW', security_type: 'STK', exchange });
  }
  const subscribeMs = performance.now() - subscribeStart;
  const start = performance.now();
  for (let t = 0; t < MINUTES * 60_000; t += 100) {
    clock.advance(100);
    broker.feed.step();
  }
  const runMs = performance.now() - start;
  return {
    benchmark: 'scanner-exchange-scan',
    scanners: label,
    market_minutes: MINUTES,
    first_subscribe_ms: Math.round(subscribeMs),
    run_ms: Math.round(runMs),
    cpu_share_of_real_time: Number((runMs / (MINUTES * 60_000)).toFixed(5)),
    events,
  };
}

export async function run() {
  return [
    hour('none', []),
    hour('volume_burst', ['volume_burst']),
    hour('every rule and state', [...SCANNER_RULES, ...SCANNER_STATES]),
  ];
}
