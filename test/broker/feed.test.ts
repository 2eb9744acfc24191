import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type FeedUpdate, MarketFeed } from '../../src/broker/sim/market/feed.js';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { publishedCount } from '../../src/broker/sim/market/tape.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';

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
});
