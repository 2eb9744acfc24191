// What every listed stock's always-open tape costs when drawn only up to an instant (forward-tape.ts) against the
// whole Friday-to-Monday day: build time, trades and bytes of tape arrays, for a few instants of that day; and what
// keeping each stock's draw where it stopped saves when the whole listing is asked again every 10 s of sim time for
// an hour (`extend`), against drawing each stock's day from its start every time (`rebuild`, sampled); and every
// stock's figures so far drawn without keeping trades (`figures`, trade counts already known). Pure
// computation on the simulator; no server.

import { LISTED_SECURITIES } from '../src/broker/sim/catalog/listed-securities.js';
import { SimMarket } from '../src/broker/sim/market/market.js';
import { OpenStockDays } from '../src/broker/sim/market/open-stock-days.js';
import { tapeBytes } from '../src/broker/sim/market/tape-cache.js';
import { taipeiInstant } from '../src/domain/time.js';

const FRIDAY = '2026-11-20';
const INSTANTS: [string, string][] = [
  [FRIDAY, '04:00'],
  [FRIDAY, '12:00'],
  [FRIDAY, '23:00'],
  ['2026-11-23', '23:00'],
];
const STEP_MS = 10_000;
const HOUR_MS = 3_600_000;
/** Rebuilding the whole listing from the day's start is sampled at this many of the hour's steps. */
const REBUILD_SAMPLES = 3;

function listingOf(market: SimMarket) {
  return LISTED_SECURITIES.map((security) => market.listings.stockOn(security.code, FRIDAY));
}

/** Every stock's tape up to an instant, on a fresh market (cold: the first build of a day counts its trades). */
function everyStockUntil(untilMs: number) {
  const market = new SimMarket(1, 'always-open');
  const stocks = listingOf(market);
  const begin = performance.now();
  let trades = 0;
  let bytes = 0;
  for (const info of stocks) {
    const tape = market.builder.buildUntil(info, FRIDAY, untilMs);
    trades += tape.times.length;
    bytes += tapeBytes(tape);
  }
  const ms = Math.round(performance.now() - begin);
  return { stocks: stocks.length, ms, trades, mb: Math.round(bytes / 1e6), draws_mb: drawMb(market) };
}

/** Every stock's figures up to an instant, drawn without keeping trades, on a fresh market (trade counts known). */
function everyStockFigures(untilMs: number) {
  const market = new SimMarket(1, 'always-open');
  const stocks = listingOf(market);
  const days = market.builder.openStocks;
  for (const info of stocks) days.figures(info, FRIDAY, Number.NEGATIVE_INFINITY);
  const begin = performance.now();
  let trades = 0;
  for (const info of stocks) trades += days.figures(info, FRIDAY, untilMs).count;
  const ms = Math.round(performance.now() - begin);
  const later = performance.now();
  for (const info of stocks) days.figures(info, FRIDAY, untilMs + STEP_MS);
  return { until: new Date(untilMs).toISOString(), ms, trades, next_10s_ms: round(performance.now() - later) };
}

const drawMb = (market: SimMarket) => Math.round(market.builder.openStocks.kept.bytes / 1e6);

/** The whole listing asked for every 10 s of an hour from `fromMs`: extending kept draws against rebuilding. */
function everyTenSeconds(fromMs: number) {
  const market = new SimMarket(1, 'always-open');
  const stocks = listingOf(market);
  const pass = (days: { tape: typeof market.builder.buildUntil }, untilMs: number) => {
    const begin = performance.now();
    let trades = 0;
    for (const info of stocks) trades += days.tape(info, FRIDAY, untilMs).times.length;
    return { ms: performance.now() - begin, trades };
  };
  const kept = { tape: market.builder.buildUntil.bind(market.builder) };
  const first = pass(kept, fromMs);
  const steps: number[] = [];
  for (let untilMs = fromMs + STEP_MS; untilMs <= fromMs + HOUR_MS; untilMs += STEP_MS)
    steps.push(pass(kept, untilMs).ms);
  // Keeping no draw: each ask draws the day from its start (the trade counts stay known, as before).
  const volumeOf = (code: string, day: string) => market.builder.stockVolume(code, day);
  const none = new OpenStockDays(1, market.daily, market.factors, volumeOf, { count: 0, bytes: 0 });
  const rebuild: number[] = [];
  for (let i = 1; i <= REBUILD_SAMPLES; i++) rebuild.push(pass(none, fromMs + (i * HOUR_MS) / REBUILD_SAMPLES).ms);
  const sorted = [...steps].sort((a, b) => a - b);
  return {
    from: new Date(fromMs).toISOString(),
    stocks: stocks.length,
    steps: steps.length,
    first_ms: Math.round(first.ms),
    trades_at_start: first.trades,
    extend_ms_median: round(sorted[sorted.length >> 1]!),
    extend_ms_max: round(sorted.at(-1)!),
    extend_ms_total: Math.round(steps.reduce((a, b) => a + b, 0)),
    rebuild_ms_mean: Math.round(rebuild.reduce((a, b) => a + b, 0) / rebuild.length),
    draws_kept: market.builder.openStocks.kept.count,
    draws_mb: drawMb(market),
  };
}

const round = (ms: number) => Math.round(ms * 100) / 100;

export async function run() {
  const prefixes = INSTANTS.map(([day, time]) => ({
    until: `${day} ${time}`,
    ...everyStockUntil(taipeiInstant(day, time)),
  }));
  const extension = [FRIDAY].map((day) => everyTenSeconds(taipeiInstant(day, '12:00')));
  const figures = [taipeiInstant(FRIDAY, '12:00'), taipeiInstant('2026-11-23', '23:00')].map(everyStockFigures);
  return { name: 'forward-tape', clock: 'always-open', day: FRIDAY, prefixes, extension, figures };
}
