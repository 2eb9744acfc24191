// Contract info answers are kept by URL until the venue's listing changes: what is sent from the cache is what the
// venue's info gives, a new listing day gives the new day's info, the cache is bounded, and refusals are not kept.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { ManualClock } from '../../src/domain/time.js';
import { taipeiInstant } from '../../src/domain/time.js';
import type { Gateway } from '../../src/gateway/gateway.js';
import { ListingCache } from '../../src/server/listing-cache.js';
import { infoRecordOf } from '../../src/server/schemas/contracts.js';
import { testApp } from '../helpers/app.js';
import { assertErrorKind } from '../helpers/errors.js';

const CODES = ['2330', '0050', 'TXFR1', 'IX0001'];

describe('contract info cache', { timeout: 20_000 }, () => {
  let app: FastifyInstance;
  let gateway: Gateway;
  let clock: ManualClock;
  before(async () => {
    ({ app, gateway, clock } = await testApp());
  });
  after(async () => {
    await app.close();
  });

  const infoBody = async (path: string) => {
    const response = await app.inject({ method: 'GET', url: `/api/v1/data/contracts/${path}` });
    return { status: response.statusCode, type: response.headers['content-type'], body: response.body };
  };
  /** The answer worked out without the route: the venue's info, recorded and serialized. */
  const uncached = async (code: string) => JSON.stringify(infoRecordOf(await gateway.contracts.info(code)));

  test('a repeated lookup sends the bytes the venue info gives', async () => {
    for (const code of CODES) {
      const first = await infoBody(`${code}/info`);
      const again = await infoBody(`${code}/info`);
      assert.equal(first.status, 200);
      assert.equal(again.type, 'application/json; charset=utf-8');
      assert.equal(again.body, first.body);
      assert.equal(again.body, await uncached(code), code);
    }
  });

  test('a new listing day answers with that day', async () => {
    const monday = JSON.parse((await infoBody('2330/info')).body) as { update_date: string };
    assert.equal(monday.update_date, '2026-11-23');
    clock.set(taipeiInstant('2026-11-24', '10:00'));
    const tuesday = await infoBody('2330/info');
    assert.equal((JSON.parse(tuesday.body) as { update_date: string }).update_date, '2026-11-24');
    assert.equal(tuesday.body, await uncached('2330'));
  });

  test('an unknown or malformed code gets the error envelope every time, before and after a good lookup', async () => {
    for (const path of ['ZZZZ9/info', 'ZZZZ9/info', '2330/info', 'ZZZZ9/info']) {
      const answer = await infoBody(path);
      if (path.startsWith('2330')) continue;
      assert.equal(answer.status, 404, answer.body);
      assertErrorKind(JSON.parse(answer.body), 404);
    }
    const bad = await infoBody(`${'9'.repeat(300)}/info`);
    assert.ok(bad.status >= 400 && bad.status < 500, bad.body);
    assertErrorKind(JSON.parse(bad.body), bad.status);
  });
});

describe('listing cache', () => {
  test('holds at most its bound, dropping the oldest first', () => {
    const listing = {};
    const cache = new ListingCache<number>(() => listing, 3);
    for (let i = 0; i < 1000; i++) {
      cache.set(`k${i}`, i, cache.current());
    }
    assert.equal(cache.size, 3);
    assert.equal(cache.get('k0'), undefined);
    assert.equal(cache.get('k999'), 999);
  });

  test('a new listing empties it, and an answer of the old listing is not kept', () => {
    let listing = {};
    const cache = new ListingCache<string>(() => listing);
    cache.set('a', 'old day', cache.current());
    const before = cache.current();
    listing = {};
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.size, 0);
    cache.set('a', 'worked out before the change', before);
    assert.equal(cache.get('a'), undefined);
  });
});
