import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { customField, price } from '../../src/cli/commands/order/flags.js';
import { tradesRequest } from '../../src/cli/commands/order/list.js';
import { orderKindOf, type PlaceOptions, placeOrderRequest } from '../../src/cli/commands/order/place.js';
import { formatTrades, isSettled, settle, tradeRow } from '../../src/cli/commands/order/trades.js';
import { EXIT, UsageError } from '../../src/cli/context.js';
import { enumValue } from '../../src/cli/parsers.js';
import {
  ACTIONS,
  FUTURES_OC_TYPE_INPUTS,
  type FuturesTrade,
  ORDER_TYPES,
  type OrderStatus,
  STOCK_ORDER_CONDS,
  STOCK_ORDER_LOTS,
  STOCK_PRICE_TYPES,
  type StockTrade,
  type Trade,
} from '../../src/domain/orders.js';
import { envelope, fakeDaemon } from '../helpers/cli.js';

const invalidArgument = (message: RegExp) => (error: unknown) =>
  error instanceof InvalidArgumentError && message.test(error.message);
const usage = (message: RegExp) => (error: unknown) => error instanceof UsageError && message.test(error.message);

const STOCK_ACCOUNT = {
  account_type: 'S' as const,
  person_id: 'A123456789',
  broker_id: '9A95',
  account_id: '6880831',
  signed: true,
  username: 'sjgate 模擬帳戶',
};
const FUTURES_ACCOUNT = { ...STOCK_ACCOUNT, account_type: 'F' as const, broker_id: 'F002000', account_id: '5234661' };

function stockTrade(status: OrderStatus, fields: Partial<StockTrade['order']> = {}): StockTrade {
  const id = fields.id ?? 'c604f33c';
  return {
    contract: { security_type: 'STK', exchange: 'TSE', code: '2330', target_code: null },
    order: {
      id,
      seqno: '100001',
      ordno: 'A0001',
      action: 'Buy',
      price: 1000,
      quantity: 2,
      order_type: 'ROD',
      custom_field: '',
      account: STOCK_ACCOUNT,
      ca: '',
      price_type: 'LMT',
      order_cond: 'Cash',
      order_lot: 'Common',
      ...fields,
    },
    status: {
      id,
      status,
      status_code: status === 'PendingSubmit' ? '0' : '00',
      web_id: status === 'PendingSubmit' ? '' : '137',
      order_ts: 1795399200,
      msg: status === 'PendingSubmit' ? '' : '委託成功',
      modified_ts: 0,
      modified_price: 0,
      order_quantity: status === 'PendingSubmit' ? 0 : 2,
      deal_quantity: status === 'Filled' ? 2 : 0,
      cancel_quantity: 0,
      deals: status === 'Filled' ? [{ seq: '000001', price: 995, quantity: 2, ts: 1795399200 }] : [],
    },
  };
}

const FUTURES_TRADE: FuturesTrade = {
  contract: { security_type: 'FUT', exchange: 'TAIFEX', code: 'TXFL6', target_code: 'TXFL6' },
  order: {
    id: 'b0fc523b',
    seqno: '100004',
    ordno: 'A0004',
    action: 'Sell',
    price: 0,
    quantity: 1,
    order_type: 'ROD',
    custom_field: '',
    account: FUTURES_ACCOUNT,
    ca: '',
    price_type: 'MKT',
    octype: 'Auto',
  },
  status: {
    ...stockTrade('Failed').status,
    id: 'b0fc523b',
    status: 'Failed',
    status_code: '9938',
    msg: '當日市價單不允許當日有效委託(ROD)',
    order_quantity: 0,
  },
};

describe('enum flags', () => {
  test('are written in lower or kebab case, or as the API spells them', () => {
    assert.equal(enumValue(ACTIONS)('buy'), 'Buy');
    assert.equal(enumValue(ACTIONS)(' SELL '), 'Sell');
    assert.equal(enumValue(STOCK_PRICE_TYPES)('lmt'), 'LMT');
    assert.equal(enumValue(ORDER_TYPES)('ioc'), 'IOC');
    assert.equal(enumValue(STOCK_ORDER_LOTS)('intraday-odd'), 'IntradayOdd');
    assert.equal(enumValue(STOCK_ORDER_LOTS)('INTRADAY_ODD'), 'IntradayOdd');
    assert.equal(enumValue(STOCK_ORDER_LOTS)('BlockTrade'), 'BlockTrade');
    assert.equal(enumValue(STOCK_ORDER_CONDS)('margin-trading'), 'MarginTrading');
    assert.equal(enumValue(FUTURES_OC_TYPE_INPUTS)('new-position'), 'NewPosition');
    assert.equal(enumValue(FUTURES_OC_TYPE_INPUTS)('day-trade'), 'DayTrade');
  });

  test('an unknown value lists the choices in kebab case', () => {
    assert.throws(
      () => enumValue(STOCK_ORDER_LOTS)('board'),
      invalidArgument(/expected one of common, block-trade, fixing, odd, intraday-odd$/),
    );
    assert.throws(() => enumValue(ACTIONS)('long'), invalidArgument(/expected one of buy, sell/));
  });

  test('prices are numbers from 0; custom_field is up to 6 letters or digits', () => {
    assert.equal(price('1000.5'), 1000.5);
    assert.equal(price('0'), 0);
    assert.throws(() => price('-1'), invalidArgument(/from 0/));
    assert.throws(() => price('abc'), invalidArgument(/a number/));
    assert.equal(customField('ab12CD'), 'ab12CD');
    assert.throws(() => customField('ABCDEFG'), invalidArgument(/6 letters or digits/));
    assert.throws(() => customField('a-b'), invalidArgument(/6 letters or digits/));
  });
});

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

  test('list: every account unless narrowed', () => {
    assert.deepEqual(tradesRequest({}), {});
    assert.deepEqual(tradesRequest({ accountType: 'F' }), { account_type: 'F' });
    assert.deepEqual(tradesRequest({ account: { broker_id: '9A95', account_id: '6880831' } }), {
      broker_id: '9A95',
      account_id: '6880831',
    });
  });
});

describe('settle', () => {
  const noSleep = async () => {};

  test('a trade the exchange answered is returned without a call', async () => {
    const trade = stockTrade('Submitted');
    const result = await settle(trade, async () => assert.fail('no listing expected'), { sleep: noSleep });
    assert.equal(result, trade);
    assert.ok(isSettled(stockTrade('Failed')));
    assert.ok(!isSettled(stockTrade('PendingSubmit')));
    assert.ok(!isSettled(stockTrade('Inactive')));
  });

  test('polls the trade account until the trade leaves PendingSubmit', async () => {
    const selectors: unknown[] = [];
    const waits: number[] = [];
    const answers = [stockTrade('PendingSubmit'), stockTrade('Filled')];
    const result = await settle(
      stockTrade('PendingSubmit'),
      async (selector) => {
        selectors.push(selector);
        return [stockTrade('Submitted', { id: 'other' }), answers.shift()!];
      },
      { sleep: async (ms) => void waits.push(ms) },
    );
    assert.equal(result.status.status, 'Filled');
    assert.deepEqual(waits, [200, 200]);
    assert.deepEqual(selectors, [
      { broker_id: '9A95', account_id: '6880831' },
      { broker_id: '9A95', account_id: '6880831' },
    ]);
  });

  test('gives up after the timeout with the latest state; a trade without id is not looked for', async () => {
    let calls = 0;
    const result = await settle(
      stockTrade('PendingSubmit'),
      async () => {
        calls++;
        return [stockTrade('PendingSubmit')];
      },
      { sleep: noSleep, intervalMs: 200, timeoutMs: 1000 },
    );
    assert.equal(result.status.status, 'PendingSubmit');
    assert.equal(calls, 5);
    const inactive = stockTrade('Inactive', { id: '' });
    assert.equal(await settle(inactive, async () => assert.fail('no listing expected'), { sleep: noSleep }), inactive);
  });
});

describe('formatting', () => {
  test('one row per trade: id, code, action, price, type, qty, status, filled, cancelled, msg', () => {
    assert.deepEqual(tradeRow(stockTrade('Filled')), {
      id: 'c604f33c',
      code: '2330',
      action: 'Buy',
      price: 1000,
      type: 'ROD',
      qty: 2,
      status: 'Filled',
      filled: 2,
      cancelled: 0,
      msg: '委託成功',
    });
    assert.equal(tradeRow(FUTURES_TRADE).price, 'MKT');
    assert.equal(tradeRow(stockTrade('Inactive', { id: '' })).id, '-');
    const alias: Trade = { ...FUTURES_TRADE, contract: { ...FUTURES_TRADE.contract, code: 'TXFR1' } };
    assert.equal(tradeRow(alias).code, 'TXFR1 (TXFL6)');
  });

  test('a table with a header and one line per trade', () => {
    const text = formatTrades([stockTrade('Filled'), FUTURES_TRADE]);
    const lines = text.split('\n');
    assert.match(lines.find((l) => l.includes('id')) ?? '', /id\s*│\s*code\s*│\s*action\s*│\s*price/);
    assert.equal(lines.filter((l) => /c604f33c|b0fc523b/.test(l)).length, 2);
    assert.match(
      text,
      /c604f33c\s*│\s*2330\s*│\s*Buy\s*│\s*1000\s*│\s*ROD\s*│\s*2\s*│\s*Filled\s*│\s*2\s*│\s*0\s*│\s*委託成功/,
    );
    assert.match(text, /b0fc523b\s*│\s*TXFL6\s*│\s*Sell\s*│\s*MKT\s*│.*Failed.*當日市價單/);
    assert.equal(formatTrades([]), '(none)');
  });
});

// ---- the program, run in this process against a fake daemon ----

describe('sjgate order against a fake daemon', () => {
  /** What place_order answers, and what each later trades call answers, in turn. */
  let placed: Trade;
  let listings: Trade[][];

  beforeEach(() => {
    placed = stockTrade('Submitted');
    listings = [];
  });

  const daemon = fakeDaemon(({ url, body }) => {
    if (url === '/api/v1/data/contracts/2330') {
      return [200, { security_type: 'STK', region: 'TW', exchange: 'TSE', code: '2330', target_code: null }];
    }
    if (url === '/api/v1/data/contracts/TXFR1') {
      return [200, { security_type: 'FUT', region: 'TW', exchange: 'TAIFEX', code: 'TXFR1', target_code: 'TXFL6' }];
    }
    if (url.startsWith('/api/v1/data/contracts/'))
      return envelope('CONTRACT_NOT_FOUND', `${url.split('/').pop()} is not a listed contract`);
    if (url === '/api/v1/order/place_order') {
      const order = (body as { futures_order?: unknown }).futures_order;
      return [200, order === undefined ? placed : FUTURES_TRADE];
    }
    if (url === '/api/v1/order/trades') return [200, listings.shift() ?? [placed]];
    if (url === '/api/v1/order/cancel_order') {
      const id = (body as { trade_id: string }).trade_id;
      if (id === 'missing') return envelope('ORDER_NOT_FOUND', "no order with trade_id 'missing'");
      return [200, { ...placed, status: { ...placed.status, status: 'Cancelled', cancel_quantity: 2 } }];
    }
    if (url === '/api/v1/order/update_price' || url === '/api/v1/order/update_qty') return [200, placed];
    return envelope('ROUTE_NOT_FOUND', `no route ${url}`);
  });
  const { seen, sjgate } = daemon;
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
    placed = stockTrade('PendingSubmit');
    listings = [[stockTrade('PendingSubmit')], [stockTrade('Filled')]];
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

  test('place --no-wait sends timeout 0 and prints the answer without polling', async () => {
    placed = stockTrade('Inactive', { id: '' });
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

  test('place on TXFR1 sends a futures_order; --security-type skips the lookup; a Failed trade is exit 0', async () => {
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
    );
    assert.equal(run.code, EXIT.ok, run.stderr);
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
    );
    assert.equal(typed.code, EXIT.ok, typed.stderr);
    assert.deepEqual(
      seen.map((s) => s.url),
      ['/api/v1/order/place_order'],
    );
    assert.deepEqual((seen[0]!.body as { contract: unknown }).contract, { security_type: 'FUT', code: 'TXFR1' });
  });

  test('cancel, update-price and update-qty send the trade id and print the trade', async () => {
    const cancel = await sjgate('order', 'cancel', '--id', 'c604f33c');
    assert.equal(cancel.code, EXIT.ok, cancel.stderr);
    assert.deepEqual(seen, [{ method: 'POST', url: '/api/v1/order/cancel_order', body: { trade_id: 'c604f33c' } }]);
    assert.match(cancel.stdout, /c604f33c\s*│.*│\s*Cancelled\s*│\s*0\s*│\s*2\s*│/);
    await sjgate('order', 'update-price', '--id', 'c604f33c', '--price', '1005.5');
    assert.deepEqual(seen[0]?.body, { trade_id: 'c604f33c', price: 1005.5 });
    assert.equal(seen[0]?.url, '/api/v1/order/update_price');
    await sjgate('order', 'update-qty', '--id', 'c604f33c', '--quantity', '1');
    assert.deepEqual(seen[0]?.body, { trade_id: 'c604f33c', quantity: 1 });
    assert.equal(seen[0]?.url, '/api/v1/order/update_qty');
  });

  test('list sends the selector and prints one line per trade', async () => {
    listings = [[stockTrade('Filled'), FUTURES_TRADE]];
    const run = await sjgate('order', 'list');
    assert.equal(run.code, EXIT.ok, run.stderr);
    assert.deepEqual(seen, [{ method: 'POST', url: '/api/v1/order/trades', body: {} }]);
    assert.equal(run.stdout.split('\n').filter((l) => /c604f33c|b0fc523b/.test(l)).length, 2);
    await sjgate('order', 'list', '--account-type', 'F');
    assert.deepEqual(seen[0]?.body, { account_type: 'F' });
    await sjgate('order', 'list', '--account', 'F002000-5234661');
    assert.deepEqual(seen[0]?.body, { broker_id: 'F002000', account_id: '5234661' });
  });

  test('an API error is exit 1 with its message', async () => {
    const run = await sjgate('order', 'cancel', '--id', 'missing');
    assert.equal(run.code, EXIT.error);
    assert.match(run.stderr, /error: no order with trade_id 'missing'/);
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

  test('bad flags are exit 2 and send nothing', async () => {
    const place = ['order', 'place', '--code', '2330', '--quantity', '1'];
    const cases: [string[], RegExp][] = [
      [[...place, '--price', '1'], /required option '--action <ACTION>'/],
      [[...place, '--action', 'long', '--price', '1'], /--action.*expected one of buy, sell/],
      [[...place, '--action', 'buy', '--price', '-5'], /expected a price from 0/],
      [[...place, '--action', 'buy', '--price', '1', '--order-lot', 'board'], /expected one of common, block-trade/],
      [[...place, '--action', 'buy', '--price', '1', '--custom-field', 'TOOLONG7'], /6 letters or digits/],
      [[...place, '--action', 'buy', '--price', '1', '--account', '12345'], /BROKER-ACCOUNT/],
      [[...place, '--action', 'buy', '--security-type', 'STK'], /LMT order needs --price/],
      [['order', 'place', '--code', '2330', '--action', 'buy', '--price', '1', '--quantity', '0'], /integer from 1/],
      [['order', 'cancel'], /required option '--id <TRADE_ID>'/],
      [['order', 'update-qty', '--id', 'x'], /required option '--quantity <N>'/],
      [['order', 'update-price', '--id', 'x', '--price', 'abc'], /expected a number/],
      [['order', 'list', '--account-type', 'H'], /expected one of S, F/],
    ];
    for (const [args, message] of cases) {
      const run = await sjgate(...args);
      assert.equal(run.code, EXIT.usage, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message, args.join(' '));
      assert.deepEqual(seen, [], args.join(' '));
    }
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
});
