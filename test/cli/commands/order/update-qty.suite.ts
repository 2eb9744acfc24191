import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { orderDaemon } from './fixtures.js';

describe('sjgate order update-qty against a fake daemon', () => {
  const { daemon, reset } = orderDaemon();
  const { seen, sjgate } = daemon;
  beforeEach(reset);
  before(() => daemon.start());
  after(() => daemon.stop());

  test('update-qty sends the trade id and the quantity', async () => {
    await sjgate('order', 'update-qty', '--id', 'c604f33c', '--quantity', '1');
    assert.deepEqual(seen[0]?.body, { trade_id: 'c604f33c', quantity: 1 });
    assert.equal(seen[0]?.url, '/api/v1/order/update_qty');
  });

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [[['order', 'update-qty', '--id', 'x'], /required option '--quantity <N>'/]]);
  });
});
