import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { pageRequest, tradesRequest } from '../../../../src/cli/commands/order/list.js';
import { EXIT } from '../../../../src/cli/context.js';
import { assertUsageErrors, fakeDaemon } from '../../../helpers/cli.js';
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

describe('sjgate order list pages through the history', () => {
  test('pageRequest: no paging field without a history option', () => {
    assert.equal(pageRequest({ accountType: 'S' }), undefined);
    assert.deepEqual(pageRequest({ limit: 10, since: '2026-11-02', until: '2026-11-06' }), {
      limit: 10,
      begin_date: '2026-11-02',
      end_date: '2026-11-06',
    });
    assert.deepEqual(pageRequest({ all: true }), { limit: 1000 }, 'a limit makes it a history call');
  });

  const pages: Record<string, [unknown[], string | undefined]> = {
    first: [[stockTrade('Filled')], 'c-2'],
    'c-2': [[FUTURES_TRADE], undefined],
  };
  const daemon = fakeDaemon(({ url, body }) => {
    if (url !== '/api/v1/order/trades') return [404, {}];
    const [trades, next] = pages[(body as { cursor?: string }).cursor ?? 'first'] ?? [[], undefined];
    return [200, trades, next === undefined ? {} : { 'x-next-cursor': next }];
  });
  before(() => daemon.start());
  after(() => daemon.stop());

  test('one page, and the cursor of the next on stderr; --cursor goes on; --all follows every page', async () => {
    const first = await daemon.sjgate('order', 'list', '--limit', '1', '--since', '2026-11-02', '--json', 'order');
    assert.equal(first.code, EXIT.ok, first.stderr);
    assert.deepEqual(
      daemon.seen.map((request) => request.body),
      [{ limit: 1, begin_date: '2026-11-02' }],
    );
    assert.equal(JSON.parse(first.stdout).length, 1);
    assert.match(first.stderr, /--cursor c-2/);
    const next = await daemon.sjgate('order', 'list', '--limit', '1', '--cursor', 'c-2', '--json', 'order');
    assert.deepEqual(JSON.parse(next.stdout), [{ order: FUTURES_TRADE.order }]);
    assert.doesNotMatch(next.stderr, /--cursor/);
    const all = await daemon.sjgate('order', 'list', '--all', '--json', 'order');
    assert.deepEqual(
      daemon.seen.map((request) => request.body),
      [{ limit: 1000 }, { limit: 1000, cursor: 'c-2' }],
    );
    assert.equal(JSON.parse(all.stdout).length, 2);
  });

  test('a bad limit or date is a usage error and sends nothing', async () => {
    await assertUsageErrors(daemon, [
      [['order', 'list', '--limit', '0'], /limit|1/],
      [['order', 'list', '--limit', '1001'], /1000/],
      [['order', 'list', '--since', '2026-13-01'], /date|YYYY/],
    ]);
  });
});
