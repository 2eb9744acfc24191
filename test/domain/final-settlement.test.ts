import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  expiryCloseAt,
  finalSettlementPrice,
  fixingInstants,
  INDEX_FIXING,
  intrinsicValue,
  STOCK_FIXING,
} from '../../src/domain/final-settlement.js';
import { contractSession, tradingSession } from '../../src/domain/sessions.js';
import { taipeiInstant } from '../../src/domain/time.js';

const DAY = '2026-12-16';

describe('final settlement price (TAIFEX)', () => {
  test('an index contract averages 13:00-13:25 every 5 s and the 13:30 close', () => {
    const instants = fixingInstants(INDEX_FIXING, DAY);
    assert.equal(instants.length, 25 * 12 + 1 + 1);
    assert.equal(instants[0], taipeiInstant(DAY, '13:00'));
    assert.equal(instants.at(-2), taipeiInstant(DAY, '13:25'));
    assert.equal(instants.at(-1), expiryCloseAt(DAY));
    assert.equal(expiryCloseAt(DAY), taipeiInstant(DAY, '13:30'));
  });

  test('a stock future averages from 12:30', () => {
    const instants = fixingInstants(STOCK_FIXING, DAY);
    assert.equal(instants.length, 55 * 12 + 1 + 1);
    assert.equal(instants[0], taipeiInstant(DAY, '12:30'));
  });

  test('the mean is rounded to the step, an exact half step up', () => {
    assert.equal(finalSettlementPrice([100.2, 100.3], 1), 100);
    assert.equal(finalSettlementPrice([100, 101], 1), 101);
    assert.equal(finalSettlementPrice([100.49, 100.5], 1), 100);
    assert.equal(finalSettlementPrice([1000.004, 1000.006], 0.01), 1000.01);
    assert.equal(finalSettlementPrice([1035.5, 1036, 1036.5], 0.01), 1036);
    assert.throws(() => finalSettlementPrice([], 1), RangeError);
  });

  test('an option is worth what it is in the money, and nothing out of it', () => {
    assert.equal(intrinsicValue('C', 42000, 42350), 350);
    assert.equal(intrinsicValue('C', 42500, 42350), 0);
    assert.equal(intrinsicValue('P', 42500, 42350), 150);
    assert.equal(intrinsicValue('P', 42000, 42350), 0);
  });
});

describe('an expiring contract’s session', () => {
  for (const mode of ['exchange', 'always-open'] as const) {
    test(`ends at 13:30 on its last trading day (${mode})`, () => {
      const session = contractSession(mode, DAY, DAY);
      assert.equal(session.end, taipeiInstant(DAY, '13:30'));
      assert.ok(session.continuous.every((interval) => interval.end <= session.end));
      assert.deepEqual(contractSession(mode, DAY, '2027-01-20'), tradingSession(mode, 'futures', DAY));
    });
  }
});
