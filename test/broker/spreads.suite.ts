import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { depthModelOf } from '../../src/broker/sim/exchange/depth-model.js';
import {
  baseExtraTickChance,
  bestDepthScale,
  drawExtraTicks,
  MOST_EXTRA_CHANCE,
  MOST_EXTRA_TICKS,
  quoteShape,
  TICK_REGIME_BOUNDS,
  tickRegimeFactor,
} from '../../src/broker/sim/exchange/spread-model.js';
import { bookAt } from '../../src/broker/sim/market/book.js';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { Rng } from '../../src/broker/sim/market/rng.js';
import type { Tape } from '../../src/broker/sim/market/tape.js';
import { previousTradingDay } from '../../src/domain/calendar.js';
import type { ContractInfo, FuturesInfo, OptionInfo } from '../../src/domain/contracts.js';
import { contractSession, tradingSession } from '../../src/domain/sessions.js';
import { isOnTickGrid, stepTicks } from '../../src/domain/ticks.js';
import { taipeiInstant } from '../../src/domain/time.js';

const DAYS = ['2026-11-23', '2026-11-24', '2026-11-25'];
const markets = { exchange: new SimMarket(1, 'exchange'), 'always-open': new SimMarket(1, 'always-open') };
const market = markets.exchange;

/** The quoted spread in ticks of each continuous trade with both sides quoted, from an instant to another. */
function spreadsOf(tape: Tape, from = 0, to = Number.POSITIVE_INFINITY): number[] {
  const spreads: number[] = [];
  tape.times.forEach((us, k) => {
    const [bid, ask] = [tape.bidPrices[k]!, tape.askPrices[k]!];
    if (tape.tickTypes[k] === 0 || bid === 0 || ask === 0 || us < from * 1000 || us >= to * 1000) return;
    let ticks = 0;
    for (let price = bid; price < ask - 1e-9; price = stepTicks(tape.rules!.ticks, price, 1)) ticks++;
    spreads.push(ticks);
  });
  return spreads;
}

const wideShare = (spreads: number[]) => spreads.filter((ticks) => ticks > 1).length / spreads.length;

function stockSpreads(codes: string[], from?: string, to?: string): number[] {
  return DAYS.flatMap((day) =>
    codes.flatMap((code) =>
      spreadsOf(
        market.tape(market.listings.stockOn(code, day), day),
        from ? taipeiInstant(day, from) : 0,
        to ? taipeiInstant(day, to) : Number.POSITIVE_INFINITY,
      ),
    ),
  );
}

function nearFutures(sim: SimMarket, root: string, day: string): FuturesInfo {
  return [...sim.listings.derivativesOn(day).values()].find(
    (info): info is FuturesInfo => info.security_type === 'FUT' && info.root === root && !info.target_code,
  )!;
}

/** The nearest monthly TXO calls of a day, by strike. */
function nearCalls(day: string): OptionInfo[] {
  const options = [...market.listings.derivativesOn(day).values()].filter(
    (info): info is OptionInfo => info.security_type === 'OPT' && info.root === 'TXO' && info.option_right === 'C',
  );
  const expiry = options.map((o) => o.last_trading_date).sort()[0];
  return options.filter((o) => o.last_trading_date === expiry).sort((a, b) => a.strike_price - b.strike_price);
}

describe('the spread model', () => {
  test('the chance of an extra tick stays within its bounds, falls with trades, grows with the tick regime', () => {
    const trades = fc.double({ min: 0, max: 1e5, noNaN: true });
    const regime = fc.double({ min: TICK_REGIME_BOUNDS.min, max: TICK_REGIME_BOUNDS.max, noNaN: true });
    fc.assert(
      fc.property(trades, trades, regime, regime, (t1, t2, r1, r2) => {
        const [fewer, more] = t1 < t2 ? [t1, t2] : [t2, t1];
        const [small, large] = r1 < r2 ? [r1, r2] : [r2, r1];
        const p = baseExtraTickChance(fewer, small);
        assert.ok(p > 0 && p <= MOST_EXTRA_CHANCE);
        assert.ok(baseExtraTickChance(more, small) <= p);
        assert.ok(baseExtraTickChance(fewer, large) >= p);
      }),
    );
  });

  test('the tick regime narrows quotes when the tick is large against the daily move, widens them when small', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.001, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 50_000, noNaN: true }),
        fc.double({ min: 0.01, max: 10, noNaN: true }),
        (volatility, price, tick) => {
          const factor = tickRegimeFactor(volatility, price, tick);
          assert.ok(factor >= TICK_REGIME_BOUNDS.min && factor <= TICK_REGIME_BOUNDS.max);
          assert.ok(tickRegimeFactor(volatility, price, tick * 2) <= factor);
        },
      ),
    );
    // A 10-dollar stock on a 0.05 tick against a 40,000-point index future on a 1-point tick.
    assert.equal(tickRegimeFactor(0.015, 10, 0.05), TICK_REGIME_BOUNDS.min);
    assert.equal(tickRegimeFactor(0.011, 40_000, 1), TICK_REGIME_BOUNDS.max);
  });

  test('extra ticks are geometric: P(at least j) = p^j, at most four', () => {
    const rng = new Rng(1, 'spread-test');
    const draws = Array.from({ length: 40_000 }, () => drawExtraTicks(0.5, () => rng.next()));
    assert.ok(draws.every((extra) => extra >= 0 && extra <= MOST_EXTRA_TICKS));
    for (const j of [1, 2, 3]) {
      const share = draws.filter((extra) => extra >= j).length / draws.length;
      assert.ok(Math.abs(share - 0.5 ** j) < 0.01, `P(>= ${j}) = ${share}`);
    }
    assert.equal(
      drawExtraTicks(0, () => 0),
      0,
    );
  });

  test('the best level is deeper the busier the book; a quiet one keeps one to six trades', () => {
    assert.equal(bestDepthScale(0), 1);
    assert.equal(bestDepthScale(100), 1);
    assert.equal(bestDepthScale(10_000), 10);
  });

  test('quotes are wider at the open and in the night session on the exchange clock', () => {
    const day = '2026-11-24';
    const info = nearFutures(market, 'TXF', day);
    const session = contractSession('exchange', day, info.last_trading_date);
    const chance = quoteShape('exchange', session, 20_000, info, [{ min: 0, max: null, tick: 1 }]).spreadChanceAt;
    const midday = chance(taipeiInstant(day, '11:00'));
    assert.ok(chance(taipeiInstant(day, '08:50')) === 2 * midday);
    assert.ok(chance(taipeiInstant('2026-11-23', '15:05')) === 3 * midday, 'the night opening');
    assert.ok(chance(taipeiInstant(day, '02:00')) === 1.5 * midday, 'the night');
  });
});

/**
 * The always-open clock widens quotes at the Taipei hours of the exchange's sessions of the same trading day, worked
 * out here from the exchange's timetable: stocks open at 09:00; futures and options open their night session at
 * 15:00 of the trading day before (to 05:00) and their day session at 08:45. Weekend hours have no session.
 */
function exchangeHourFactor(derivative: boolean, day: string, t: number): number {
  const within = (from: number, minutes: number) => t >= from && t < from + minutes * 60_000;
  if (!derivative) return within(taipeiInstant(day, '09:00'), 15) ? 2 : 1;
  const nightOpen = taipeiInstant(previousTradingDay(day), '15:00');
  if (within(nightOpen, 15)) return 2 * 1.5;
  if (within(nightOpen, 14 * 60)) return 1.5;
  return within(taipeiInstant(day, '08:45'), 15) ? 2 : 1;
}

describe('the always-open clock widens quotes at the hours of the exchange sessions', () => {
  const sim = markets['always-open'];
  const flatTicks = [{ min: 0, max: null, tick: 1 }];
  // A Friday (its stock day runs to Monday 00:00), a Monday (its futures day from Friday 14:45), a Tuesday.
  const days = ['2026-11-20', '2026-11-23', '2026-11-24'];

  test('the chance of an extra tick at any instant is the midday chance times the factor of the exchange hour', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...days),
        fc.nat(),
        fc.integer({ min: 0, max: 2 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (day, pick, kind, at) => {
          const info = instrumentAt(sim, day, pick, kind);
          const derivative = info.security_type === 'FUT' || info.security_type === 'OPT';
          const session = derivative
            ? contractSession('always-open', day, info.last_trading_date)
            : tradingSession('always-open', 'stock', day);
          // Enough trades that even three times the chance stays below its cap.
          const chance = quoteShape('always-open', session, 200_000, info, flatTicks).spreadChanceAt;
          const midday = chance(taipeiInstant(day, '12:00'));
          const { start, end } = session.continuous[0]!;
          const t = start + Math.floor(at * (end - start));
          const expected = midday * exchangeHourFactor(derivative, day, t);
          assert.ok(Math.abs(chance(t) - expected) < 1e-12, `${info.code} ${new Date(t).toISOString()}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('the chance stays capped where the factor would pass it', () => {
    const day = '2026-11-24';
    const info = sim.listings.stockOn('5203', day);
    const chance = quoteShape('always-open', tradingSession('always-open', 'stock', day), 10, info, flatTicks);
    assert.equal(chance.spreadChanceAt(taipeiInstant(day, '09:05')), MOST_EXTRA_CHANCE);
  });

  test('always-open tapes quote wider at 09:00 than midday, and TXF wider in the night hours than after 05:00', () => {
    const codes = ['2330', '2317', '2454', '0050'];
    const spreadsBetween = (info: ContractInfo, day: string, from: string, to: string) =>
      spreadsOf(sim.tape(info, day), taipeiInstant(day, from), taipeiInstant(day, to));
    const stocks = (from: string, to: string) =>
      days.flatMap((day) => codes.flatMap((code) => spreadsBetween(sim.listings.stockOn(code, day), day, from, to)));
    const opening = wideShare(stocks('09:00', '09:15'));
    const midday = wideShare(stocks('10:00', '13:00'));
    assert.ok(opening > 1.5 * midday, `opening ${opening} midday ${midday}`);
    // Monday 00:00-05:00 follows no night session (the exchange has none on Sunday): Friday, Tuesday, Wednesday.
    const txf = (from: string, to: string) =>
      ['2026-11-20', '2026-11-24', '2026-11-25'].flatMap((day) =>
        spreadsBetween(nearFutures(sim, 'TXF', day), day, from, to),
      );
    const night = wideShare(txf('00:00', '05:00'));
    const morning = wideShare(txf('05:00', '08:45'));
    assert.ok(night > 1.2 * morning, `night ${night} morning ${morning}`);
  });
});

describe('quoted spreads over a day', () => {
  test('the busiest stocks quote one tick nearly always; quiet ones are often wider, up to five ticks', () => {
    const busy = stockSpreads(['2330', '2317']);
    const quiet = stockSpreads(['2480', '5203', '2707', '9908', '2727']);
    assert.ok(wideShare(busy) < 0.03, `busy ${wideShare(busy)}`);
    assert.ok(wideShare(quiet) > 0.1, `quiet ${wideShare(quiet)}`);
    assert.ok(wideShare(quiet) > 5 * wideShare(busy));
    assert.ok(Math.max(...quiet) >= 3 && Math.max(...quiet) <= 1 + MOST_EXTRA_TICKS);
  });

  test('the open is wider than midday', () => {
    const codes = ['2330', '2317', '2454', '0050'];
    const opening = wideShare(stockSpreads(codes, '09:00', '09:15'));
    const midday = wideShare(stockSpreads(codes, '11:00', '12:30'));
    assert.ok(opening > 1.5 * midday, `opening ${opening} midday ${midday}`);
  });

  test('TXF near month is one tick most of the time, wider at night; far months and deep options are wider', () => {
    const day = '2026-11-24';
    const txf = market.tape(nearFutures(market, 'TXF', day), day);
    const all = spreadsOf(txf);
    assert.ok(wideShare(all) < 0.15, `TXF ${wideShare(all)}`);
    const dayMidday = spreadsOf(txf, taipeiInstant(day, '10:00'), taipeiInstant(day, '13:00'));
    const night = spreadsOf(txf, taipeiInstant(day, '00:00'), taipeiInstant(day, '05:00'));
    assert.ok(wideShare(night) > wideShare(dayMidday), `night ${wideShare(night)} day ${wideShare(dayMidday)}`);
    const far = [...market.listings.derivativesOn(day).values()].filter(
      (info) => info.security_type === 'FUT' && (info as FuturesInfo).root === 'TXF' && !info.target_code,
    )[1]!;
    assert.ok(wideShare(spreadsOf(market.tape(far, day))) > 2 * wideShare(all));
    const calls = nearCalls(day);
    const deep = calls.slice(0, 5).flatMap((info) => spreadsOf(market.tape(info, day)));
    assert.ok(wideShare(deep) > 0.5, `deep in-the-money calls ${wideShare(deep)}`);
  });
});

/** A mix of instruments: stocks of every kind of liquidity, futures of every month, calls and puts at any strike. */
function instrumentAt(sim: SimMarket, day: string, pick: number, kind: number): ContractInfo {
  if (kind === 0) {
    const codes = ['2330', '0050', '2884', '2480', '5203', '6023', '3008', '5274'];
    return sim.listings.stockOn(codes[pick % codes.length]!, day);
  }
  const derivatives = [...sim.listings.derivativesOn(day).values()].filter(
    (info) => !info.target_code && (kind === 1 ? info.security_type === 'FUT' : info.security_type === 'OPT'),
  );
  return derivatives[pick % derivatives.length]!;
}

describe('the tape and the book agree', () => {
  test('every continuous trade is at the bid or the ask of its moment; bid < ask, at least a tick apart', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('exchange' as const, 'always-open' as const),
        fc.constantFrom(...DAYS),
        fc.nat(),
        fc.integer({ min: 0, max: 2 }),
        (mode, day, pick, kind) => {
          const sim = markets[mode];
          const info = instrumentAt(sim, day, pick, kind);
          const tape = sim.tape(info, day);
          const { ticks } = tape.rules!;
          const model = depthModelOf(info, tape);
          tape.times.forEach((_, k) => {
            const [bid, ask, price] = [tape.bidPrices[k]!, tape.askPrices[k]!, tape.prices[k]!];
            if (tape.tickTypes[k] === 0) return;
            const where = `${info.code} ${mode} ${day} trade ${k}: ${price} against ${bid}/${ask}`;
            assert.ok(price === bid || price === ask, where);
            if (bid > 0 && ask > 0) {
              assert.ok(bid < ask && stepTicks(ticks, bid, 1) <= ask + 1e-9, where);
              assert.ok(isOnTickGrid(ticks, bid) && isOnTickGrid(ticks, ask), where);
            }
          });
          // Orders match against the same quote: the book after a trade has its bid and ask as the best levels.
          const k = Math.floor(tape.times.length / 2);
          const book = bookAt(tape, k + 1, info.reference, model);
          assert.equal(book.bid.prices[0], tape.bidPrices[k]);
          assert.equal(book.ask.prices[0], tape.askPrices[k]);
        },
      ),
      { numRuns: 25 },
    );
  });
});
