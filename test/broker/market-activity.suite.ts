import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { meanStockTradeLots, tradeSizes } from '../../src/broker/sim/market/activity.js';
import { targetOf } from '../../src/broker/sim/market/listings.js';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { Rng } from '../../src/broker/sim/market/rng.js';
import type { Tape } from '../../src/broker/sim/market/tape.js';
import { previousTradingDay, tradingDaysBetween } from '../../src/domain/calendar.js';
import { stepTicks } from '../../src/domain/ticks.js';
import { taipeiInstant } from '../../src/domain/time.js';

const DAY = '2026-11-24';
const market = new SimMarket(1, 'exchange');
const alwaysOpen = new SimMarket(1, 'always-open');

const sum = (values: ArrayLike<number>) => Array.from(values).reduce((a, b) => a + b, 0);

/** The continuous trades of a stock tape (the closing auctions are its last two). */
function continuousSizes(tape: Tape): number[] {
  return Array.from(tape.volumes).filter((_, k) => tape.tickTypes[k] !== 0);
}

function stockTape(sim: SimMarket, code: string, day: string): Tape {
  return sim.tape(sim.listings.stockOn(code, day), day);
}

/** Volume traded in each Taiwan hour (0-23) of a tape. */
function volumeByHour(tape: Tape): number[] {
  const hours = new Array<number>(24).fill(0);
  tape.times.forEach((us, k) => {
    hours[new Date(us / 1000 + 8 * 3600_000).getUTCHours()]! += tape.volumes[k]!;
  });
  return hours;
}

/** Seconds between consecutive trades in the ten minutes from an instant. */
function gapsFrom(tape: Tape, epochMs: number): number[] {
  const inside = Array.from(tape.times).filter((us) => us >= epochMs * 1000 && us < (epochMs + 600_000) * 1000);
  return inside.slice(1).map((us, k) => (us - inside[k]!) / 1e6);
}

describe('trades per day and trade sizes', () => {
  test('2330 prints tens of thousands of trades a day, mostly of one lot, not a few thousand of 15 lots', () => {
    const sizes = continuousSizes(stockTape(market, '2330', DAY));
    const mean = sum(sizes) / sizes.length;
    assert.ok(sizes.length > 25_000 && sizes.length < 80_000, `${sizes.length} trades`);
    assert.ok(mean > 1.1 && mean < 2, `mean ${mean} lots`);
    assert.ok(sizes.filter((v) => v === 1).length / sizes.length > 0.6, 'most trades are one lot');
    assert.ok(sizes.reduce((a, b) => Math.max(a, b)) >= 20 * mean, 'a heavy tail of large trades');
  });

  test('cheaper stocks and ETFs trade in larger clips; the busiest names are not capped at 15,000 trades', () => {
    const meanOf = (code: string) => {
      const sizes = continuousSizes(stockTape(market, code, DAY));
      return sum(sizes) / sizes.length;
    };
    assert.ok(meanOf('2317') > meanOf('2330') + 0.5, '2317 (NT$260) above 2330 (NT$2,490)');
    assert.ok(meanOf('0050') > meanOf('2317'), 'the ETF above both');
    assert.ok(stockTape(market, '2409', DAY).times.length > 30_000);
    assert.ok(meanStockTradeLots(20, false, 1000) > meanStockTradeLots(200, false, 1000));
    assert.ok(meanStockTradeLots(100, true, 1000) > meanStockTradeLots(100, false, 1000));
  });

  test('trade sizes add up to the volume exactly, average what was asked and are at least one unit', () => {
    for (const mean of [1.05, 1.5, 4, 25]) {
      const sizes = tradeSizes(200_000, mean, new Rng(7, mean));
      assert.equal(sum(sizes), 200_000);
      assert.ok(sizes.every((v) => v >= 1 && Number.isInteger(v)));
      assert.ok(Math.abs(200_000 / sizes.length / mean - 1) < 0.1, `mean ${200_000 / sizes.length} for ${mean}`);
    }
    assert.equal(tradeSizes(0, 2, new Rng(1)).length, 0);
    assert.deepEqual(
      Array.from(tradeSizes(3, 50, new Rng(1))).reduce((a, b) => a + b, 0),
      3,
    );
  });
});

describe('the futures night session', () => {
  const front = (day: string) => targetOf(market.listings.infoOn('TXFR1', day)!);

  test('is quieter than the day session: about 30% of the contracts, not three quarters', () => {
    const tape = market.tape(front(DAY), DAY);
    const night = sum(Array.from(tape.volumes).filter((_, k) => tape.times[k]! < taipeiInstant(DAY, '08:00') * 1000));
    const share = night / sum(tape.volumes);
    assert.ok(share > 0.2 && share < 0.4, `night share ${share}`);
  });

  test('is busiest after its 15:00 open and around the US cash open, thin in the early morning', () => {
    const winter = volumeByHour(market.tape(front(DAY), DAY));
    const early = Math.max(winter[1]!, winter[2]!, winter[3]!, winter[4]!);
    // 22:30 Taiwan time in US winter time
    assert.ok(winter[22]! > 2 * early && winter[22]! > winter[19]!, `22:00 ${winter[22]} vs ${winter}`);
    assert.ok(winter[15]! > 2 * early, `15:00 ${winter[15]}`);
    const summerDay = '2026-07-15';
    const summer = volumeByHour(market.tape(front(summerDay), summerDay));
    // 21:30 in US summer time
    assert.ok(summer[21]! > summer[19]! && summer[21]! > 2 * Math.max(summer[2]!, summer[3]!), `${summer}`);
  });
});

describe('intraday and overnight variance', () => {
  // 60 days, fewer than the factor paths MarketFactors keeps, so the second test reuses the first's
  const days = tradingDaysBetween('2026-03-02', '2026-05-29');

  test("the TAIEX's opening gap is a quarter or so of its daily variance, not 80-90%", () => {
    let gap = 0;
    let whole = 0;
    for (const day of days) {
      const previous = market.factors.logAt('TSE', taipeiInstant(previousTradingDay(day), '13:30'));
      gap += (market.factors.logAt('TSE', taipeiInstant(day, '09:00')) - previous) ** 2;
      whole += (market.factors.logAt('TSE', taipeiInstant(day, '13:30')) - previous) ** 2;
    }
    assert.ok(gap / whole > 0.15 && gap / whole < 0.4, `overnight share ${gap / whole}`);
  });

  test("a stock's first trade carries a minority of its day's move; its close is the daily model's", () => {
    let gap = 0;
    let whole = 0;
    for (const day of days) {
      const tape = stockTape(market, '6023', day);
      const previous = Math.log(market.daily.closeOf('6023', previousTradingDay(day)));
      gap += (Math.log(tape.prices[0]!) - previous) ** 2;
      whole += (Math.log(market.daily.closeOf('6023', day)) - previous) ** 2;
      assert.equal(tape.prices.at(-1), market.daily.closeOf('6023', day));
    }
    assert.ok(gap / whole < 0.45, `opening share ${gap / whole}`);
  });
});

describe('always-open activity', () => {
  const at = (date: string, time: string) => {
    const t = taipeiInstant(date, time);
    const day = alwaysOpen.dayAt('stock', t);
    return { t, tape: stockTape(alwaysOpen, '2330', day) };
  };

  test('2330 trades every second or two at any hour, weekends included', () => {
    for (const [date, time] of [
      ['2026-11-24', '10:00'],
      ['2026-11-24', '22:00'],
      ['2026-11-25', '03:00'],
      ['2026-11-28', '12:00'],
      ['2026-11-29', '04:00'],
    ] as const) {
      const { t, tape } = at(date, time);
      const gaps = gapsFrom(tape, t).sort((a, b) => a - b);
      const mean = sum(gaps) / gaps.length;
      assert.ok(mean <= 2, `${date} ${time}: a trade every ${mean} s`);
      assert.ok(gaps[Math.floor(gaps.length * 0.95)]! <= 7, `${date} ${time}: 95% of gaps within 7 s`);
    }
  });

  test('the quietest stock trades every few minutes, never silent for an hour', () => {
    const tape = stockTape(alwaysOpen, '5701', DAY);
    const gaps = Array.from(tape.times)
      .slice(1)
      .map((us, k) => (us - tape.times[k]!) / 1e6);
    assert.ok(sum(gaps) / gaps.length <= 400, `mean gap ${sum(gaps) / gaps.length} s`);
    assert.ok(
      gaps.reduce((a, b) => Math.max(a, b)) < 60 * 60,
      `longest gap ${gaps.reduce((a, b) => Math.max(a, b))} s`,
    );
  });
});

describe('spreads', () => {
  /** The share of a tape's continuous trades, from an instant to another, that met a quote wider than one tick. */
  const wideShare = (tape: Tape, from = 0, to = Number.POSITIVE_INFINITY) => {
    let wide = 0;
    let all = 0;
    tape.times.forEach((us, k) => {
      const [bid, ask] = [tape.bidPrices[k]!, tape.askPrices[k]!];
      if (tape.tickTypes[k] === 0 || bid === 0 || ask === 0 || us < from * 1000 || us >= to * 1000) return;
      all++;
      if (ask > stepTicks(tape.rules!.ticks, bid, 1) + 1e-9) wide++;
    });
    return wide / all;
  };

  test('are one tick for the busiest names nearly always, wider for quiet ones and at the open', () => {
    const tsmc = stockTape(market, '2330', DAY);
    assert.ok(wideShare(tsmc) > 0 && wideShare(tsmc) < 0.05, `2330 ${wideShare(tsmc)}`);
    const opening = wideShare(tsmc, taipeiInstant(DAY, '09:00'), taipeiInstant(DAY, '09:15'));
    const midday = wideShare(tsmc, taipeiInstant(DAY, '11:00'), taipeiInstant(DAY, '12:00'));
    assert.ok(opening > 1.5 * midday, `opening ${opening} midday ${midday}`);
    const quiet = stockTape(alwaysOpen, '5701', DAY);
    assert.ok(wideShare(quiet) > 4 * wideShare(stockTape(alwaysOpen, '2330', DAY)), `5701 ${wideShare(quiet)}`);
  });

  test('a wider quote still prices the closing auction at the close', () => {
    const tape = stockTape(market, '6023', DAY);
    assert.equal(tape.prices.at(-1), market.daily.closeOf('6023', DAY));
    assert.ok(wideShare(tape) > 0.2, `6023 ${wideShare(tape)}`);
  });
});
