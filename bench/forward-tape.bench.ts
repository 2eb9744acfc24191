// What every listed stock's always-open tape costs when drawn only up to an instant (forward-tape.ts) against the
// whole Friday-to-Monday day: build time, trades and bytes of tape arrays, for a few instants of that day. Pure
// computation on the simulator, tapes not kept; no server. `ms` is the first pass on a fresh market, `ms_again` a
// second pass on it.

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

/** Every stock's tape up to an instant, on a fresh market (cold: the first build of a day counts its trades). */
function everyStockUntil(untilMs: number) {
  const market = new SimMarket(1, 'always-open');
  const stocks = LISTED_SECURITIES.map((security) => market.listings.stockOn(security.code, FRIDAY));
  const pass = () => {
    const begin = performance.now();
    let trades = 0;
    let bytes = 0;
    for (const info of stocks) {
      const tape = market.builder.buildUntil(info, FRIDAY, untilMs);
      trades += tape.times.length;
      bytes += tapeBytes(tape);
    }
    return { ms: Math.round(performance.now() - begin), trades, mb: Math.round(bytes / 1e6) };
  };
  const cold = pass();
  // Again on the same market: what building the prefix afresh costs once the day's trade counts are known.
  const warm = pass();
  return { stocks: stocks.length, ...cold, ms_again: warm.ms };
}

export async function run() {
  const prefixes = INSTANTS.map(([day, time]) => ({
    until: `${day} ${time}`,
    ...everyStockUntil(taipeiInstant(day, time)),
  }));
  const whole = everyStockUntil(Number.POSITIVE_INFINITY);
  return { name: 'forward-tape', clock: 'always-open', day: FRIDAY, prefixes, whole };
}
