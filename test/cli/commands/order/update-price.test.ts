import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { orderDaemon } from './fixtures.js';

describe('sjgate order update-price against a fake daemon', () => {
  const { daemon, reset } = orderDaemon();
  const { seen, sjgate } = daemon;
  beforeEach(reset);
  before(() => daemon.start());
  after(() => daemon.stop());

  test('update-price sends the trade id and the price', async () => {
    await sjgate('order', 'update-price', '--id', 'c604f33c', '--price', '1005.5');
    assert.deepEqual(seen[0]?.body, { trade_id: 'c604f33c', price: 1005.5 });
    assert.equal(seen[0]?.url, '/api/v1/order/update_price');
  });

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [[['order', 'update-price', '--id', 'x', '--price', 'abc'], /expected a number/]]);
  });
});
