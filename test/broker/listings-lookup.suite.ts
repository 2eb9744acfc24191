// Looking up one futures code on a day builds only its product's listing; what it finds is what the day's whole
// listing holds for that code (a restart looks up each deal's contract this way, day after day).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SimMarket } from '../../src/broker/sim/market/market.js';

test('a futures code looked up on its own is the whole listing’s entry for it, continuous aliases included', () => {
  const whole = new SimMarket(1, 'exchange');
  for (const day of ['2025-03-19', '2026-06-17', '2026-11-24']) {
    const futures = [...whole.listings.derivativesOn(day).values()].filter((info) => info.security_type === 'FUT');
    assert.ok(futures.length > 20, `${day}: ${futures.length} futures`);
    const alone = new SimMarket(1, 'exchange');
    for (const info of futures) assert.deepEqual(alone.listings.infoOn(info.code, day), info, `${info.code} on ${day}`);
    assert.equal(alone.listings.infoOn('TXFZ9', day), undefined);
  }
});
