import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { tradesRequest } from '../../../../src/cli/commands/order/list.js';
import { EXIT } from '../../../../src/cli/context.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { FUTURES_TRADE, orderDaemon, stockTrade } from './fixtures.js';

describe('tradesRequest', () => {
  test('list: every account unless narrowed', () => {
    assert.deepEqual(tradesRequest({}), {});
    assert.deepEqual(tradesRequest({ accountType: 'F' }), { account_type: 'F' });
    assert.deepEqual(tradesRequest({ account: { broker_id: '9A95', account_id: '6880831' } }), {
      broker_id: '9A95',
      account_id: '6880831',
    });
  });
});

describe('sjgate order list against a fake daemon', () => {
  const { daemon, state, reset } = orderDaemon();
  const { seen, sjgate } = daemon;
  beforeEach(reset);
  before(() => daemon.start());
  after(() => daemon.stop());

  test('list sends the selector and prints one line per trade', async () => {
    state.listings = [[stockTrade('Filled'), FUTURES_TRADE]];
    const run = await sjgate('order', 'list');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(seen, [{ method: 'POST', url: '/api/v1/order/trades', body: {} }]);
    assert.equal(run.stdout.split('\n').filter((l) => /c604f33c|b0fc523b/.test(l)).length, 2);
    await sjgate('order', 'list', '--account-type', 'F');
    assert.deepEqual(seen[0]?.body, { account_type: 'F' });
    await sjgate('order', 'list', '--account', 'F002000-5234661');
    assert.deepEqual(seen[0]?.body, { broker_id: 'F002000', account_id: '5234661' });
  });

  test("--format toon lists the stock account's trades before the futures account's, as the official CLI", async () => {
    state.listings = [
      [FUTURES_TRADE, stockTrade('Filled')],
      [FUTURES_TRADE, stockTrade('Filled')],
    ];
    const toon = await sjgate('--format', 'toon', 'order', 'list');
    assert.equal(toon.code, EXIT.ok, toon.stderr);
    assert.ok(toon.stdout.indexOf('security_type: STK') < toon.stdout.indexOf('security_type: FUT'), toon.stdout);
    const json = await sjgate('--format', 'json', 'order', 'list');
    assert.deepEqual(
      JSON.parse(json.stdout).map((trade: { contract: { security_type: string } }) => trade.contract.security_type),
      ['FUT', 'STK'],
      'JSON is the answer as it came',
    );
  });

  test('bad flags are exit 2 and send nothing', async () => {
    await assertUsageErrors(daemon, [[['order', 'list', '--account-type', 'H'], /expected one of S, F/]]);
  });

  test('--json FIELDS keeps those fields of every trade; an empty list is []', async () => {
    state.listings = [[stockTrade('Filled'), FUTURES_TRADE]];
    const run = await sjgate('order', 'list', '--json', 'contract');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), [
      { contract: stockTrade('Filled').contract },
      { contract: FUTURES_TRADE.contract },
    ]);
    state.listings = [[]];
    const empty = await sjgate('order', 'list', '--json', 'contract');
    assert.deepEqual(JSON.parse(empty.stdout), []);
    const wrong = await sjgate('order', 'list', '--json', 'code');
    assert.equal(wrong.code, EXIT.usage);
    assert.deepEqual(seen, []);
  });
});
