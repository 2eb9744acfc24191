import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { EXIT } from '../../../../src/cli/context.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { orderDaemon, stockTrade } from './fixtures.js';

describe('sjgate order update-price against a fake daemon', () => {
  const { daemon, state, reset } = orderDaemon();
  const { seen, sjgate } = daemon;
  beforeEach(reset);
  before(() => daemon.start());
  after(() => daemon.stop());

  test('update-price sends the trade id and the price', async () => {
    await sjgate('order', 'update-price', '--id', 'c604f33c', '--price', '1005.5');
    assert.deepEqual(seen[0]?.body, { trade_id: 'c604f33c', price: 1005.5 });
    assert.equal(seen[0]?.url, '/api/v1/order/update_price');
  });

  test('update-price follows a pending trade until it settles, within --wait-timeout', async () => {
    state.placed = stockTrade('PendingSubmit');
    state.listings = [[stockTrade('PendingSubmit')], [stockTrade('Submitted')]];
    const args = ['order', 'update-price', '--id', 'c604f33c', '--price', '1005', '--wait-timeout', '2'];
    const run = await sjgate('--format', 'json', ...args);
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.equal(seen.filter((s) => s.url === '/api/v1/order/trades').length, 2);
    assert.equal(JSON.parse(run.stdout).status.status, 'Submitted');
    assert.equal(run.stderr, '');
  });

  test('update-price --no-wait prints the answer as it is, without following it', async () => {
    state.placed = stockTrade('PendingSubmit');
    const run = await sjgate(
      '--format',
      'json',
      'order',
      'update-price',
      '--id',
      'c604f33c',
      '--price',
      '1',
      '--no-wait',
    );
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(
      seen.map((s) => s.url),
      ['/api/v1/order/update_price'],
    );
    assert.equal(JSON.parse(run.stdout).status.status, 'PendingSubmit');
  });

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [
      [['order', 'update-price', '--id', 'x', '--price', 'abc'], /expected a number/],
      [['order', 'update-price', '--id', 'x', '--price', '1', '--wait-timeout', '-1'], /integer from 1 to 120/],
      [
        ['order', 'update-price', '--id', 'x', '--price', '1', '--no-wait', '--wait-timeout', '9'],
        /--no-wait and --wait/,
      ],
    ]);
  });
});
