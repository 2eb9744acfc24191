import assert from 'node:assert/strict';
import { describe, mock, test } from 'node:test';
import { FEED_MIN_STEP_MS, FEED_STEP_MS, type FeedUpdate, MarketFeed } from '../../src/broker/sim/market/feed.js';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { publishedCount } from '../../src/broker/sim/market/tape.js';
import { ManualClock, systemClock, taipeiInstant } from '../../src/domain/time.js';

function feedAt(mode: 'exchange' | 'always-open', day: string, time: string) {
  const market = new SimMarket(1, mode);
  const clock = new ManualClock(taipeiInstant(day, time));
  const feed = new MarketFeed(market, clock);
  const updates: FeedUpdate[] = [];
  feed.onUpdate((update) => updates.push(update));
  return { market, clock, feed, updates };
}

describe('the live feed', () => {
  test('publishes every trade after the watch began exactly once, in order, as the clock moves', () => {
    const { market, clock, feed, updates } = feedAt('exchange', '2026-11-20', '10:00');
    const start = clock.now();
    feed.watch('2330', 'board');
    for (let i = 0; i < 600; i++) {
      clock.advance(250);
      feed.step();
    }
    const tape = market.tape(market.listings.stockOn('2330', '2026-11-20'), '2026-11-20');
    const expected = publishedCount(tape, clock.now()) - publishedCount(tape, start);
    assert.ok(expected > 10, `${expected} trades in 150 s`);
    const indices = updates.flatMap((u) => Array.from({ length: u.to - u.from }, (_, k) => u.from + k));
    assert.equal(indices.length, expected);
    assert.deepEqual(
      indices,
      [...indices].sort((a, b) => a - b),
    );
    assert.equal(new Set(indices).size, indices.length, 'no trade twice');
    for (const u of updates) assert.ok(tape.times[u.to - 1]! / 1000 <= clock.now());
  });

  test('watching twice is one watch; unwatching stops the updates', () => {
    const { clock, feed, updates } = feedAt('always-open', '2026-11-20', '10:00');
    const key = feed.watch('2330', 'board');
    assert.equal(feed.watch('2330', 'board'), key);
    assert.equal(feed.size, 1);
    feed.unwatch(key);
    clock.advance(3600_000);
    feed.step();
    assert.equal(updates.length, 0);
  });

  test('moves on to the next day at the session boundary and resolves R1 to the month it stands for', () => {
    const { clock, feed, updates } = feedAt('exchange', '2026-11-19', '13:40');
    feed.watch('TXFR1', 'board');
    clock.set(taipeiInstant('2026-11-19', '15:30'));
    feed.step();
    assert.ok(updates.length > 0, 'the night session trades');
    const night = updates.at(-1)!;
    assert.equal(night.tape.day, '2026-11-20', 'the night session belongs to the next trading day');
    assert.match(night.info.code, /^TXF[A-L]\d$/);
    assert.equal(night.from, 0);
  });

  test('odd lots and trial matches have their own feeds', () => {
    const { clock, feed, updates } = feedAt('exchange', '2026-11-20', '08:29');
    feed.watch('2330', 'trial');
    feed.watch('2330', 'odd');
    clock.set(taipeiInstant('2026-11-20', '08:45'));
    feed.step();
    assert.deepEqual(new Set(updates.map((u) => u.kind)), new Set(['trial']));
    clock.set(taipeiInstant('2026-11-20', '09:30'));
    feed.step();
    assert.ok(updates.some((u) => u.kind === 'odd'));
  });

  test('steps at the next watched trade: each trade is published within the shortest step of its time', () => {
    const { clock, feed, updates } = feedAt('exchange', '2026-11-20', '13:24');
    for (const code of ['2330', '2317', '0050', 'TXFR1']) feed.watch(code, 'board');
    const lagsMs: number[] = [];
    const end = clock.now() + 60_000;
    while (clock.now() < end) {
      const due = feed.nextStepAt();
      const wait = due - clock.now();
      assert.ok(wait >= FEED_MIN_STEP_MS && wait <= FEED_STEP_MS, `a wait of ${wait} ms between steps`);
      clock.set(due);
      const before = updates.length;
      feed.step();
      if (updates.length === before) assert.equal(wait, FEED_STEP_MS, 'a step that publishes nothing is the longest');
      for (const { tape, from, to } of updates.slice(before)) {
        for (let k = from; k < to; k++) lagsMs.push(clock.now() - tape.times[k]! / 1000);
      }
    }
    assert.ok(lagsMs.length > 300, `${lagsMs.length} trades in a minute`);
    const worst = Math.max(...lagsMs);
    assert.ok(worst <= FEED_MIN_STEP_MS, `a trade published ${worst} ms after its time`);
  });

  test('a new watch brings the next step forward to its next trade', () => {
    const { clock, feed, market } = feedAt('always-open', '2026-11-20', '10:00');
    feed.step();
    assert.equal(feed.nextStepAt(), clock.now() + FEED_STEP_MS, 'nothing watched: the longest step');
    clock.advance(FEED_MIN_STEP_MS);
    feed.watch('2330', 'board');
    const tape = market.tape(market.listings.stockOn('2330', '2026-11-20'), '2026-11-20');
    const nextTrade = Math.ceil(tape.times[publishedCount(tape, clock.now())]! / 1000);
    assert.equal(feed.nextStepAt(), Math.min(Math.max(nextTrade, clock.now()), clock.now() + FEED_STEP_MS));
  });

  test("runs on its own timer: a trade reaches the listeners within the shortest step, a new watch's too", (t) => {
    t.after(() => mock.timers.reset());
    mock.timers.enable({ apis: ['setTimeout', 'Date'], now: taipeiInstant('2026-11-20', '13:24') });
    const market = new SimMarket(1, 'exchange');
    const feed = new MarketFeed(market, systemClock);
    const lagsMs: number[] = [];
    feed.onUpdate(({ tape, from, to }) => {
      for (let k = from; k < to; k++) lagsMs.push(Date.now() - tape.times[k]! / 1000);
    });
    feed.watch('2317', 'board');
    feed.start();
    // 2330 is watched 2 ms before one of its trades, while the timer waits for a later one of 2317.
    const day = '2026-11-20';
    const tape = market.tape(market.listings.stockOn('2330', day), day);
    const start = Date.now();
    const watchAt = Math.ceil(tape.times[publishedCount(tape, start + 10_000)]! / 1000) - 2 - start;
    for (let ms = 0; ms < 20_000; ms++) {
      if (ms === watchAt) feed.watch('2330', 'board');
      mock.timers.tick(1);
    }
    feed.stop();
    assert.ok(lagsMs.length > 30, `${lagsMs.length} trades in 20 s`);
    assert.ok(Math.max(...lagsMs) <= FEED_MIN_STEP_MS, `a trade published ${Math.max(...lagsMs)} ms after its time`);
  });
});
