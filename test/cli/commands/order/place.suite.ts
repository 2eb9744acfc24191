import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  orderKindOf,
  type PlaceOptions,
  placeOrderRequest,
  timeInForceOf,
} from '../../../../src/cli/commands/order/place.js';
import { EXIT, UsageError } from '../../../../src/cli/context.js';
import { assertUsageErrors } from '../../../helpers/cli.js';
import { orderDaemon, stockTrade } from './fixtures.js';

const usage = (message: RegExp) => (error: unknown) => error instanceof UsageError && message.test(error.message);

describe('placeOrderRequest', () => {
  const base: PlaceOptions = { code: '2330', action: 'Buy', quantity: 2, price: 1000 };
  const stock = { security_type: 'STK', exchange: 'TSE', code: '2330' };
  const futures = { security_type: 'FUT', exchange: 'TAIFEX', code: 'TXFR1' };

  test('a stock order: LMT ROD by default, only the flags given', () => {
    assert.deepEqual(placeOrderRequest(base, stock), {
      contract: stock,
      stock_order: { action: 'Buy', price: 1000, quantity: 2, price_type: 'LMT', order_type: 'ROD' },
    });
    assert.deepEqual(
      placeOrderRequest(
        {
          ...base,
          orderLot: 'IntradayOdd',
          orderCond: 'MarginTrading',
          daytradeShort: true,
          customField: 'memo1',
          account: { broker_id: '9A95', account_id: '6880831' },
          orderType: 'IOC',
        },
        stock,
      ).stock_order,
      {
        action: 'Buy',
        price: 1000,
        quantity: 2,
        price_type: 'LMT',
        order_type: 'IOC',
        custom_field: 'memo1',
        account: { broker_id: '9A95', account_id: '6880831' },
        order_lot: 'IntradayOdd',
        order_cond: 'MarginTrading',
        daytrade_short: true,
      },
    );
  });

  test('futures and options: futures_order with octype; warrants go as stock orders', () => {
    assert.deepEqual(placeOrderRequest({ ...base, octype: 'NewPosition' }, futures), {
      contract: futures,
      futures_order: {
        action: 'Buy',
        price: 1000,
        quantity: 2,
        price_type: 'LMT',
        order_type: 'ROD',
        octype: 'NewPosition',
      },
    });
    assert.ok(placeOrderRequest(base, { security_type: 'OPT', code: 'TXO22000L6' }).futures_order);
    assert.ok(placeOrderRequest(base, { security_type: 'WRT', code: '030001' }).stock_order);
  });

  test('market orders need no price; --no-wait is timeout 0; --account-id is --account', () => {
    const body = placeOrderRequest(
      {
        code: 'TXFR1',
        action: 'Sell',
        quantity: 1,
        priceType: 'MKP',
        orderType: 'IOC',
        wait: false,
        accountId: { broker_id: 'F002000', account_id: '5234661' },
      },
      futures,
    );
    assert.deepEqual(body, {
      contract: futures,
      futures_order: {
        action: 'Sell',
        price: 0,
        quantity: 1,
        price_type: 'MKP',
        order_type: 'IOC',
        account: { broker_id: 'F002000', account_id: '5234661' },
      },
      timeout: 0,
    });
  });

  test('--tif, --time-in-force and the legacy --order-type are one setting; ROD when none is given', () => {
    assert.equal(timeInForceOf(base), 'ROD');
    assert.equal(timeInForceOf({ ...base, tif: 'IOC' }), 'IOC');
    assert.equal(timeInForceOf({ ...base, timeInForce: 'FOK' }), 'FOK');
    assert.equal(timeInForceOf({ ...base, orderType: 'FOK' }), 'FOK');
    assert.equal(timeInForceOf({ ...base, tif: 'IOC', orderType: 'IOC', timeInForce: 'IOC' }), 'IOC');
    assert.match(JSON.stringify(placeOrderRequest({ ...base, tif: 'FOK' }, futures)), /"order_type":"FOK"/);
    assert.throws(
      () => timeInForceOf({ ...base, tif: 'IOC', orderType: 'ROD' }),
      usage(/--tif ioc and --order-type rod disagree/),
    );
    assert.throws(
      () => placeOrderRequest({ ...base, timeInForce: 'FOK', orderType: 'IOC' }, stock),
      usage(/--time-in-force fok and --order-type ioc disagree/),
    );
  });

  test('a LMT order needs --price; flags of the other kind of order are usage errors', () => {
    assert.throws(() => placeOrderRequest({ ...base, price: undefined }, stock), usage(/LMT order needs --price/));
    assert.throws(() => placeOrderRequest({ ...base, octype: 'New' }, stock), usage(/--octype is for futures/));
    assert.throws(() => placeOrderRequest({ ...base, orderLot: 'Odd' }, futures), usage(/--order-lot is for stocks/));
    assert.throws(
      () => placeOrderRequest({ ...base, daytradeShort: true }, futures),
      usage(/--daytrade-short is for stocks/),
    );
    assert.throws(
      () =>
        placeOrderRequest(
          { ...base, account: { broker_id: 'a', account_id: 'b' }, accountId: { broker_id: 'a', account_id: 'b' } },
          stock,
        ),
      usage(/--account or --account-id/),
    );
    assert.throws(() => orderKindOf('IND'), usage(/IND contract cannot be traded/));
  });
});

describe('sjgate order place against a fake daemon', () => {
  const { daemon, state, reset } = orderDaemon();
  const { seen, sjgate } = daemon;
  beforeEach(reset);
  before(() => daemon.start());
  after(() => daemon.stop());

  test('place looks the contract up, sends a stock_order and prints the trade on one line', async () => {
    const run = await sjgate(
      'order',
      'place',
      '--code',
      '2330',
      '--action',
      'buy',
      '--price',
      '1000',
      '--quantity',
      '2',
      '--order-lot',
      'common',
      '--custom-field',
      'abc',
    );
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(seen, [
      { method: 'GET', url: '/api/v1/data/contracts/2330', body: null },
      {
        method: 'POST',
        url: '/api/v1/order/place_order',
        body: {
          contract: { security_type: 'STK', exchange: 'TSE', code: '2330' },
          stock_order: {
            action: 'Buy',
            price: 1000,
            quantity: 2,
            price_type: 'LMT',
            order_type: 'ROD',
            custom_field: 'abc',
            order_lot: 'Common',
          },
        },
      },
    ]);
    assert.match(run.stdout, /c604f33c\s*│\s*2330\s*│\s*Buy\s*│\s*1000\s*│\s*ROD\s*│\s*2\s*│\s*Submitted\s*│\s*0\s*│/);
  });

  test('place follows a PendingSubmit trade through order/trades until the exchange answers', async () => {
    state.placed = stockTrade('PendingSubmit');
    state.listings = [[stockTrade('PendingSubmit')], [stockTrade('Filled')]];
    const run = await sjgate(
      '--format',
      'json',
      'order',
      'place',
      '--code',
      '2330',
      '--action',
      'Buy',
      '--price',
      '1000',
      '--quantity',
      '2',
    );
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(seen.map((s) => [s.url, s.body]).slice(2), [
      ['/api/v1/order/trades', { broker_id: '9A95', account_id: '6880831' }],
      ['/api/v1/order/trades', { broker_id: '9A95', account_id: '6880831' }],
    ]);
    assert.deepEqual(JSON.parse(run.stdout), stockTrade('Filled'));
  });

  test('place --wait-timeout bounds the following: a trade that never settles is printed after it, with a note', async () => {
    state.placed = stockTrade('PendingSubmit');
    const place = ['order', 'place', '--code', '2330', '--action', 'buy', '--price', '1000', '--quantity', '2'];
    const run = await sjgate(...place, '--wait-timeout', '1');
    assert.equal(run.code, EXIT.ok, run.stderr);
    // every 200 ms for 1 s: five listings, then it stops, whatever the clock did
    assert.equal(seen.filter((s) => s.url === '/api/v1/order/trades').length, 5);
    assert.match(run.stdout, /PendingSubmit/);
    assert.match(run.stderr, /still PendingSubmit/);
  });

  test('place --no-wait sends timeout 0 and prints the answer without polling', async () => {
    state.placed = stockTrade('Inactive', { id: '' });
    const run = await sjgate(
      'order',
      'place',
      '--code',
      '2330',
      '--action',
      'sell',
      '--price-type',
      'mkt',
      '--order-type',
      'ioc',
      '--quantity',
      '1',
      '--account',
      '9A95-6880831',
      '--no-wait',
    );
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(
      seen.map((s) => s.url),
      ['/api/v1/data/contracts/2330', '/api/v1/order/place_order'],
    );
    assert.deepEqual(seen[1]?.body, {
      contract: { security_type: 'STK', exchange: 'TSE', code: '2330' },
      stock_order: {
        action: 'Sell',
        price: 0,
        quantity: 1,
        price_type: 'MKT',
        order_type: 'IOC',
        account: { broker_id: '9A95', account_id: '6880831' },
      },
      timeout: 0,
    });
    assert.match(run.stdout, /-\s*│\s*2330\s*│\s*Buy\s*│.*Inactive/);
  });

  test('place on TXFR1 sends a futures_order; --security-type skips the lookup; a Failed trade is exit 4', async () => {
    const run = await sjgate(
      'order',
      'place',
      '--code',
      'TXFR1',
      '--action',
      'sell',
      '--price-type',
      'mkt',
      '--quantity',
      '1',
      '--octype',
      'new-position',
      '--tif',
      'rod',
    );
    assert.equal(run.code, EXIT.refused, run.stderr);
    assert.match(run.stderr, /refused the order: 當日市價單不允許當日有效委託\(ROD\) \(a market order cannot be ROD/);
    assert.deepEqual(seen[1]?.body, {
      contract: { security_type: 'FUT', exchange: 'TAIFEX', code: 'TXFR1' },
      futures_order: {
        action: 'Sell',
        price: 0,
        quantity: 1,
        price_type: 'MKT',
        order_type: 'ROD',
        octype: 'NewPosition',
      },
    });
    assert.match(
      run.stdout,
      /b0fc523b\s*│\s*TXFL6\s*│\s*Sell\s*│\s*MKT\s*│.*Failed.*當日市價單不允許當日有效委託\(ROD\)/,
    );
    const typed = await sjgate(
      'order',
      'place',
      '--code',
      'TXFR1',
      '--security-type',
      'fut',
      '--action',
      'buy',
      '--price',
      '22000',
      '--quantity',
      '1',
      '--tif',
      'ioc',
    );
    // The fake daemon answers the same Failed trade.
    assert.equal(typed.code, EXIT.refused, typed.stderr);
    assert.deepEqual(
      seen.map((s) => s.url),
      ['/api/v1/order/place_order'],
    );
    assert.deepEqual((seen[0]!.body as { contract: unknown }).contract, { security_type: 'FUT', code: 'TXFR1' });
    assert.equal((seen[0]!.body as { futures_order: { order_type: string } }).futures_order.order_type, 'IOC');
  });

  test('an unknown code is exit 1 with the API message, and nothing is placed', async () => {
    const unknown = await sjgate(
      'order',
      'place',
      '--code',
      'NOPE',
      '--action',
      'buy',
      '--price',
      '1',
      '--quantity',
      '1',
    );
    assert.equal(unknown.code, EXIT.error);
    assert.match(unknown.stderr, /NOPE is not a listed contract/);
    assert.deepEqual(
      seen.map((s) => s.url),
      ['/api/v1/data/contracts/NOPE'],
    );
  });

  test('--security-type IND is taken, as by the official CLI, and refused as there: an index cannot be ordered', async () => {
    const run = await sjgate(
      ...['order', 'place', '--code', 'IX0001', '--security-type', 'IND'],
      ...['--action', 'buy', '--price', '1', '--quantity', '1'],
    );
    assert.notEqual(run.code, EXIT.ok);
    assert.match(run.stderr, /IND contract cannot be traded; orders are for STK, WRT, FUT and OPT/);
    assert.deepEqual(seen, [], 'nothing is sent');
  });

  test('bad flags are exit 2 and send nothing', async () => {
    const place = ['order', 'place', '--code', '2330', '--quantity', '1'];
    await assertUsageErrors(daemon, [
      [[...place, '--price', '1'], /required option '--action <ACTION>'/],
      [[...place, '--action', 'long', '--price', '1'], /--action.*expected one of buy, sell/],
      [[...place, '--action', 'buy', '--price', '-5'], /expected a price from 0/],
      [[...place, '--action', 'buy', '--price', '1', '--order-lot', 'board'], /expected one of common, block-trade/],
      [[...place, '--action', 'buy', '--price', '1', '--custom-field', 'TOOLONG7'], /6 letters or digits/],
      [[...place, '--action', 'buy', '--price', '1', '--account', '12345'], /BROKER-ACCOUNT/],
      [[...place, '--action', 'buy', '--security-type', 'STK'], /LMT order needs --price/],
      [['order', 'place', '--code', '2330', '--action', 'buy', '--price', '1', '--quantity', '0'], /integer from 1/],
      [[...place, '--action', 'buy', '--price', '1', '--tif', 'gtc'], /--tif.*expected one of rod, ioc, fok/],
      [[...place, '--action', 'buy', '--price', '1', '--wait-timeout', '0'], /integer from 1 to 120/],
      [[...place, '--action', 'buy', '--price', '1', '--wait-timeout', '600'], /integer from 1 to 120/],
      [
        [...place, '--action', 'buy', '--price', '1', '--no-wait', '--wait-timeout', '3'],
        /--no-wait and --wait-timeout contradict/,
      ],
      [
        [...place, '--action', 'buy', '--price', '1', '--tif', 'ioc', '--order-type', 'fok'],
        /--tif ioc and --order-type fok disagree/,
      ],
      [
        [...place, '--action', 'buy', '--price', '1', '--time-in-force', 'rod', '--order-type', 'ioc'],
        /--time-in-force rod and --order-type ioc disagree/,
      ],
    ]);
  });

  test('a stock-only flag on a futures contract is exit 2 after the lookup, before placing', async () => {
    const run = await sjgate(
      'order',
      'place',
      '--code',
      'TXFR1',
      '--action',
      'buy',
      '--price',
      '22000',
      '--quantity',
      '1',
      '--order-cond',
      'margin-trading',
    );
    assert.equal(run.code, EXIT.usage, run.stderr);
    assert.match(run.stderr, /--order-cond is for stocks; TXFR1 is FUT/);
    assert.deepEqual(
      seen.map((s) => s.url),
      ['/api/v1/data/contracts/TXFR1'],
    );
  });

  test('--json FIELDS prints only those fields of the trade', async () => {
    const place = ['order', 'place', '--code', '2330', '--action', 'buy', '--price', '1000', '--quantity', '2'];
    const run = await sjgate(...place, '--json', 'status,order');
    assert.equal(run.code, EXIT.ok, run.stderr);
    const trade = stockTrade('Submitted');
    assert.deepEqual(JSON.parse(run.stdout), { status: trade.status, order: trade.order });
    assert.deepEqual(Object.keys(JSON.parse(run.stdout)), ['status', 'order']);
  });

  test('--json with an unknown field, or alone, is exit 2 before anything is sent', async () => {
    const place = ['order', 'place', '--code', '2330', '--action', 'buy', '--price', '1000', '--quantity', '2'];
    const wrong = await sjgate(...place, '--json', 'status,ordno');
    assert.equal(wrong.code, EXIT.usage, wrong.stderr);
    assert.equal(wrong.stdout, '');
    assert.equal(
      wrong.stderr,
      'error: unknown JSON field: "ordno"\navailable fields:\n  contract\n  order\n  status\n',
    );
    assert.deepEqual(seen, []);
    const bare = await sjgate(...place, '--json');
    assert.equal(bare.code, EXIT.usage, bare.stderr);
    assert.equal(
      bare.stderr,
      'error: specify one or more comma-separated fields for --json:\n  contract\n  order\n  status\n',
    );
    assert.deepEqual(seen, []);
  });
});
