// How SinoPac's order and deal reports move the gateway's view of a live order, and what a read-back after a dropped
// session reports: every fill once, never twice.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  answerEvents,
  applyDealEvent,
  applyOrderEvent,
  catchUp,
  consumeEcho,
  type DealBody,
  type OrderBody,
  type TrackedOrder,
} from '../../../src/broker/shioaji/order-tracking.js';
import { blankStatus, type StockTrade } from '../../../src/domain/orders.js';

const account = {
  account_type: 'S' as const,
  person_id: 'A123456789',
  broker_id: '9A95',
  account_id: '1234567',
  signed: true,
  username: 'trader',
};

function placed(): TrackedOrder {
  const trade: StockTrade = {
    contract: { security_type: 'STK', exchange: 'TSE', code: '2330', target_code: null },
    order: {
      id: 'ab12',
      seqno: '000001',
      ordno: '',
      action: 'Buy',
      price: 1000,
      quantity: 3,
      time_in_force: 'ROD',
      order_type: 'ROD',
      custom_field: '',
      account,
      ca: '',
      price_type: 'LMT',
      order_cond: 'Cash',
      order_lot: 'Common',
    },
    status: blankStatus('ab12', 'PendingSubmit', 1_790_000_000),
  };
  return { trade, dealKeys: [], accountKey: '9A95-1234567', placedAt: 1_790_000_000_000 };
}

function orderReport(
  opType: 'New' | 'Cancel',
  quantities: { order: number; cancel: number },
  opCode = '00',
): OrderBody {
  return {
    operation: { op_type: opType, op_code: opCode, op_msg: opCode === '00' ? '' : '價格超過漲跌停' },
    order: { id: 'ab12', seqno: '000001', ordno: 'W0001', account } as OrderBody['order'],
    status: {
      id: 'ab12',
      exchange_ts: 1_790_000_001,
      modified_price: 0,
      cancel_quantity: quantities.cancel,
      order_quantity: quantities.order,
      web_id: '137',
    },
    contract: {
      security_type: 'STK',
      exchange: 'TSE',
      code: '2330',
      symbol: 'TSE2330',
      name: '台積電',
      currency: 'TWD',
    },
  } as OrderBody;
}

const deal = (quantity: number, ts: number): DealBody =>
  ({ trade_id: 'ab12', price: 1000, quantity, ts, code: '2330', action: 'Buy' }) as DealBody;

describe('a live order as SinoPac reports it', () => {
  test('New acknowledges it: the exchange order number, the live quantity, Submitted', () => {
    const order = placed();
    applyOrderEvent(order, orderReport('New', { order: 3, cancel: 0 }));
    assert.equal(order.trade.order.ordno, 'W0001');
    assert.deepEqual(
      [order.trade.status.status, order.trade.status.order_quantity, order.trade.status.web_id],
      ['Submitted', 3, '137'],
    );
  });

  test('a refused New fails the order with the exchange message', () => {
    const order = placed();
    applyOrderEvent(order, orderReport('New', { order: 0, cancel: 0 }, '88'));
    assert.deepEqual([order.trade.status.status, order.trade.status.msg], ['Failed', '價格超過漲跌停']);
  });

  test('deals fill it in order; the same deal reported twice counts once', () => {
    const order = placed();
    applyOrderEvent(order, orderReport('New', { order: 3, cancel: 0 }));
    assert.equal(applyDealEvent(order, deal(1, 1_790_000_002)), true);
    assert.equal(order.trade.status.status, 'PartFilled');
    assert.equal(applyDealEvent(order, deal(2, 1_790_000_003)), true);
    assert.deepEqual(
      order.trade.status.deals.map((d) => [d.seq, d.quantity]),
      [
        ['000001', 1],
        ['000002', 2],
      ],
    );
    assert.deepEqual([order.trade.status.status, order.trade.status.deal_quantity], ['Filled', 3]);
  });

  test('a cancel of the rest after a partial fill ends it Cancelled with the fill kept', () => {
    const order = placed();
    applyOrderEvent(order, orderReport('New', { order: 3, cancel: 0 }));
    applyDealEvent(order, deal(1, 1_790_000_002));
    applyOrderEvent(order, orderReport('Cancel', { order: 1, cancel: 2 }));
    assert.deepEqual(
      [order.trade.status.status, order.trade.status.deal_quantity, order.trade.status.cancel_quantity],
      ['Cancelled', 1, 2],
    );
  });
});

describe('reading an order back after the session was down', () => {
  test('reports each fill it missed as a deal event, once, and a cancel it missed', () => {
    const order = placed();
    applyOrderEvent(order, orderReport('New', { order: 3, cancel: 0 }));
    applyDealEvent(order, deal(1, 1_790_000_002));
    const fresh = structuredClone(order.trade);
    fresh.status.deals.push({ seq: '000002', price: 1000, quantity: 1, ts: 1_790_000_010 });
    fresh.status.deal_quantity = 2;
    fresh.status.cancel_quantity = 1;
    fresh.status.order_quantity = 2;
    fresh.status.status = 'Cancelled';
    const events = catchUp(order, fresh);
    assert.deepEqual(
      events.map((event) => event.state),
      ['StockDeal', 'StockOrder'],
    );
    const [dealEvent, cancelEvent] = events;
    assert.deepEqual(
      dealEvent?.state === 'StockDeal' &&
        (({ trade_id, quantity, ts, order_lot }) => ({ trade_id, quantity, ts, order_lot }))(dealEvent.data.StockDeal),
      { trade_id: 'ab12', quantity: 1, ts: 1_790_000_010, order_lot: 'Common' },
    );
    assert.equal(cancelEvent?.state === 'StockOrder' && cancelEvent.data.StockOrder.operation.op_type, 'Cancel');
    assert.deepEqual([order.trade.status.status, order.trade.status.deal_quantity], ['Cancelled', 2]);
    assert.deepEqual(catchUp(order, structuredClone(fresh)), [], 'a second read-back reports nothing again');
  });

  test('a deal reported live after the read-back already counted it is not counted twice', () => {
    const order = placed();
    applyOrderEvent(order, orderReport('New', { order: 3, cancel: 0 }));
    const fresh = structuredClone(order.trade);
    fresh.status.deals.push({ seq: '000001', price: 1000, quantity: 1, ts: 1_790_000_002 });
    catchUp(order, fresh);
    assert.equal(applyDealEvent(order, deal(1, 1_790_000_002)), false);
    assert.equal(order.trade.status.deal_quantity, 1);
  });
});

describe('a command answered before SinoPac reported it', () => {
  const answered = (order: TrackedOrder, change: Partial<StockTrade['status']>): StockTrade => {
    const trade = structuredClone(order.trade) as StockTrade;
    return { ...trade, order: { ...trade.order, ordno: 'W0001' }, status: { ...trade.status, ...change } };
  };

  test('a New from the answer comes before the fills it holds; the later New event is its echo, applied once', () => {
    const order = placed();
    const fill = { seq: '000001', price: 1000, quantity: 3, ts: 1_790_000_002 };
    const trade = answered(order, { status: 'Filled', order_quantity: 3, deal_quantity: 3, deals: [fill] });
    const events = answerEvents(order, trade, { op_type: 'New', op_code: '00', op_msg: '' });
    assert.deepEqual(
      events.map((e) => e.state),
      ['StockOrder', 'StockDeal'],
    );
    assert.equal(order.trade.status.status, 'Filled');
    assert.equal(consumeEcho(order, orderReport('New', { order: 3, cancel: 0 })), true, 'the New event is the echo');
    assert.equal(order.trade.status.status, 'Filled', 'an echo does not move the order back');
    assert.equal(consumeEcho(order, orderReport('New', { order: 3, cancel: 0 })), false, 'once');
    assert.equal(applyDealEvent(order, deal(3, 1_790_000_002)), false, 'the fill was reported from the answer');
  });

  test('an UpdateQty answered first leaves the live quantity, though the answer counts the cancelled part in it', () => {
    const order = placed();
    const answer = answered(order, { status: 'Submitted', order_quantity: 3, cancel_quantity: 1 });
    const [event] = answerEvents(order, answer, { op_type: 'UpdateQty', op_code: '00', op_msg: '' });
    assert.equal(order.trade.status.order_quantity, 2, 'ordered 3, reduced by 1');
    assert.equal(event?.state === 'StockOrder' && event.data.StockOrder.status.order_quantity, 2, 'the event agrees');
    assert.equal(consumeEcho(order, orderReport('New', { order: 3, cancel: 1 })), false);
    assert.equal(order.trade.status.order_quantity, 2);
  });

  test('an event that is not the operation answered is not taken for its echo', () => {
    const order = placed();
    answerEvents(order, answered(order, { status: 'Submitted', order_quantity: 3 }), {
      op_type: 'New',
      op_code: '00',
      op_msg: '',
    });
    assert.equal(consumeEcho(order, orderReport('Cancel', { order: 3, cancel: 3 })), false);
    assert.equal(consumeEcho(order, orderReport('New', { order: 0, cancel: 0 }, '88')), false);
  });
});
