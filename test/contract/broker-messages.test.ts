import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { englishOfBrokerMessage, explainedRefusal } from '../../src/contract/broker-messages.js';
import { SHIOAJI_MESSAGES } from '../../src/domain/order-messages.js';

describe('the broker messages in English', () => {
  test('every message of the rules has its English; a message of shares left keeps its number', () => {
    for (const message of Object.values(SHIOAJI_MESSAGES)) {
      assert.match(englishOfBrokerMessage(message) ?? '', /^[\x20-\x7e]+$/, message);
    }
    assert.match(englishOfBrokerMessage('集保賣出餘股數不足，餘股數 300 股') ?? '', /not enough shares.*300 left/);
    assert.equal(englishOfBrokerMessage('insufficient margin: need NT$1'), null);
    assert.equal(englishOfBrokerMessage(''), null);
  });

  test('a refusal lists every rule broken, each explained, the first first', () => {
    const violations = [
      { rule: 'priceOnTickGrid', op_code: '99', msg: SHIOAJI_MESSAGES.priceOffTick },
      { rule: 'priceWithinLimits', op_code: '99', msg: SHIOAJI_MESSAGES.priceOutsideLimits },
      { rule: 'cashSufficient', op_code: '99', msg: 'insufficient cash: the order needs NT$2,000, available NT$0' },
    ];
    assert.deepEqual(explainedRefusal({ msg: SHIOAJI_MESSAGES.priceOffTick, violations }), [
      '價格檔數錯誤 (price not on the tick grid of its price band)',
      "價格超過漲跌幅範圍 (price outside today's limits)",
      'insufficient cash: the order needs NT$2,000, available NT$0',
    ]);
  });

  test("without violations (the live broker's answer) the one msg is explained; an empty list too", () => {
    assert.deepEqual(explainedRefusal({ msg: SHIOAJI_MESSAGES.marketRod }), [
      '當日市價單不允許當日有效委託(ROD) (a market order cannot be ROD: use IOC or FOK)',
    ]);
    assert.deepEqual(explainedRefusal({ msg: 'some new reason', violations: [] }), ['some new reason']);
  });
});
