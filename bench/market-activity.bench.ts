// The simulated market's activity and volatility shape: ticks per day and mean trade size of the instruments
// docs/market-activity.md calibrates, the seconds between ticks of 2330 at several hours in both clock modes, the
// night session's share of TXF ticks, the overnight share of the TAIEX's daily variance, and what a day's tape of
// the busiest stock costs to build. Pure computation on the simulator; no server.

import { FOLLOWERS } from '../src/broker/sim/market/daily.js';
import { targetOf } from '../src/broker/sim/market/listings.js';
import { SimMarket } from '../src/broker/sim/market/market.js';
import type { Tape } from '../src/broker/sim/market/tape.js';
import { tapeBytes } from '../src/broker/sim/market/tape-cache.js';
import { previousTradingDay, tradingDaysBetween } from '../src/domain/calendar.js';
import type { ContractInfo, OptionInfo } from '../src/domain/contracts.js';
import type { ClockMode } from '../src/domain/sessions.js';
import { taipeiInstant } from '../src/domain/time.js';

const DAY = '2026-11-24';
const SATURDAY = '2026-11-28';

const sum = (values: ArrayLike<number>) =>
  Array.prototype.reduce.call(values, (a, b) => (a as number) + (b as number), 0) as number;

function frontMonth(market: SimMarket, day: string): ContractInfo {
  return targetOf(market.listings.infoOn('TXFR1', day)!);
}

function atTheMoneyCall(market: SimMarket, day: string): OptionInfo {
  const forward = market.tape(market.listings.infoOn('IX0001', day)!, day).prices[0]!;
  const listed = [...market.listings.derivativesOn(day).values()].filter(
    (info): info is OptionInfo =>
      info.security_type === 'OPT' && info.root.startsWith('TX') && info.option_right === 'C',
  );
  const expiry = listed.map((o) => o.last_trading_date).sort()[0];
  return listed
    .filter((o) => o.last_trading_date === expiry)
    .sort((a, b) => Math.abs(a.strike_price - forward) - Math.abs(b.strike_price - forward))[0]!;
}

function activity(market: SimMarket, info: ContractInfo, day: string) {
  const tape = market.tape(info, day);
  const volume = sum(tape.volumes);
  const ones = tape.volumes.filter((v) => v === 1).length;
  return {
    code: info.code,
    ticks: tape.times.length,
    volume,
    mean_trade_size: Number((volume / Math.max(1, tape.times.length)).toFixed(2)),
    one_unit_share: Number((ones / Math.max(1, tape.times.length)).toFixed(2)),
    max_trade: Math.max(...tape.volumes),
  };
}

/** Mean seconds between ticks in the ten minutes from an instant, and the mean wait of a subscriber arriving then. */
function gapsAt(tape: Tape, epochMs: number) {
  const from = epochMs * 1000;
  const to = from + 600_000_000;
  const inside: number[] = [];
  for (let k = 0; k < tape.times.length; k++)
    if (tape.times[k]! >= from && tape.times[k]! < to) inside.push(tape.times[k]!);
  if (inside.length < 2) return { ticks_in_10_min: inside.length, mean_gap_s: null, mean_wait_s: null };
  const gaps = inside.slice(1).map((t, k) => (t - inside[k]!) / 1e6);
  const mean = sum(gaps) / gaps.length;
  const wait = sum(gaps.map((g) => g * g)) / (2 * sum(gaps));
  return { ticks_in_10_min: inside.length, mean_gap_s: Number(mean.toFixed(2)), mean_wait_s: Number(wait.toFixed(2)) };
}

function tickGaps(mode: ClockMode) {
  const market = new SimMarket(1, mode);
  const hours: [string, string][] = [
    [DAY, '09:05'],
    [DAY, '11:00'],
    [DAY, '13:20'],
    [DAY, '16:00'],
    [DAY, '22:00'],
    ['2026-11-25', '03:00'],
  ];
  if (mode === 'always-open') hours.push([SATURDAY, '12:00']);
  return Object.fromEntries(
    hours.map(([date, time]) => {
      const at = taipeiInstant(date, time);
      const day = market.dayAt('stock', at);
      const tape = market.tape(market.listings.stockOn('2330', day), day);
      return [`${date} ${time}`, gapsAt(tape, at)];
    }),
  );
}

function nightShape() {
  const market = new SimMarket(1, 'exchange');
  const tape = market.tape(frontMonth(market, DAY), DAY);
  const byHour = new Array(24).fill(0) as number[];
  let night = 0;
  for (let k = 0; k < tape.times.length; k++) {
    const hour = new Date(tape.times[k]! / 1000 + 8 * 3600_000).getUTCHours();
    byHour[hour]! += tape.volumes[k]!;
    if (tape.times[k]! < taipeiInstant(DAY, '08:00') * 1000) night += tape.volumes[k]!;
  }
  const total = sum(tape.volumes);
  const nightHours = [15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4];
  const busiestNight = nightHours.reduce((best, h) => (byHour[h]! > byHour[best]! ? h : best), 15);
  return {
    night_volume_share: Number((night / total).toFixed(3)),
    busiest_night_hour: busiestNight,
    volume_by_hour: byHour,
  };
}

/** The overnight (close to 09:00) share of the TAIEX's close-to-close variance over many days, exchange clock. */
function overnightVarianceShare() {
  const market = new SimMarket(1, 'exchange');
  let gap = 0;
  let whole = 0;
  for (const day of tradingDaysBetween('2026-01-05', '2026-10-30')) {
    const close = market.factors.logAt('TSE', taipeiInstant(day, '13:30'));
    const previous = market.factors.logAt('TSE', taipeiInstant(previousTradingDay(day), '13:30'));
    const open = market.factors.logAt('TSE', taipeiInstant(day, '09:00'));
    gap += (open - previous) ** 2;
    whole += (close - previous) ** 2;
  }
  return Number((gap / whole).toFixed(3));
}

function busiestBuild(mode: ClockMode, day: string) {
  const busiest = [...FOLLOWERS.values()].sort((a, b) => b.avgVolumeLots - a.avgVolumeLots)[0]!;
  const market = new SimMarket(1, mode);
  const info = market.listings.stockOn(busiest.code, day);
  market.tape(market.listings.stockOn(busiest.code, previousTradingDay(day)), previousTradingDay(day));
  const start = performance.now();
  const tape = market.tape(info, day);
  const ms = performance.now() - start;
  return {
    code: busiest.code,
    day,
    ticks: tape.times.length,
    build_ms: Math.round(ms),
    tape_mb: Number((tapeBytes(tape) / 1e6).toFixed(1)),
  };
}

export async function run() {
  const exchange = new SimMarket(1, 'exchange');
  const alwaysOpen = new SimMarket(1, 'always-open');
  const instruments = (market: SimMarket) => [
    market.listings.stockOn('2330', DAY),
    market.listings.stockOn('2317', DAY),
    market.listings.stockOn('0050', DAY),
    frontMonth(market, DAY),
    atTheMoneyCall(market, DAY),
  ];
  return [
    {
      benchmark: 'market-activity',
      mode: 'exchange',
      day: DAY,
      per_day: instruments(exchange).map((i) => activity(exchange, i, DAY)),
    },
    {
      benchmark: 'market-activity',
      mode: 'always-open',
      day: DAY,
      per_day: instruments(alwaysOpen).map((i) => activity(alwaysOpen, i, DAY)),
    },
    { benchmark: 'market-tick-gaps-2330', mode: 'exchange', at: tickGaps('exchange') },
    { benchmark: 'market-tick-gaps-2330', mode: 'always-open', at: tickGaps('always-open') },
    { benchmark: 'market-txf-night', day: DAY, ...nightShape() },
    { benchmark: 'market-overnight-variance', taiex_overnight_share: overnightVarianceShare() },
    { benchmark: 'market-busiest-tape-build', mode: 'exchange', ...busiestBuild('exchange', DAY) },
    { benchmark: 'market-busiest-tape-build', mode: 'always-open', ...busiestBuild('always-open', '2026-11-27') },
  ];
}
