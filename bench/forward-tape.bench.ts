// What every listed stock's always-open tape costs when drawn only up to an instant (forward-tape.ts) against the
// whole Friday-to-Monday day: build time, trades and bytes of tape arrays, for a few instants of that day. Pure
// computation on the simulator, tapes not kept; no server.

import { LISTED_SECURITIES } from '../src/broker/sim/catalog/listed-securities.js';
import { SimMarket } from '../src/broker/sim/market/market.js';
import { tapeBytes } from '../src/broker/sim/market/tape-cache.js';
import { taipeiInstant } from '../src/domain/time.js';

const FRIDAY = '2026-11-20';
const INSTANTS: [string, string][] = [
  [FRIDAY, '04:00'],
  [FRIDAY, '12:00'],
  ['2026-11-21', '12:00'],
  ['2026-11-23', '23:00'],
];

function everyStockUntil(untilMs: number) {
  const market = new SimMarket(1, 'always-open');
  const stocks = LISTED_SECURITIES.map((security) => market.listings.stockOn(security.code, FRIDAY));
  const begin = performance.now();
  let trades = 0;
  let bytes = 0;
  for (const info of stocks) {
    const tape = market.builder.buildUntil(info, FRIDAY, untilMs);
    trades += tape.times.length;
    bytes += tapeBytes(tape);
  }
  const ms = performance.now() - begin;
  return { stocks: stocks.length, ms: Math.round(ms), trades, mb: Math.round(bytes / 1e6) };
}

export async function run() {
  const prefixes = INSTANTS.map(([day, time]) => ({
    until: `${day} ${time}`,
    ...everyStockUntil(taipeiInstant(day, time)),
  }));
  const whole = everyStockUntil(Number.POSITIVE_INFINITY);
  return { name: 'forward-tape', clock: 'always-open', day: FRIDAY, prefixes, whole };
}
