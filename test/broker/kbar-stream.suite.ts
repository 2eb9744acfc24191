// The simulator's kbar stream: each completed one-minute bar of a subscribed stock, equal to the bar the kbars
// history answers for that minute, the first one whole even when subscribed mid-minute; stocks only.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { simBrokerAt } from '../helpers/sim-market.js';

const DAY = '2026-11-20';

function brokerAt(time: string) {
  const { broker, events, run } = simBrokerAt(DAY, time, 100);
  const kbars = (code: string) => {
    const subscription = broker.quotes.resolve({ contract: { code }, quoteType: 'KBar', intradayOdd: false });
    broker.quotes.subscribe(subscription);
    return subscription;
  };
  return { broker, events, run, kbars };
}

describe('the kbar stream', () => {
  test('each completed minute of a stock comes once, equal to the history bar of that minute', () => {
    const { broker, events, run, kbars } = brokerAt('10:00:30');
    kbars('2330');
    run(10 * 60_000);
    const bars = events.filter((e) => e.name === 'kbar').map((e) => e.data);
    assert.ok(bars.length >= 8, `${bars.length} bars in 10 minutes`);
    assert.deepEqual(Object.keys(bars[0]!), [
      'code',
      'date',
      'time',
      'open',
      'high',
      'low',
      'close',
      'volume',
      'amount',
      'tick_count',
    ]);
    assert.equal(bars[0]!.time, '10:00:00.000000', 'the minute it was subscribed in, whole');
    for (const key of ['open', 'high', 'low', 'close', 'volume', 'amount', 'tick_count']) {
      assert.equal(typeof bars[0]![key], 'number', `${key} is a JSON number, as the live server sends it`);
    }
    assert.equal(bars[0]!.date, '2026/11/20');
    const history = broker.marketData.kbars({ contract: { code: '2330' }, start: DAY, end: DAY });
    for (const bar of bars) {
      assert.equal(bar.code, '2330');
      const [h, m] = String(bar.time).split(':').map(Number);
      const end = `${DAY}T${String(h! + Math.floor((m! + 1) / 60)).padStart(2, '0')}:${String((m! + 1) % 60).padStart(2, '0')}:00`;
      const i = history.datetime.indexOf(end);
      assert.ok(i >= 0, `a history bar ends at ${end}`);
      assert.deepEqual(
        [bar.open, bar.high, bar.low, bar.close, bar.volume, bar.amount],
        [
          history.Open[i],
          history.High[i],
          history.Low[i],
          history.Close[i],
          history.Volume[i],
          Math.round(history.Amount[i]!),
        ],
        `the bar of ${bar.time}`,
      );
    }
    const times = bars.map((bar) => bar.time);
    assert.equal(new Set(times).size, times.length, 'each minute once');
  });

  test('a stock and its other quote streams share the source; unsubscribing stops the bars', () => {
    const { broker, events, run, kbars } = brokerAt('10:00:00');
    const subscription = kbars('2884');
    broker.quotes.subscribe(
      broker.quotes.resolve({ contract: { code: '2884' }, quoteType: 'Tick', intradayOdd: false }),
    );
    run(3 * 60_000);
    const before = events.filter((e) => e.name === 'kbar').length;
    assert.ok(before >= 2);
    assert.ok(
      events.some((e) => e.name === 'tick_stk'),
      'the ticks still flow',
    );
    broker.quotes.unsubscribe(subscription);
    run(3 * 60_000);
    assert.equal(events.filter((e) => e.name === 'kbar').length, before);
  });

  test('subscribed again later, the stream starts with a whole bar, not the one left when it stopped', () => {
    const { broker, events, run, kbars } = brokerAt('10:00:00');
    broker.quotes.subscribe(
      broker.quotes.resolve({ contract: { code: '2330' }, quoteType: 'Tick', intradayOdd: false }),
    );
    const first = kbars('2330');
    run(90_000);
    broker.quotes.unsubscribe(first);
    run(10 * 60_000);
    events.length = 0;
    kbars('2330');
    run(3 * 60_000);
    const bars = events.filter((e) => e.name === 'kbar').map((e) => e.data);
    assert.equal(bars[0]!.time, '10:11:00.000000', 'the minute it was subscribed again in');
    const history = broker.marketData.kbars({ contract: { code: '2330' }, start: DAY, end: DAY });
    const i = history.datetime.indexOf(`${DAY}T10:12:00`);
    assert.deepEqual([bars[0]!.open, bars[0]!.close, bars[0]!.volume].map(Number), [
      history.Open[i],
      history.Close[i],
      history.Volume[i],
    ]);
  });

  test("the closing auction bar comes at 13:30 and is the day's last (the fixed-price match is in no bar)", () => {
    const { broker, events, run, kbars } = brokerAt('13:20:00');
    kbars('2330');
    run(10 * 60_000 + 1_000);
    const byClose = events.filter((e) => e.name === 'kbar').map((e) => e.data.time);
    assert.equal(byClose.at(-1), '13:29:00.000000', 'the closing auction completes its bar at 13:30:00');
    run(65 * 60_000);
    const bars = events.filter((e) => e.name === 'kbar').map((e) => e.data);
    const history = broker.marketData.kbars({ contract: { code: '2330' }, start: DAY, end: DAY });
    const last = history.datetime.length - 1;
    const [h, m] = history.datetime[last]!.slice(11, 16).split(':').map(Number);
    const start = `${String(h! - (m === 0 ? 1 : 0)).padStart(2, '0')}:${String((m! + 59) % 60).padStart(2, '0')}:00.000000`;
    assert.equal(bars.at(-1)!.time, start, `the bar that ends at ${history.datetime[last]}`);
    assert.equal(Number(bars.at(-1)!.volume), history.Volume[last]);
    assert.equal(bars.filter((bar) => bar.time === '13:29:00.000000').length, 1, 'once');
  });

  test('stocks only: a futures contract, an index or odd lots are refused with the history as the way', () => {
    const { broker } = brokerAt('10:00:00');
    const refuse = (code: string, intradayOdd = false) =>
      assert.throws(
        () => broker.quotes.resolve({ contract: { code }, quoteType: 'KBar', intradayOdd }),
        /the kbar stream carries a stock's one-minute bars of board lots.*GET \/api\/v1\/data\/kbars/,
      );
    refuse('TXFR1');
    refuse('IX0001');
    refuse('2330', true);
  });
});

describe('the calculated_index stream', () => {
  test('IX0001 recomputed at each constituent trade: the same values as its quote_idx, with change and turnover', () => {
    const { broker, events, run } = brokerAt('10:00:00');
    for (const quoteType of ['CalculatedIndex', 'Quote'] as const) {
      broker.quotes.subscribe(broker.quotes.resolve({ contract: { code: 'IX0001' }, quoteType, intradayOdd: false }));
    }
    run(60_000);
    const calculated = events.filter((e) => e.name === 'calculated_index').map((e) => e.data);
    const quotes = events.filter((e) => e.name === 'quote_idx').map((e) => e.data);
    assert.ok(calculated.length > 10, `${calculated.length} recomputations`);
    assert.equal(calculated.length, quotes.length, 'one per index update');
    assert.deepEqual(Object.keys(calculated[0]!), [
      'code',
      'date',
      'time',
      'open',
      'high',
      'low',
      'close',
      'total_amount',
      'price_chg',
      'pct_chg',
      'simtrade',
    ]);
    calculated.forEach((index, i) => {
      const quote = quotes[i]!;
      assert.deepEqual(
        [index.code, index.time, index.open, index.high, index.low, index.close],
        [quote.code, quote.Time, Number(quote.Open), Number(quote.High), Number(quote.Low), Number(quote.Close)],
        'the same values, as JSON numbers (the live server sends numbers here, where quote_idx has strings)',
      );
      assert.equal(index.date, String(quote.Date).replaceAll('-', '/'), 'YYYY/MM/DD');
      assert.equal(typeof index.price_chg, 'number');
      assert.equal(typeof index.pct_chg, 'number');
      const change = Number(quote.Close) - Number(quote.Reference);
      assert.ok(Math.abs(Number(index.price_chg) - change) < 0.006, `${index.price_chg} vs ${change}`);
      assert.equal(index.total_amount, Math.round(Number(quote.AmountSum)));
    });
  });

  test('only IX0001 and IX0043: another index or a stock is refused, naming the two', () => {
    const { broker } = brokerAt('10:00:00');
    broker.quotes.resolve({ contract: { code: 'IX0043' }, quoteType: 'CalculatedIndex', intradayOdd: false });
    for (const code of ['2330', 'TXFR1']) {
      assert.throws(
        () => broker.quotes.resolve({ contract: { code }, quoteType: 'CalculatedIndex', intradayOdd: false }),
        new RegExp(`calculated_index is recomputed for IX0001 and IX0043 only, not ${code}`),
      );
    }
  });
});
