import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Catalog } from '../../src/broker/sim/catalog/catalog.js';
import { sharedCatalog } from '../../src/broker/sim/catalog/catalog-cache.js';
import { baselineReferences } from '../../src/broker/sim/catalog/references.js';
import { SimMarket } from '../../src/broker/sim/market/market.js';
import { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { SECURITY_TYPES } from '../../src/domain/contracts.js';
import type { ClockMode } from '../../src/domain/sessions.js';
import { ManualClock } from '../../src/domain/time.js';
import { MONDAY_MORNING } from '../helpers/app.js';

function brokerAt(
  at: number,
  seed: number,
  clockMode: ClockMode = 'exchange',
  prices?: SimBroker['market']['referencesOn'],
) {
  return new SimBroker({ clock: new ManualClock(at), seed, clockMode, apiKey: null, ...(prices ? { prices } : {}) });
}

describe('catalogs shared by the brokers of one market', () => {
  test('two brokers of a seed and clock mode share the catalog, and it is what a fresh build lists', () => {
    const first = brokerAt(MONDAY_MORNING, 41).contracts.current();
    const second = brokerAt(MONDAY_MORNING, 41).contracts.current();
    assert.equal(second, first);
    const market = new SimMarket(41, 'exchange');
    const fresh = new Catalog(first.days, 41, (day) => market.referencesOn(day));
    assert.equal(first.size, fresh.size);
    for (const type of SECURITY_TYPES) assert.deepEqual(first.all(type), fresh.all(type), type);
    assert.deepEqual(first.find('2330'), fresh.find('2330'));
  });

  test('another listing day, or prices of their own, get a catalog of their own', () => {
    const shared = brokerAt(MONDAY_MORNING, 41).contracts.current();
    const nextDay = brokerAt(MONDAY_MORNING + 86_400_000, 41).contracts.current();
    assert.notEqual(nextDay, shared);
    assert.notEqual(nextDay.days.stockDay, shared.days.stockDay);
    const own = brokerAt(MONDAY_MORNING, 41, 'exchange', () => baselineReferences).contracts.current();
    assert.notEqual(own, shared);
    assert.equal(
      own.find('2330')!.reference,
      new Catalog(own.days, 41, () => baselineReferences).find('2330')!.reference,
    );
  });

  test('its records and lists cannot be changed by a broker that reads them', () => {
    const catalog = brokerAt(MONDAY_MORNING, 41).contracts.current();
    const stock = catalog.find('2330')!;
    const future = catalog.all('FUT')[0]!;
    assert.throws(() => Object.assign(stock, { reference: 1 }), TypeError);
    assert.throws(() => Object.assign(future, { limit_up: 1 }), TypeError);
    for (const type of SECURITY_TYPES) {
      assert.throws(() => catalog.all(type).push(future), TypeError, type);
      assert.ok(Object.isFrozen(catalog.all(type)[0]), type);
    }
    assert.equal(catalog.find('2330')!.reference, stock.reference);
  });

  test('a catalog is kept per seed, clock mode and pair of listing days', () => {
    const days = { stockDay: '2030-02-01', futuresDay: '2030-02-01' };
    const build = () => ({}) as Catalog;
    const kept = sharedCatalog(46, 'exchange', days, build);
    assert.equal(sharedCatalog(46, 'exchange', { ...days }, build), kept);
    assert.notEqual(sharedCatalog(47, 'exchange', days, build), kept);
    assert.notEqual(sharedCatalog(46, 'always-open', days, build), kept);
    assert.notEqual(sharedCatalog(46, 'exchange', { ...days, futuresDay: '2030-02-03' }, build), kept);
  });

  test('only the 8 catalogs used last are kept: an older one is built again', () => {
    const days = (n: number) => ({ stockDay: `2030-01-${String(n).padStart(2, '0')}`, futuresDay: '2030-01-01' });
    let builds = 0;
    const build = () => {
      builds += 1;
      return { builds } as unknown as Catalog;
    };
    const oldest = sharedCatalog(45, 'exchange', days(1), build);
    for (let n = 2; n <= 8; n++) sharedCatalog(45, 'exchange', days(n), build);
    assert.equal(sharedCatalog(45, 'exchange', days(1), build), oldest, 'used again, so now the newest');
    sharedCatalog(45, 'exchange', days(9), build);
    assert.equal(builds, 9);
    assert.equal(sharedCatalog(45, 'exchange', days(1), build), oldest);
    assert.notEqual(sharedCatalog(45, 'exchange', days(2), build), undefined);
    assert.equal(builds, 10, 'the day used least recently was dropped and is built again');
  });
});
