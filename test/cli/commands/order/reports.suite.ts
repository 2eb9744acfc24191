import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  accountOfEvent,
  eventMatches,
  formatOrderEvent,
  orderEventCells,
} from '../../../../src/cli/commands/order/reports.js';
import { futuresDealEvent, stockOrderEvent } from '../../streaming.js';

describe('order reports', () => {
  test('rows and accounts of each kind of report', () => {
    assert.deepEqual(accountOfEvent(stockOrderEvent('6880831')), { broker_id: '9A95', account_id: '6880831' });
    assert.deepEqual(accountOfEvent(futuresDealEvent), { broker_id: 'F002000', account_id: '5234661' });
    assert.equal(eventMatches(futuresDealEvent, { broker_id: 'F002000', account_id: '5234661' }), true);
    assert.equal(eventMatches(futuresDealEvent, { broker_id: '9A95', account_id: '5234661' }), false);
    assert.equal(eventMatches(futuresDealEvent, undefined), true);
    assert.deepEqual(orderEventCells(futuresDealEvent), [
      '10:00:02',
      'FuturesDeal',
      'Deal',
      'TXFL6',
      'Sell',
      22000,
      1,
      'B0001001',
      'filled',
    ]);
    assert.match(formatOrderEvent(stockOrderEvent('6880831')), /\s+A0001\s+ok$/);
    assert.match(
      formatOrderEvent(stockOrderEvent('6880831', '99', '價格檔數錯誤')),
      /\s+A0001\s+99 價格檔數錯誤 \(price not on the tick grid of its price band\)$/,
    );
  });
});
