import assert from 'node:assert/strict';
import { after, afterEach, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { contractInfoPath } from '../../src/contract/paths.js';
import type { Account } from '../../src/domain/accounts.js';
import { MAX_LOTS_PER_ORDER } from '../../src/domain/order-rules.js';
import type { FuturesTrade, StockTrade, Trade } from '../../src/domain/orders.js';
import { isOnTickGrid, STOCK_TICKS } from '../../src/domain/ticks.js';
import type { ManualClock } from '../../src/domain/time.js';
import type { Gateway as GatewayService } from '../../src/gateway/gateway.js';
import { MONDAY_MORNING, testApp } from '../helpers/app.js';
import { assertErrorKind } from '../helpers/errors.js';

type Json = Record<string, unknown>;

interface Gateway {
  app: FastifyInstance;
  broker: SimBroker;
  gateway: GatewayService;
  clock: ManualClock;
  post: (url: string, payload?: unknown, headers?: Record<string, string>) => Promise<Reply>;
  get: (url: string) => Promise<Reply>;
}

interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
  body: any;
}

const open: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of open.splice(0)) await app.close();
});
after(async () => {
  for (const app of open.splice(0)) await app.close();
});

/** A fresh gateway (its own accounts, cash and orders) on Monday 2026-11-23 10:00 Taiwan time. */
async function gateway(rateLimits = false): Promise<Gateway> {
  const { app, broker, gateway, clock } = await testApp(MONDAY_MORNING, null, rateLimits);
  open.push(app);
  const send = async (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const response = await app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
    return { status: response.statusCode, body: response.json() };
  };
  return {
    app,
    broker,
    gateway,
    clock,
    post: (url, payload, headers) => send('POST', url, payload, headers),
    get: (url) => send('GET', url),
  };
}

const ORDER = '/api/v1/order';

function assertEnvelope(response: Reply, status: number, message?: RegExp) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assertErrorKind(response.body, status);
  assert.equal(response.body.code, status);
  if (message) assert.match(response.body.message, message);
}

/** The best bid and ask of a contract now. */
async function quote(gw: Gateway, code: string): Promise<{ bid: number; ask: number }> {
  const response = await gw.post('/api/v1/data/snapshots', { contracts: [{ code }] });
  assert.equal(response.status, 200);
  const [snapshot] = response.body;
  assert.ok(snapshot.buy_price > 0 && snapshot.sell_price > snapshot.buy_price, JSON.stringify(snapshot));
  return { bid: snapshot.buy_price, ask: snapshot.sell_price };
}

async function accounts(gw: Gateway): Promise<{ stock: Account; futures: Account }> {
  const list = (await gw.get('/api/v1/auth/accounts')).body as Account[];
  return { stock: list.find((a) => a.account_type === 'S')!, futures: list.find((a) => a.account_type === 'F')! };
}

const stockOrder = (fields: Json) => ({ action: 'Buy', price_type: 'LMT', order_type: 'ROD', quantity: 1, ...fields });
const futuresOrder = stockOrder;

async function place(gw: Gateway, body: Json, headers?: Record<string, string>): Promise<Trade> {
  const response = await gw.post(`${ORDER}/place_order`, body, headers);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body as Trade;
}

/** A 2330 buy one tick-band below the bid: it rests. */
async function restingBuy(gw: Gateway, quantity = 1): Promise<StockTrade> {
  const { bid } = await quote(gw, '2330');
  const trade = await place(gw, { contract: { code: '2330' }, stock_order: stockOrder({ price: bid - 10, quantity }) });
  assert.equal(trade.status.status, 'Submitted', JSON.stringify(trade.status));
  return trade as StockTrade;
}

const STATUS_KEYS = [
  'cancel_quantity',
  'deal_quantity',
  'deals',
  'id',
  'modified_price',
  'modified_ts',
  'msg',
  'order_quantity',
  'order_ts',
  'status',
  'status_code',
  'web_id',
];
const ORDER_KEYS = [
  'account',
  'action',
  'ca',
  'custom_field',
  'id',
  'order_type',
  'ordno',
  'price',
  'price_type',
  'quantity',
  'seqno',
  'time_in_force',
];

describe('place_order', () => {
  test('a stock LMT buy at the best ask fills: the Trade JSON of §6.1, deals on the tick grid', async () => {
    const gw = await gateway();
    const { ask } = await quote(gw, '2330');
    const { stock } = await accounts(gw);
    const trade = (await place(gw, {
      contract: { code: '2330' },
      stock_order: stockOrder({ price: ask, quantity: 2 }),
    })) as StockTrade;

    assert.deepEqual(Object.keys(trade).sort(), ['contract', 'order', 'status']);
    assert.deepEqual(trade.contract, { security_type: 'STK', exchange: 'TSE', code: '2330', target_code: null });
    assert.deepEqual(Object.keys(trade.order).sort(), [...ORDER_KEYS, 'order_cond', 'order_lot'].sort());
    assert.match(trade.order.id, /^[0-9a-f]{8}$/);
    assert.ok(trade.order.seqno !== '' && trade.order.ordno !== '');
    assert.deepEqual(
      { ...trade.order, id: '', seqno: '', ordno: '' },
      {
        id: '',
        seqno: '',
        ordno: '',
        action: 'Buy',
        price: ask,
        quantity: 2,
        time_in_force: 'ROD',
        order_type: 'ROD',
        price_type: 'LMT',
        order_cond: 'Cash',
        order_lot: 'Common',
        custom_field: '',
        account: stock,
        ca: '',
      },
    );

    const { status } = trade;
    assert.deepEqual(Object.keys(status).sort(), STATUS_KEYS);
    assert.equal(status.id, trade.order.id);
    assert.ok(['Filled', 'PartFilled'].includes(status.status), status.status);
    assert.equal(status.order_ts, MONDAY_MORNING / 1000);
    assert.ok(status.modified_ts >= status.order_ts);
    assert.equal(status.order_quantity, 2);
    assert.equal(status.cancel_quantity, 0);
    assert.equal(typeof status.msg, 'string');
    assert.ok(status.deals.length > 0);
    status.deals.forEach((deal, i) => {
      assert.deepEqual(Object.keys(deal).sort(), ['price', 'quantity', 'seq', 'ts']);
      assert.equal(deal.seq, String(i + 1).padStart(6, '0'));
      assert.ok(isOnTickGrid(STOCK_TICKS, deal.price), `deal price ${deal.price} is on the grid`);
      assert.ok(deal.price <= ask, `a buy limited at ${ask} never pays ${deal.price}`);
      assert.ok(Number.isInteger(deal.quantity) && deal.quantity > 0);
      assert.equal(typeof deal.ts, 'number');
    });
    assert.equal(
      status.deal_quantity,
      status.deals.reduce((sum, d) => sum + d.quantity, 0),
    );
    if (status.status === 'Filled') assert.equal(status.deal_quantity, 2);
  });

  test('a buy below the bid rests: Submitted, nothing filled, the full quantity live', async () => {
    const gw = await gateway();
    const trade = await restingBuy(gw, 2);
    assert.equal(trade.status.deal_quantity, 0);
    assert.deepEqual(trade.status.deals, []);
    assert.equal(trade.status.order_quantity, 2);
    assert.equal(trade.status.cancel_quantity, 0);
    const listed = (await gw.post(`${ORDER}/trades`, {})).body as Trade[];
    assert.equal(listed.find((t) => t.order.id === trade.order.id)?.status.status, 'Submitted');
  });

  test('{code} alone resolves the contract; the full identity works as well, a wrong exchange is 404', async () => {
    const gw = await gateway();
    const { bid } = await quote(gw, '2330');
    const order = stockOrder({ price: bid - 10 });
    const full = await place(gw, {
      contract: { security_type: 'STK', exchange: 'TSE', code: '2330' },
      stock_order: order,
    });
    assert.deepEqual(full.contract, { security_type: 'STK', exchange: 'TSE', code: '2330', target_code: null });
    const wrong = await gw.post(`${ORDER}/place_order`, {
      contract: { exchange: 'OTC', code: '2330' },
      stock_order: order,
    });
    assertEnvelope(wrong, 404, /2330/);
  });

  test('a futures order on TXFR1 names the real month in contract.code and target_code', async () => {
    const gw = await gateway();
    const { futures } = await accounts(gw);
    const alias = (await gw.get('/api/v1/data/contracts/TXFR1')).body;
    assert.match(alias.target_code, /^TXF[A-L]\d$/);
    const { bid } = await quote(gw, 'TXFR1');
    const trade = (await place(gw, {
      contract: { code: 'TXFR1' },
      futures_order: futuresOrder({ price: bid - 10, octype: 'NewPosition', custom_field: 'abc123' }),
    })) as FuturesTrade;
    assert.deepEqual(trade.contract, {
      security_type: 'FUT',
      exchange: 'TAIFEX',
      code: alias.target_code,
      target_code: alias.target_code,
    });
    assert.deepEqual(Object.keys(trade.order).sort(), [...ORDER_KEYS, 'octype'].sort());
    assert.equal(trade.order.octype, 'New');
    assert.equal(trade.order.custom_field, 'abc123');
    assert.deepEqual(trade.order.account, futures);
    assert.equal(trade.status.status, 'Submitted');
    assert.deepEqual(Object.keys(trade.status).sort(), STATUS_KEYS);
  });

  test('MKT with ROD on a futures contract is HTTP 200 with a Failed trade and the reason', async () => {
    const gw = await gateway();
    const trade = await place(gw, {
      contract: { code: 'TXFR1' },
      futures_order: futuresOrder({ price: 0, price_type: 'MKT', order_type: 'ROD' }),
    });
    assert.equal(trade.status.status, 'Failed');
    assert.equal(trade.status.msg, '當日市價單不允許當日有效委託(ROD)');
    assert.equal(trade.status.status_code, '9938');
    assert.equal(trade.status.deal_quantity, 0);
    assert.deepEqual(trade.status.deals, []);
  });

  test('a price off the tick grid is a Failed trade with the exchange message', async () => {
    const gw = await gateway();
    const { bid } = await quote(gw, '2330');
    const trade = await place(gw, { contract: { code: '2330' }, stock_order: stockOrder({ price: bid - 10 + 0.5 }) });
    assert.equal(trade.status.status, 'Failed');
    assert.equal(trade.status.msg, '價格檔數錯誤');
    assert.equal(trade.status.order_quantity, 0);
    // a failed order is listed like any other
    const listed = (await gw.post(`${ORDER}/trades`, {})).body as Trade[];
    assert.deepEqual(
      listed.map((t) => [t.order.id, t.status.status]),
      [[trade.order.id, 'Failed']],
    );
  });

  test('an order breaking four rules: the first in status_code and msg, all four in status.violations', async () => {
    const gw = await gateway();
    const events: unknown[] = [];
    gw.gateway.orderEvents.listen(({ event }) => events.push(event));
    const info = (await gw.get(contractInfoPath('2330'))).body;
    const order = stockOrder({ price: info.limit_up + 0.5, quantity: MAX_LOTS_PER_ORDER + 1 });
    const trade = await place(gw, { contract: { code: '2330' }, stock_order: order });
    assert.equal(trade.status.status, 'Failed');
    const violations = trade.status.violations ?? [];
    assert.deepEqual(
      violations.map((found) => [found.rule, found.op_code]),
      [
        ['stockQuantity', '99'],
        ['priceOnTickGrid', '99'],
        ['priceWithinLimits', '99'],
        ['cashSufficient', '99'],
      ],
    );
    assert.equal(trade.status.msg, violations[0]!.msg);
    assert.match(trade.status.msg, /quantity must be 1 to 499 lots per order, got 500/);
    assert.equal(trade.status.status_code, '99');
    assert.deepEqual(
      violations.slice(1).map((found) => found.msg.replace(/NT\$[\d,]+\b/g, 'NT$n')),
      ['價格檔數錯誤', '價格超過漲跌幅範圍', 'insufficient cash: the order needs NT$n, available NT$n'],
    );
    // the order event names the first rule only, as Shioaji's does
    const operation = (events as { data: { StockOrder: { operation: Json } } }[])[0]?.data.StockOrder.operation;
    assert.deepEqual(operation, { op_type: 'New', op_code: '99', op_msg: trade.status.msg });
    const listed = (await gw.post(`${ORDER}/trades`, {})).body as Trade[];
    assert.deepEqual(listed[0]?.status.violations, violations);
    // cancelling the failed order answers the cancel in msg; the violations listed are the cancel's, not the order's
    const cancel = await gw.post(`${ORDER}/cancel_order`, { trade_id: trade.order.id });
    assert.equal(cancel.body.status.msg, '該筆委託無法處理，原委託有異常狀況！');
    assert.deepEqual(cancel.body.status.violations, [
      { rule: 'orderStillWorking', op_code: '99', msg: cancel.body.status.msg },
    ]);
  });

  test('a futures MKT ROD that covers more than is held: op_code 9938 first, the cover rule listed too', async () => {
    const gw = await gateway();
    const order = futuresOrder({ price: 0, price_type: 'MKT', order_type: 'ROD', octype: 'Cover', quantity: 2 });
    const trade = await place(gw, { contract: { code: 'TXFR1' }, futures_order: order });
    assert.equal(trade.status.status_code, '9938');
    assert.equal(trade.status.msg, '當日市價單不允許當日有效委託(ROD)');
    assert.deepEqual(
      trade.status.violations?.map((found) => [found.op_code, found.msg]),
      [
        ['9938', trade.status.msg],
        ['99', 'Cover closes at most the 0 contracts held on the other side, got quantity 2'],
      ],
    );
  });

  test('an accepted order carries no violations', async () => {
    const trade = await restingBuy(await gateway());
    assert.equal(trade.status.violations, undefined);
  });
});

describe('place_order: malformed requests', () => {
  test('both stock_order and futures_order, or neither, is a 400 naming them', async () => {
    const gw = await gateway();
    const order = stockOrder({ price: 1000 });
    const both = await gw.post(`${ORDER}/place_order`, {
      contract: { code: '2330' },
      stock_order: order,
      futures_order: order,
    });
    assertEnvelope(both, 400, /stock_order.*futures_order.*not both/);
    const neither = await gw.post(`${ORDER}/place_order`, { contract: { code: '2330' } });
    assertEnvelope(neither, 400, /stock_order.*futures_order.*neither/);
    assert.deepEqual((await gw.post(`${ORDER}/trades`, {})).body, []);
  });

  test('a stock_order on a futures contract is a 400 asking for futures_order', async () => {
    const gw = await gateway();
    const response = await gw.post(`${ORDER}/place_order`, {
      contract: { code: 'TXFR1' },
      stock_order: stockOrder({ price: 20000 }),
    });
    assertEnvelope(response, 400, /futures_order/);
  });

  test('an unknown code is a 404 naming it', async () => {
    const gw = await gateway();
    const response = await gw.post(`${ORDER}/place_order`, {
      contract: { code: 'NOPE99' },
      stock_order: stockOrder({ price: 10 }),
    });
    assertEnvelope(response, 404, /NOPE99/);
  });

  test('a wrong enum, a negative price and a zero quantity are 422 with every violation located', async () => {
    const gw = await gateway();
    const response = await gw.post(`${ORDER}/place_order`, {
      contract: { code: '2330' },
      stock_order: stockOrder({ action: 'buy', price: -1, quantity: 0, order_lot: 'Board' }),
    });
    assertEnvelope(response, 422, /4 problems/);
    const byLoc = Object.fromEntries(
      (response.body.details as { loc: unknown[]; msg: string; type: string }[]).map((d) => [d.loc.join('.'), d]),
    );
    assert.deepEqual(Object.keys(byLoc).sort(), [
      'body.stock_order.action',
      'body.stock_order.order_lot',
      'body.stock_order.price',
      'body.stock_order.quantity',
    ]);
    assert.deepEqual(byLoc['body.stock_order.action'], {
      loc: ['body', 'stock_order', 'action'],
      msg: 'must be one of "Buy", "Sell"',
      type: 'enum',
    });
    assert.match(byLoc['body.stock_order.order_lot']!.msg, /IntradayOdd/);
    assert.equal(byLoc['body.stock_order.price']!.type, 'minimum');
    assert.equal(byLoc['body.stock_order.quantity']!.type, 'minimum');
  });

  test('octype on a stock order and order_lot on a futures order are unknown fields', async () => {
    const gw = await gateway();
    const stock = await gw.post(`${ORDER}/place_order`, {
      contract: { code: '2330' },
      stock_order: stockOrder({ price: 1000, octype: 'Auto' }),
    });
    assertEnvelope(stock, 422);
    assert.deepEqual(stock.body.details, [
      { loc: ['body', 'stock_order', 'octype'], msg: 'unknown field', type: 'extra_forbidden' },
    ]);
    const futures = await gw.post(`${ORDER}/place_order`, {
      contract: { code: 'TXFR1' },
      futures_order: futuresOrder({ price: 20000, order_lot: 'Common' }),
    });
    assertEnvelope(futures, 422);
    assert.deepEqual(futures.body.details[0].loc, ['body', 'futures_order', 'order_lot']);
  });

  test('custom_field of 7 characters, or with other than letters and digits, is 422 naming it', async () => {
    const gw = await gateway();
    const long = await gw.post(`${ORDER}/place_order`, {
      contract: { code: '2330' },
      stock_order: stockOrder({ price: 1000, custom_field: 'ABCDEFG' }),
    });
    assertEnvelope(long, 422, /custom_field must NOT have more than 6 characters/);
    const symbols = await gw.post(`${ORDER}/place_order`, {
      contract: { code: '2330' },
      stock_order: stockOrder({ price: 1000, custom_field: 'a-b' }),
    });
    assertEnvelope(symbols, 422, /custom_field/);
    assert.deepEqual((await gw.post(`${ORDER}/trades`, {})).body, []);
  });

  test('the account may be an Account object as /auth/accounts gives it; a stock order on F is 400', async () => {
    const gw = await gateway();
    const { stock, futures } = await accounts(gw);
    const { bid } = await quote(gw, '2330');
    const trade = await place(gw, {
      contract: { code: '2330' },
      stock_order: stockOrder({ price: bid - 10, account: stock }),
    });
    assert.deepEqual(trade.order.account, stock);
    const wrong = await gw.post(`${ORDER}/place_order`, {
      contract: { code: '2330' },
      stock_order: stockOrder({ price: bid - 10, account: futures }),
    });
    assertEnvelope(wrong, 400, /S account/);
  });
});

describe('cancel and updates', () => {
  test('cancel a resting order: Cancelled with the remainder in cancel_quantity', async () => {
    const gw = await gateway();
    const trade = await restingBuy(gw, 2);
    const response = await gw.post(`${ORDER}/cancel_order`, { trade_id: trade.order.id });
    assert.equal(response.status, 200);
    const cancelled = response.body as Trade;
    assert.equal(cancelled.order.id, trade.order.id);
    assert.equal(cancelled.status.status, 'Cancelled');
    assert.equal(cancelled.status.cancel_quantity, 2);
    assert.equal(cancelled.status.order_quantity, 0);
    assert.equal(cancelled.status.deal_quantity, 0);
    const listed = (await gw.post(`${ORDER}/trades`, {})).body as Trade[];
    assert.equal(listed[0]?.status.status, 'Cancelled');
  });

  test('cancel an unknown trade id is a 404 naming it; a missing trade_id is 422', async () => {
    const gw = await gateway();
    assertEnvelope(await gw.post(`${ORDER}/cancel_order`, { trade_id: 'deadbeef' }), 404, /deadbeef/);
    const missing = await gw.post(`${ORDER}/cancel_order`, {});
    assertEnvelope(missing, 422);
    assert.deepEqual(missing.body.details, [{ loc: ['body', 'trade_id'], msg: 'field required', type: 'missing' }]);
  });

  test('cancelling twice answers the cancelled trade with the reason, not an error', async () => {
    const gw = await gateway();
    const trade = await restingBuy(gw);
    await gw.post(`${ORDER}/cancel_order`, { trade_id: trade.order.id });
    const again = await gw.post(`${ORDER}/cancel_order`, { trade_id: trade.order.id });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.order.id, trade.order.id);
    assert.equal(again.body.status.status, 'Cancelled');
    assert.equal(again.body.status.cancel_quantity, 1);
    assert.equal(again.body.status.msg, '委託數量已完全刪除');
  });

  test('update_qty reduces by the quantity: the order keeps its price and stays Submitted', async () => {
    const gw = await gateway();
    const trade = await restingBuy(gw, 3);
    const response = await gw.post(`${ORDER}/update_qty`, { trade_id: trade.order.id, quantity: 1 });
    assert.equal(response.status, 200);
    const reduced = response.body as Trade;
    assert.equal(reduced.status.status, 'Submitted');
    assert.equal(reduced.order.quantity, 3);
    assert.equal(reduced.order.price, trade.order.price);
    assert.equal(reduced.status.order_quantity, 2);
    assert.equal(reduced.status.cancel_quantity, 1);
    const tooMany = await gw.post(`${ORDER}/update_qty`, { trade_id: trade.order.id, quantity: 5 });
    assert.equal(tooMany.status, 200);
    assert.match(tooMany.body.status.msg, /from 1 to 2/);
    assert.deepEqual(
      tooMany.body.status.violations.map((found: Json) => [found.rule, found.msg]),
      [['reductionWithinOpen', tooMany.body.status.msg]],
    );
    assert.equal(tooMany.body.status.order_quantity, 2);
    assertEnvelope(await gw.post(`${ORDER}/update_qty`, { trade_id: trade.order.id, quantity: 0 }), 422);
  });

  test('update_price changes order.price and modified_price', async () => {
    const gw = await gateway();
    const trade = await restingBuy(gw);
    const price = trade.order.price - 5;
    const response = await gw.post(`${ORDER}/update_price`, { trade_id: trade.order.id, price });
    assert.equal(response.status, 200);
    assert.equal(response.body.order.price, price);
    assert.equal(response.body.status.modified_price, price);
    assert.equal(response.body.status.status, 'Submitted');
    const listed = (await gw.post(`${ORDER}/trades`, {})).body as Trade[];
    assert.equal(listed[0]?.order.price, price);
    const offGrid = await gw.post(`${ORDER}/update_price`, { trade_id: trade.order.id, price: price + 0.5 });
    assert.equal(offGrid.status, 200);
    assert.equal(offGrid.body.status.msg, '價格檔數錯誤');
    assert.equal(offGrid.body.order.price, price);
  });

  test('update_price past the limit up and off the grid: both rules in status.violations, the order unchanged', async () => {
    const gw = await gateway();
    const events: unknown[] = [];
    gw.gateway.orderEvents.listen(({ event }) => events.push(event));
    const trade = await restingBuy(gw);
    const info = (await gw.get(contractInfoPath('2330'))).body;
    const response = await gw.post(`${ORDER}/update_price`, { trade_id: trade.order.id, price: info.limit_up + 0.5 });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const { status, order } = response.body as Trade;
    assert.deepEqual(
      status.violations?.map((found) => [found.rule, found.op_code, found.msg]),
      [
        ['priceOnTickGrid', '99', '價格檔數錯誤'],
        ['priceWithinLimits', '99', '價格超過漲跌幅範圍'],
      ],
    );
    assert.equal(status.msg, '價格檔數錯誤');
    assert.equal(status.status, 'Submitted');
    assert.equal(order.price, trade.order.price);
    // the order event names the first rule only, as Shioaji's does; the order itself keeps no violations
    const operation = (events as { data: { StockOrder: { operation: Json } } }[]).at(-1)?.data.StockOrder.operation;
    assert.deepEqual(operation, { op_type: 'UpdatePrice', op_code: '99', op_msg: '價格檔數錯誤' });
    const listed = (await gw.post(`${ORDER}/trades`, {})).body as Trade[];
    assert.equal(listed[0]?.status.violations, undefined);
    assertEnvelope(await gw.post(`${ORDER}/update_price`, { trade_id: trade.order.id, price: 'high' }), 422);
    assertEnvelope(await gw.post(`${ORDER}/update_price`, { trade_id: 'deadbeef', price: 1000 }), 404, /deadbeef/);
  });
});

describe('trades and update_status', () => {
  test('list the trades of both accounts, oldest first; account_type, flat and nested selectors filter', async () => {
    const gw = await gateway();
    const { stock, futures } = await accounts(gw);
    const first = await restingBuy(gw);
    const { bid } = await quote(gw, 'TXFR1');
    const second = await place(gw, { contract: { code: 'TXFR1' }, futures_order: futuresOrder({ price: bid - 10 }) });
    const ids = (response: Reply) => {
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return (response.body as Trade[]).map((t) => t.order.id);
    };
    assert.deepEqual(ids(await gw.post(`${ORDER}/trades`, {})), [first.order.id, second.order.id]);
    assert.deepEqual(ids(await gw.post(`${ORDER}/trades`)), [first.order.id, second.order.id]);
    assert.deepEqual(ids(await gw.post(`${ORDER}/trades`, { account_type: 'S' })), [first.order.id]);
    assert.deepEqual(ids(await gw.post(`${ORDER}/trades`, { account_type: 'F' })), [second.order.id]);
    const flat = { broker_id: futures.broker_id, account_id: futures.account_id };
    assert.deepEqual(ids(await gw.post(`${ORDER}/trades`, flat)), [second.order.id]);
    assert.deepEqual(ids(await gw.post(`${ORDER}/update_status`, { account: flat })), [second.order.id]);
    assert.deepEqual(ids(await gw.post(`${ORDER}/update_status`, { account: stock })), [first.order.id]);
    assert.deepEqual(ids(await gw.post(`${ORDER}/update_status`, {})), [first.order.id, second.order.id]);
    const trades = (await gw.post(`${ORDER}/update_status`, { account_type: 'F' })).body as Trade[];
    assert.deepEqual(trades, [second]);
  });

  test('an unknown account is 404, a half-named one 400, an unknown field 422', async () => {
    const gw = await gateway();
    assertEnvelope(await gw.post(`${ORDER}/trades`, { broker_id: '9A95', account_id: '0000000' }), 404, /0000000/);
    assertEnvelope(await gw.post(`${ORDER}/trades`, { account: { broker_id: '9A95' } }), 400, /account_id/);
    const both = await gw.post(`${ORDER}/update_status`, {
      broker_id: '9A95',
      account: { broker_id: '9A95', account_id: '1' },
    });
    assertEnvelope(both, 400, /flat or under "account"/);
    const extra = await gw.post(`${ORDER}/trades`, { accounts: 'S' });
    assertEnvelope(extra, 422);
    assert.deepEqual(extra.body.details[0].loc, ['body', 'accounts']);
  });
});

describe('Idempotency-Key and timeout', () => {
  test('a retry with the same Idempotency-Key returns the first trade and places nothing more', async () => {
    const gw = await gateway();
    const { bid } = await quote(gw, '2330');
    const body = { contract: { code: '2330' }, stock_order: stockOrder({ price: bid - 10 }) };
    const headers = { 'idempotency-key': 'retry-7f3a:1' };
    const first = await place(gw, body, headers);
    const retry = await place(gw, body, headers);
    assert.equal(retry.order.id, first.order.id);
    assert.deepEqual(retry, first);
    const other = await place(gw, body, { 'idempotency-key': 'retry-7f3a:2' });
    assert.notEqual(other.order.id, first.order.id);
    const listed = (await gw.post(`${ORDER}/trades`, {})).body as Trade[];
    assert.deepEqual(
      listed.map((t) => t.order.id),
      [first.order.id, other.order.id],
    );
  });

  test('concurrent retries with one key, before the first is written, still place one order', async () => {
    const gw = await gateway();
    const { bid } = await quote(gw, '2330');
    const body = { contract: { code: '2330' }, stock_order: stockOrder({ price: bid - 10 }) };
    const headers = { 'idempotency-key': 'burst-1' };
    const answers = await Promise.all([1, 2, 3].map(() => place(gw, body, headers)));
    assert.deepEqual(new Set(answers.map((t) => t.order.id)).size, 1);
    assert.equal(((await gw.post(`${ORDER}/trades`, {})).body as Trade[]).length, 1);
  });

  test('a key reused for a different order is a 422; a retry after an update_price still gets the first trade', async () => {
    const gw = await gateway();
    const { bid } = await quote(gw, '2330');
    const body = { contract: { code: '2330' }, stock_order: stockOrder({ price: bid - 10 }) };
    const headers = { 'idempotency-key': 'strategy-a:42' };
    const first = await place(gw, body, headers);
    const changed = { ...body, stock_order: stockOrder({ price: bid - 15 }) };
    assertEnvelope(await gw.post(`${ORDER}/place_order`, changed, headers), 422, new RegExp(first.order.id));
    const otherCode = { contract: { code: '2317' }, stock_order: body.stock_order };
    assertEnvelope(await gw.post(`${ORDER}/place_order`, otherCode, headers), 422, /different order/);
    await gw.post(`${ORDER}/update_price`, { trade_id: first.order.id, price: bid - 5 });
    const retry = await place(gw, body, headers);
    assert.equal(retry.order.id, first.order.id);
    assert.equal(retry.order.price, bid - 5);
    assert.equal(((await gw.post(`${ORDER}/trades`, {})).body as Trade[]).length, 1);
  });

  test('an Idempotency-Key that is empty, too long or not visible ASCII is a 400', async () => {
    const gw = await gateway();
    const body = { contract: { code: '2330' }, stock_order: stockOrder({ price: 1000 }) };
    for (const key of ['', 'x'.repeat(129), 'two words', 'kéy']) {
      const response = await gw.post(`${ORDER}/place_order`, body, { 'idempotency-key': key });
      assertEnvelope(response, 400, /Idempotency-Key/);
    }
    assert.deepEqual((await gw.post(`${ORDER}/trades`, {})).body, []);
    assert.equal((await gw.post(`${ORDER}/place_order`, body, { 'idempotency-key': 'x'.repeat(128) })).status, 200);
  });

  test('timeout 0 answers at once: status Inactive, empty ids; the listing has the real trade', async () => {
    const gw = await gateway();
    const { bid } = await quote(gw, '2330');
    const trade = await place(gw, {
      contract: { code: '2330' },
      stock_order: stockOrder({ price: bid - 10 }),
      timeout: 0,
    });
    assert.equal(trade.status.status, 'Inactive');
    assert.equal(trade.order.id, '');
    assert.equal(trade.order.seqno, '');
    assert.equal(trade.order.ordno, '');
    assert.equal(trade.status.id, '');
    assert.deepEqual(trade.status.deals, []);
    assert.equal(trade.contract.code, '2330');
    assert.equal(trade.order.price, bid - 10);
    const listed = (await gw.post(`${ORDER}/trades`, {})).body as Trade[];
    assert.equal(listed.length, 1);
    assert.match(listed[0]!.order.id, /^[0-9a-f]{8}$/);
    assert.equal(listed[0]!.status.status, 'Submitted');
    assertEnvelope(
      await gw.post(`${ORDER}/place_order`, {
        contract: { code: '2330' },
        stock_order: stockOrder({ price: 1000 }),
        timeout: -1,
      }),
      422,
      /timeout/,
    );
  });
});

describe('the orders call-rate group', () => {
  test('over 250 order calls in 10 s are refused with 429 and Retry-After', async () => {
    const gw = await gateway(true);
    for (let i = 0; i < 250; i++) {
      const response = await gw.post(`${ORDER}/cancel_order`, { trade_id: `missing${i}` });
      assert.equal(response.status, 404);
    }
    const refused = await gw.app.inject({ method: 'POST', url: `${ORDER}/trades`, payload: {} });
    assert.equal(refused.statusCode, 429);
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assert.match(refused.json().message, /orders: over 250 calls per 10 seconds/);
  });
});

describe('combo orders', () => {
  /** The nearest TXF calendar spread, its legs as the exchange orders them (near, far), and its net quote. */
  async function spread(gw: Gateway) {
    const combos = (await gw.get('/api/v1/data/contracts/combo/futures?root=TXF')).body;
    const legs = combos[0].legs.map((leg: Json) => ({ security_type: 'FUT', exchange: 'TAIFEX', code: leg.code }));
    const [snapshot] = (await gw.post('/api/v1/data/snapshots', { contracts: [{ legs }] })).body;
    return { legs, near: legs[0].code as string, far: legs[1].code as string, snapshot };
  }

  const comboOrder = (fields: Json) => ({
    action: 'Buy',
    price_type: 'LMT',
    order_type: 'IOC',
    quantity: 1,
    ...fields,
  });

  test('combo_type null, in the combo contract or in the order, means not given: it is derived from the legs', async () => {
    const gw = await gateway();
    const { legs, snapshot } = await spread(gw);
    const nulls = await gw.post('/api/v1/data/snapshots', { contracts: [{ legs, combo_type: null }] });
    assert.equal(nulls.status, 200, JSON.stringify(nulls.body));
    assert.equal(nulls.body[0].sell_price, snapshot.sell_price);
    const created = await gw.post('/api/v1/data/contracts/combo', { legs, combo_type: null });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.combo_type, 'TimeSpread');
    const placed = await gw.post(`${ORDER}/place_comboorder`, {
      combo_contract: { legs, combo_type: null },
      order: comboOrder({ price: snapshot.sell_price, combo_type: null }),
    });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    assert.equal(placed.body.order.combo_type, 'TimeSpread');
    assert.equal(placed.body.status.status, 'Filled', placed.body.status.msg);
    const wrong = await gw.post(`${ORDER}/place_comboorder`, {
      combo_contract: { legs, combo_type: 'Straddle' },
      order: comboOrder({ price: snapshot.sell_price }),
    });
    assert.equal(wrong.status, 400, 'a combo_type that does not fit the legs is still refused');
  });

  test('a bought spread fills both legs at once: buy the far month, sell the near, at the net price', async () => {
    const gw = await gateway();
    const { legs, near, far, snapshot } = await spread(gw);
    const response = await gw.post(`${ORDER}/place_comboorder`, {
      combo_contract: { legs },
      order: comboOrder({ price: snapshot.sell_price }),
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const trade = response.body;
    assert.equal(trade.status.status, 'Filled', trade.status.msg);
    assert.deepEqual(
      trade.contract.legs.map((leg: Json) => [leg.code, leg.action]),
      [
        [near, 'Sell'],
        [far, 'Buy'],
      ],
    );
    assert.equal(trade.order.combo_type, 'TimeSpread');
    const [nearDeal] = trade.status.deals[near];
    const [farDeal] = trade.status.deals[far];
    assert.equal(farDeal.price - nearDeal.price, snapshot.sell_price);
    assert.equal(nearDeal.quantity, 1);
    assert.equal(farDeal.ts, nearDeal.ts);
    const events = gw.gateway.orderEvents.after(0).map((e) => e.event);
    const deals = events.filter((e) => e.state === 'FuturesDeal');
    assert.deepEqual(
      deals.map((e) => [e.data.FuturesDeal.full_code, e.data.FuturesDeal.action, e.data.FuturesDeal.combo]),
      [
        [near, 'Sell', true],
        [far, 'Buy', true],
      ],
    );
    const listed = (await gw.post(`${ORDER}/combotrades`, {})).body;
    assert.deepEqual(listed, [trade]);
    assert.deepEqual((await gw.post(`${ORDER}/trades`, {})).body, []);
  });

  test('legacy legs with actions give the direction; a resting combo can be cancelled', async () => {
    const gw = await gateway();
    const { legs, near, snapshot } = await spread(gw);
    const sold = legs.map((leg: Json) => ({ ...leg, action: leg.code === near ? 'Buy' : 'Sell' }));
    const response = await gw.post(`${ORDER}/place_comboorder`, {
      combo_contract: { legs: sold },
      order: comboOrder({ order_type: 'ROD', price: snapshot.sell_price + 50 }),
    });
    const trade = response.body;
    assert.equal(trade.order.action, 'Sell');
    assert.equal(trade.status.status, 'Submitted', trade.status.msg);
    assert.deepEqual(trade.status.deals, {});
    const cancelled = (await gw.post(`${ORDER}/cancel_comboorder`, { trade_id: trade.order.id })).body;
    assert.equal(cancelled.status.status, 'Cancelled');
    assert.equal(cancelled.status.cancel_quantity, 1);
    const again = (await gw.post(`${ORDER}/cancel_comboorder`, { trade_id: trade.order.id })).body;
    assert.equal(
      again.status.msg,
      '委託數量已完全刪除',
      'a cancelled combo says it was cancelled, as a single order does',
    );
    assert.equal(again.status.status, 'Cancelled');
  });

  test('bad combos: mixed leg actions, legs of a combo that is not, three legs, unknown trade id', async () => {
    const gw = await gateway();
    const { legs, snapshot } = await spread(gw);
    const order = comboOrder({ price: snapshot.sell_price });
    const mixed = [{ ...legs[0], action: 'Buy' }, legs[1]];
    assertEnvelope(
      await gw.post(`${ORDER}/place_comboorder`, { combo_contract: { legs: mixed }, order }),
      400,
      /not a mix/,
    );
    const bothBought = legs.map((leg: Json) => ({ ...leg, action: 'Buy' }));
    assertEnvelope(
      await gw.post(`${ORDER}/place_comboorder`, { combo_contract: { legs: bothBought }, order }),
      400,
      /do not make a TimeSpread/,
    );
    const three = [...legs, legs[0]];
    assertEnvelope(
      await gw.post(`${ORDER}/place_comboorder`, { combo_contract: { legs: three }, order }),
      400,
      /2 legs/,
    );
    assertEnvelope(await gw.post(`${ORDER}/cancel_comboorder`, { trade_id: 'nope' }), 404, /nope/);
    const badAction = await gw.post(`${ORDER}/place_comboorder`, {
      combo_contract: { legs },
      order: { ...order, action: 'Hold' },
    });
    assertEnvelope(badAction, 422);
  });

  test('an option combo with ROD fails with op_code 9927', async () => {
    const gw = await gateway();
    const [call] = gw.broker.contracts.options({ root: 'TXO', optionRight: 'C' });
    const put = gw.broker.contracts
      .options({ root: 'TXO', optionRight: 'P' })
      .find((o) => o.strike_price === call!.strike_price && o.delivery_month === call!.delivery_month)!;
    const legs = [call!, put].map((o) => ({ security_type: 'OPT', exchange: 'TAIFEX', code: o.code }));
    const response = await gw.post(`${ORDER}/place_comboorder`, {
      combo_contract: { legs },
      order: comboOrder({ order_type: 'ROD', price: 100, combo_type: 'Straddle' }),
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.status.status, 'Failed');
    assert.equal(response.body.status.status_code, '9927');
    assert.equal(response.body.order.combo_type, 'Straddle');
  });
});
