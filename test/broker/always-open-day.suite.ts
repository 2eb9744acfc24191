import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isStockTradingHours, sessionDayAt, tradingSession } from '../../src/domain/sessions.js';
import { taipeiInstant } from '../../src/domain/time.js';
import { simBrokerAt } from '../helpers/sim-market.js';

// On the always-open clock a stock's trading day runs from midnight to midnight (a weekend trades as part of the
// Friday before it), so a day's ticks, kbars, snapshot and live stream all carry that day's date.

const MONDAY = '2026-11-23';
const TUESDAY = '2026-11-24';

const brokerAt = (day: string, time: string) => simBrokerAt(day, time, 100, 'always-open');

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** One broker at Tuesday 02:00 for the tests that only read (building the day's tapes is the costly part). */
let atTwo: ReturnType<typeof brokerAt> | null = null;
const tuesdayAtTwo = () => {
  atTwo ??= brokerAt(TUESDAY, '02:00');
  return atTwo;
};

describe('the always-open trading day is the calendar day', () => {
  test("at 02:00 a day's ticks are that day's, and the day before ends at midnight", () => {
    const { broker } = tuesdayAtTwo();
    const today = broker.marketData.ticks({ contract: { code: '2330' }, date: TUESDAY });
    assert.ok(today.datetime.length > 1000, `${today.datetime.length} ticks by 02:00`);
    assert.ok(today.datetime.every((d) => d >= `${TUESDAY}T00:00:00` && d <= `${TUESDAY}T02:00:00.000000`));
    const monday = broker.marketData.ticks({ contract: { code: '2330' }, date: MONDAY });
    assert.ok(
      monday.datetime.every((d) => d.startsWith(MONDAY)),
      'no trade of Monday is stamped Tuesday',
    );
    assert.ok(monday.datetime.at(-1)! > `${MONDAY}T23:59:00`, 'Monday trades until midnight');
    assert.ok(monday.datetime[0]! < `${MONDAY}T00:01:00`, 'and from midnight');
    const current = broker.marketData.ticks({ contract: { code: '2330' } });
    assert.deepEqual(current, today, 'the current day is Tuesday');
  });

  test("kbars of a day cover exactly that day's ticks", () => {
    const { broker } = tuesdayAtTwo();
    const bars = broker.marketData.kbars({ contract: { code: '2330' }, start: TUESDAY, end: TUESDAY });
    const ticks = broker.marketData.ticks({ contract: { code: '2330' }, date: TUESDAY });
    assert.ok(bars.datetime.length > 100);
    assert.ok(
      bars.datetime.every((d) => d > `${TUESDAY}T00:00:00` && d <= `${TUESDAY}T02:00:00`),
      bars.datetime[0],
    );
    assert.equal(sum(bars.Volume), sum(ticks.volume));
    const monday = broker.marketData.kbars({ contract: { code: '2330' }, start: MONDAY, end: MONDAY });
    assert.ok(
      monday.datetime.every((d) => d <= `${TUESDAY}T00:00:00`),
      monday.datetime.at(-1),
    );
  });

  test("a snapshot at 02:00 is the day's: its volume is that of the day's ticks, its reference yesterday's close", () => {
    const { broker } = tuesdayAtTwo();
    const [snapshot] = broker.marketData.snapshots([{ code: '2330' }]);
    const ticks = broker.marketData.ticks({ contract: { code: '2330' }, date: TUESDAY });
    assert.equal(snapshot!.total_volume, sum(ticks.volume));
    assert.equal(snapshot!.close, ticks.close.at(-1));
    const monday = broker.marketData.ticks({ contract: { code: '2330' }, date: MONDAY });
    assert.equal(snapshot!.close - snapshot!.change_price, monday.close.at(-1), "the reference is Monday's close");
    assert.equal(broker.contracts.info('2330').reference, monday.close.at(-1), 'and so is the catalog');
  });

  test("the live stream after midnight carries the new day's date and continues its totals", () => {
    const { broker, events, run } = brokerAt(MONDAY, '23:59:30');
    broker.quotes.subscribe(
      broker.quotes.resolve({ contract: { code: '2330' }, quoteType: 'Tick', intradayOdd: false }),
    );
    run(60_000);
    const ticks = events.filter((e) => e.name === 'tick_stk').map((e) => e.data as Record<string, unknown>);
    const before = ticks.filter((d) => d.date === MONDAY);
    const after = ticks.filter((d) => d.date === TUESDAY);
    assert.ok(before.length > 2 && after.length > 5, `${before.length} then ${after.length}`);
    const published = broker.marketData.ticks({ contract: { code: '2330' }, date: TUESDAY });
    assert.equal(after.at(-1)!.total_volume, sum(published.volume), "the stream's total is the day's so far");
    assert.equal(after[0]!.total_volume, after[0]!.volume, 'the day starts at midnight');
  });

  test('weekends trade as part of Friday; the day rolls at midnight on the clock and in the catalog', () => {
    const saturday = taipeiInstant('2026-11-28', '12:00');
    assert.equal(sessionDayAt('stock', saturday, 'always-open'), '2026-11-27');
    assert.equal(sessionDayAt('stock', taipeiInstant(TUESDAY, '00:00'), 'always-open'), TUESDAY);
    assert.equal(sessionDayAt('stock', taipeiInstant(TUESDAY, '07:59'), 'exchange'), MONDAY, 'exchange: at 08:00');
    assert.ok(isStockTradingHours('always-open', taipeiInstant(TUESDAY, '03:00')));
    const friday = tradingSession('always-open', 'stock', '2026-11-27');
    assert.deepEqual(friday.continuous, [
      { start: taipeiInstant('2026-11-27', '00:00'), end: taipeiInstant('2026-11-30', '00:00') },
    ]);
    const { broker, clock } = brokerAt(MONDAY, '23:59');
    assert.equal(broker.contracts.current().days.stockDay, MONDAY);
    clock.advance(120_000);
    assert.equal(broker.contracts.current().days.stockDay, TUESDAY);
  });
});
