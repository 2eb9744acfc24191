// Listings keep each stock's info of a day (issue 22): the kept info is the one built afresh, frozen, given again
// for the same code and day only, and the cache holds a bounded number (8,192) of them.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SECURITIES_BY_CODE } from '../../src/broker/sim/catalog/catalog.js';
import { LISTED_SECURITIES } from '../../src/broker/sim/catalog/listed-securities.js';
import { stockInfo } from '../../src/broker/sim/catalog/stocks.js';
import { SimMarket } from '../../src/broker/sim/market/market.js';

describe('stock infos kept by day', () => {
  const market = new SimMarket(5, 'exchange');
  const fresh = (code: string, day: string) =>
    stockInfo(SECURITIES_BY_CODE.get(code)!, market.daily.referencesOn(day).referenceOf(code), day, market.seed);

  test('the kept info is the fresh one, per day, and cannot be changed', () => {
    const friday = market.listings.stockOn('2330', '2026-11-20');
    assert.equal(market.listings.stockOn('2330', '2026-11-20'), friday);
    assert.deepEqual(friday, fresh('2330', '2026-11-20'));
    const thursday = market.listings.stockOn('2330', '2026-11-19');
    assert.deepEqual(thursday, fresh('2330', '2026-11-19'));
    assert.notEqual(thursday.reference, friday.reference, 'each day its own reference');
    assert.throws(() => {
      (friday as { reference: number }).reference = 1;
    }, TypeError);
  });

  test('at most 8,192 are kept: past that the oldest is built again, the same', () => {
    const first = market.listings.stockOn('2884', '2026-11-18');
    const days = ['2026-11-16', '2026-11-17', '2026-11-19', '2026-11-20'];
    let asked = 0;
    for (const day of days) {
      for (const security of LISTED_SECURITIES) {
        market.listings.stockOn(security.code, day);
        asked++;
      }
    }
    assert.ok(asked > 8192, `${asked} infos asked`);
    const again = market.listings.stockOn('2884', '2026-11-18');
    assert.notEqual(again, first, 'evicted and built again');
    assert.deepEqual(again, first);
  });
});
