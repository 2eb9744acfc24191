import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HORIZON_STEP_MS, SimMarket } from '../../src/broker/sim/market/market.js';
import { publishedCount } from '../../src/broker/sim/market/tape.js';
import { horizonOf, tapeBytes } from '../../src/broker/sim/market/tape-cache.js';
import type { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { LIMIT_RULES, PRICE_MOVE_RULES } from '../../src/domain/scanner-rules.js';
import type { ClockMode } from '../../src/domain/sessions.js';
import { taipeiInstant } from '../../src/domain/time.js';
import { simBrokerAt } from '../helpers/sim-market.js';

// An always-open stock day is drawn only as far as it is read (SimMarket.tape with an instant). Whatever reads it, the answers
// must be those of the whole day's tape at every instant: a broker whose market hands out whole tapes only is the
// reference, moved through the same instants on its own manual clock.

const CODES = ['2330', '2317', '0050', '1101', '6488'];

/** A broker whose market never draws a partial tape: what every answer was before tapes were drawn as needed. */
function wholeTapeBroker(day: string, time: string, mode: ClockMode, stepMs = 100) {
  const sim = simBrokerAt(day, time, stepMs, mode);
  const market = sim.broker.market;
  const wholeTape = market.tape.bind(market);
  market.tape = (listed, tapeDay) => wholeTape(listed, tapeDay);
  return sim;
}

/** What a client reads of the stocks at the broker's now. */
function answers(broker: SimBroker) {
  const contracts = CODES.map((code) => ({ code }));
  const data = broker.marketData;
  return {
    snapshots: data.snapshots(contracts),
    ticks: CODES.map((code) => data.ticks({ contract: { code }, query_type: 'LastCount', last_cnt: 20 })),
    allDay: data.ticks({ contract: { code: '1101' } }),
    kbars: data.kbars({ contract: { code: '2317' } }),
    prices: CODES.map((code) => broker.market.stockPriceAt(code, broker.clock.now())),
  };
}

/** Moves both brokers to each instant in turn (Taiwan date and time) and compares what they answer. */
function compareAt(mode: ClockMode, instants: [string, string][]) {
  const [first, ...rest] = instants;
  const partial = simBrokerAt(first![0], first![1], 100, mode);
  const whole = wholeTapeBroker(first![0], first![1], mode);
  for (const [day, time] of [first!, ...rest]) {
    const at = taipeiInstant(day, time);
    partial.clock.set(at);
    whole.clock.set(at);
    assert.deepEqual(answers(partial.broker), answers(whole.broker), `${mode} ${day} ${time}`);
  }
}

describe('partial tapes answer as the whole day does', () => {
  test('always-open: within a horizon, past it, over a weekend and across the day change', () => {
    compareAt('always-open', [
      ['2026-11-24', '02:00'],
      ['2026-11-24', '02:03:30'],
      ['2026-11-24', '02:21'],
      ['2026-11-24', '09:15'],
      ['2026-11-27', '23:59:59.5'],
      ['2026-11-28', '13:00'],
      ['2026-11-30', '00:00:00.2'],
      ['2026-11-30', '00:07'],
    ]);
  });

  test('exchange clock: tapes stay whole and answer alike', () => {
    compareAt('exchange', [
      ['2026-11-24', '09:30'],
      ['2026-11-24', '13:31'],
      ['2026-11-28', '11:00'],
    ]);
  });

  test('always-open: scanner ranks and daily figures from partial digests', () => {
    const partial = simBrokerAt('2026-11-24', '00:40', 100, 'always-open');
    const whole = wholeTapeBroker('2026-11-24', '00:40', 'always-open');
    const scan = (broker: SimBroker) =>
      broker.marketData.scanner({ scanner_type: 'AmountRank', count: 5, date: undefined, ascending: true });
    for (const time of ['00:40', '00:52']) {
      const at = taipeiInstant('2026-11-24', time);
      partial.clock.set(at);
      whole.clock.set(at);
      assert.deepEqual(scan(partial.broker), scan(whole.broker), time);
    }
  });
});

describe('the scanner stream over partial tapes', () => {
  test('signals what the whole tapes signal, across several horizons', () => {
    const streams = [simBrokerAt('2026-11-24', '02:03', 1000, 'always-open')];
    streams.push(wholeTapeBroker('2026-11-24', '02:03', 'always-open', 1000));
    const signals = streams.map(({ broker }) => {
      const events: unknown[] = [];
      broker.scanner.onMarketEvent((event) => events.push(event));
      return events;
    });
    for (const { broker, run } of streams) {
      for (const rule of [...LIMIT_RULES, ...PRICE_MOVE_RULES]) {
        broker.scanner.subscribe({ scanner: rule, region: 'TW', security_type: 'STK', exchange: 'TSE' });
      }
      run(11 * 60_000);
    }
    const [partial, whole] = signals;
    assert.ok(whole!.length > 10, `${whole!.length} signals`);
    assert.deepEqual(partial, whole);
  });
});

/**
 * The quote events of two brokers from a Monday evening instant, one on partial tapes and one on whole tapes, each
 * subscribed alike and run for a while.
 */
function bothStreams(time: string, stepMs: number, subscribe: (broker: SimBroker) => void, runMs: number) {
  const streams = [simBrokerAt('2026-11-23', time, stepMs, 'always-open')];
  streams.push(wholeTapeBroker('2026-11-23', time, 'always-open', stepMs));
  for (const { broker, run } of streams) {
    subscribe(broker);
    run(runMs);
  }
  return streams.map(({ events }) => events);
}

const subscribeQuote = (
  broker: SimBroker,
  request: Omit<Parameters<SimBroker['quotes']['resolve']>[0], 'intradayOdd'>,
) => broker.quotes.subscribe(broker.quotes.resolve({ ...request, intradayOdd: false }));

describe('the live stream over partial tapes', () => {
  test('publishes what the whole tapes publish, across horizons and the day change', () => {
    const [partial, whole] = bothStreams(
      '23:52',
      500,
      (broker) => {
        for (const code of ['2330', '1101']) {
          for (const quoteType of ['Tick', 'BidAsk'] as const)
            subscribeQuote(broker, { contract: { code }, quoteType });
        }
      },
      16 * 60_000,
    );
    assert.ok(whole!.length > 500, `${whole!.length} events`);
    assert.deepEqual(partial, whole);
  });

  test('the TPEx index and its contributions read as from whole tapes, across horizons and the day change', () => {
    const index = { contract: { code: 'IX0043' } };
    const [partial, whole] = bothStreams(
      '23:58',
      1000,
      (broker) => {
        subscribeQuote(broker, { ...index, quoteType: 'Quote' });
        subscribeQuote(broker, { ...index, quoteType: 'IndexContribution', ranking: 'top10' });
      },
      8 * 60_000,
    );
    assert.ok(whole!.length > 100, `${whole!.length} events`);
    assert.deepEqual(partial, whole);
  });
});

describe('a partial tape is bounded by its horizon', () => {
  test('reads within a step share one tape; a later read extends it in place of the old one', () => {
    const market = new SimMarket(1, 'always-open');
    const info = market.listings.stockOn('2330', '2026-11-24');
    const at = taipeiInstant('2026-11-24', '02:00');
    const tape = market.tape(info, '2026-11-24', at);
    const horizon = horizonOf(tape);
    assert.ok(horizon >= at && horizon <= at + HORIZON_STEP_MS, `horizon ${horizon - at} ms past the read`);
    assert.equal(publishedCount(tape, horizon), tape.times.length, 'no trade past the horizon is kept');
    assert.equal(market.tape(info, '2026-11-24', at + 60_000), tape, 'a read a minute later builds nothing');
    const whole = market.builder.build(info, '2026-11-24');
    assert.ok(tape.times.length < whole.times.length / 8, `${tape.times.length} of ${whole.times.length} trades`);

    const later = market.tape(info, '2026-11-24', at + 3_600_000);
    assert.notEqual(later, tape);
    assert.deepEqual(later.prices.subarray(0, tape.times.length), tape.prices, 'extended, not redrawn');
    const kept = (market as unknown as { tapes: { keptBytes: number } }).tapes.keptBytes;
    assert.equal(kept, tapeBytes(later), 'the cache keeps the extended tape only');
    assert.equal(horizonOf(market.tape(info, '2026-11-23', at)), Number.POSITIVE_INFINITY, 'a past day is whole');
  });
});
