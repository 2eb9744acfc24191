import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { orderDaemon } from './fixtures.js';

describe('sjgate order cancel against a fake daemon', () => {
  const { daemon, reset } = orderDaemon();
  const { seen, sjgate } = daemon;
  beforeEach(reset);
  before(() => daemon.start());
  after(() => daemon.stop());

  test('cancel sends the trade id and prints the trade', async () => {
    const cancel = await sjgate('order', 'cancel', '--id', 'c604f33c');
    assert.equal(cancel.code, EXIT.ok, cancel.stderr);
    assert.deepEqual(seen, [{ method: 'POST', url: '/api/v1/order/cancel_order', body: { trade_id: 'c604f33c' } }]);
    assert.match(cancel.stdout, /c604f33c\s*│.*│\s*Cancelled\s*│\s*0\s*│\s*-\s*│\s*-\s*│\s*2\s*│/);
  });

  test('an API error is exit 1 with its message', async () => {
    const run = await sjgate('order', 'cancel', '--id', 'missing');
    assert.equal(run.code, EXIT.error);
    assert.match(run.stderr, /error: no order with trade_id 'missing'/);
  });

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [
      [['order', 'cancel'], /required option '--id <TRADE_ID>'/],
      [['order', 'cancel', '--id', 'c604f33c', '--wait-timeout', 'soon'], /integer from 1 to 120/],
      [['order', 'cancel', '--id', 'c604f33c', '--no-wait', '--wait-timeout', '2'], /--no-wait and --wait-timeout/],
    ]);
  });

  test('--json checks its fields before the cancel is sent', async () => {
    const run = await sjgate('order', 'cancel', '--id', 'c604f33c', '--json', 'id');
    assert.equal(run.code, EXIT.usage);
    assert.match(run.stderr, /unknown JSON field: "id"/);
    assert.deepEqual(seen, []);
  });
});
