// Ticks and bars of a day that is over are served from the answer kept at the first query; today's are computed at
// every query (they grow as the day goes on); the kept answers stay within their byte budget.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type ManualClock, taipeiInstant } from '../../src/domain/time.js';
import type { Gateway } from '../../src/gateway/gateway.js';
import { FinishedDayAnswers } from '../../src/server/finished-days.js';
import { testApp } from '../helpers/app.js';

const PAST_DAY = '2026-11-20';
const TODAY = '2026-11-23';

describe('the ticks and bars of a finished day are computed once', () => {
  let app: FastifyInstance;
  let gateway: Gateway;
  let clock: ManualClock;
  const calls = { ticks: 0, kbars: 0 };

  before(async () => {
    ({ app, gateway, clock } = await testApp(taipeiInstant(TODAY, '10:00')));
    const data = gateway.marketData;
    const ticks = data.ticks.bind(data);
    const kbars = data.kbars.bind(data);
    data.ticks = (query) => {
      calls.ticks++;
      return ticks(query);
    };
    data.kbars = (query) => {
      calls.kbars++;
      return kbars(query);
    };
  });
  after(() => app.close());

  const post = (url: string, payload: object) => app.inject({ method: 'POST', url: `/api/v1${url}`, payload });

  test('a past day: the same bytes again, without asking the venue, and counted as traffic each time', async () => {
    const query = { contract: { code: '2330' }, date: PAST_DAY, query_type: 'AllDay' };
    const usedBefore = gateway.traffic.used();
    const first = await post('/data/ticks', query);
    const second = await post('/data/ticks', query);
    assert.equal(first.statusCode, 200, first.body);
    assert.ok((first.json() as { datetime: string[] }).datetime.length > 1000);
    assert.equal(second.body, first.body);
    assert.equal(second.headers['content-type'], first.headers['content-type']);
    assert.equal(calls.ticks, 1);
    assert.equal(gateway.traffic.used() - usedBefore, 2 * first.rawPayload.length);

    const range = { contract: { code: '2330' }, start: '2026-11-18', end: PAST_DAY };
    const bars = await post('/data/kbars', range);
    assert.equal((await post('/data/kbars', range)).body, bars.body);
    assert.equal(calls.kbars, 1);
  });

  test("today's ticks, and bars up to today, are computed at every query", async () => {
    const query = { contract: { code: '2330' }, date: TODAY, query_type: 'AllDay' };
    const before = calls.ticks;
    const morning = (await post('/data/ticks', query)).json() as { datetime: string[] };
    clock.advance(30 * 60_000);
    const later = (await post('/data/ticks', query)).json() as { datetime: string[] };
    assert.ok(later.datetime.length > morning.datetime.length, 'more ticks half an hour later');
    assert.equal(calls.ticks - before, 2);
    const barsBefore = calls.kbars;
    await post('/data/kbars', { contract: { code: '2330' }, start: PAST_DAY, end: TODAY });
    await post('/data/kbars', { contract: { code: '2330' }, start: PAST_DAY, end: TODAY });
    assert.equal(calls.kbars - barsBefore, 2);
  });

  test('a refused query is not kept', async () => {
    const query = { contract: { code: 'NOPE' }, date: PAST_DAY, query_type: 'AllDay' };
    const first = await post('/data/ticks', query);
    assert.equal(first.statusCode, 404, first.body);
    assert.equal((await post('/data/ticks', query)).statusCode, 404);
  });
});

describe('the kept answers stay within their budget', () => {
  test('the least recently used go first; an answer larger than an eighth of the budget is not kept', async () => {
    const clock = { now: () => taipeiInstant(TODAY, '10:00') };
    const answers = new FinishedDayAnswers(clock, 800);
    let computed = 0;
    const sent: unknown[] = [];
    const reply = {
      serialize: (value: unknown) => JSON.stringify(value),
      type: () => reply,
      send: (body: unknown) => sent.push(body),
    };
    const ask = (key: string, bytes: number) =>
      // biome-ignore lint/suspicious/noExplicitAny: a reply with only what the cache calls
      answers.send(reply as any, key, PAST_DAY, async () => {
        computed++;
        return 'x'.repeat(bytes - 2);
      });
    for (const key of ['a', 'b', 'c', 'd']) await ask(key, 100);
    await ask('a', 100); // a is now the most recently used
    assert.equal(computed, 4);
    for (const key of ['e', 'f', 'g', 'h', 'i']) await ask(key, 100); // 900 bytes: the oldest, b, goes
    await ask('a', 100);
    assert.equal(computed, 9);
    await ask('b', 100);
    assert.equal(computed, 10, 'b was evicted');
    await ask('big', 101);
    await ask('big', 101);
    assert.equal(computed, 12, 'an answer over a eighth of the budget is computed each time');
    assert.equal(sent.length, 14);
  });
});
