// The scanner's price-move rules over both exchanges (what Sinotrade's pro-app radar subscribes by default): signals
// a minute, by rule, in three simulated minutes at a few hours of both clock modes. Market time runs on a manual
// clock in 100 ms feed steps.

import { SimBroker } from '../src/broker/sim/sim-broker.js';
import { PRICE_MOVE_RULES, SCANNER_EXCHANGES } from '../src/domain/scanner-rules.js';
import type { ClockMode } from '../src/domain/sessions.js';
import { ManualClock, taipeiInstant } from '../src/domain/time.js';

const MINUTES = Number(process.env.BENCH_RADAR_MINUTES ?? '3');
const DAY = '2026-11-24';

function signalsPerMinute(mode: ClockMode, time: string) {
  const clock = new ManualClock(taipeiInstant(DAY, time));
  const broker = new SimBroker({ clock, seed: 1, clockMode: mode, apiKey: null });
  const byRule: Record<string, number> = Object.fromEntries(PRICE_MOVE_RULES.map((rule) => [rule, 0]));
  broker.scanner.onMarketEvent((event) => {
    const rule = (event.data as { scanner: string }).scanner;
    byRule[rule] = (byRule[rule] ?? 0) + 1 / MINUTES;
  });
  for (const exchange of SCANNER_EXCHANGES) {
    for (const scanner of PRICE_MOVE_RULES)
      broker.scanner.subscribe({ scanner, region: 'TW', security_type: 'STK', exchange });
  }
  for (let t = 0; t < MINUTES * 60_000; t += 100) {
    clock.advance(100);
    broker.feed.step();
  }
  const rounded = Object.fromEntries(Object.entries(byRule).map(([rule, n]) => [rule, Math.round(n * 10) / 10]));
  return { benchmark: 'radar-price-move-signals', clock: mode, day: DAY, time, minutes: MINUTES, per_minute: rounded };
}

export async function run() {
  return [
    signalsPerMinute('exchange', '10:00'),
    signalsPerMinute('always-open', '10:00'),
    signalsPerMinute('always-open', '21:00'),
  ];
}
