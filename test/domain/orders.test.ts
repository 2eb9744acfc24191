import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Account } from '../../src/domain/accounts.js';
import { canReach, statusForQuantities } from '../../src/domain/order-states.js';
import {
  ACTIONS,
  type ComboTrade,
  FINAL_ORDER_STATUSES,
  FUTURES_OC_TYPE_INPUTS,
  FUTURES_OC_TYPES,
  FUTURES_PRICE_TYPES,
  futuresOrderRequest,
  isFinalStatus,
  isOddLot,
  isStockOrder,
  isStockTrade,
  isValidCustomField,
  normalizeOcType,
  ORDER_STATES,
  ORDER_STATUSES,
  ORDER_TYPES,
  type OrderStatus,
  openQuantity,
  orderEvent,
  orderEventBody,
  orderShares,
  STOCK_ORDER_CONDS,
  STOCK_ORDER_LOTS,
  STOCK_PRICE_TYPES,
  type StockDealEvent,
  type StockTrade,
  stockOrderRequest,
} from '../../src/domain/orders.js';

const account: Account = {
  account_type: 'S',
  person_id: 'A123456789',
  broker_id: '9A95',
  account_id: '1234567',
  signed: true,
  username: 'sim',
};

describe('order enums', () => {
  it('lists the Shioaji values', () => {
    assert.deepEqual(ACTIONS, ['Buy', 'Sell']);
    assert.deepEqual(STOCK_PRICE_TYPES, ['LMT', 'MKT', 'MKP']);
    assert.deepEqual(FUTURES_PRICE_TYPES, ['LMT', 'MKT', 'MKP']);
    assert.deepEqual(ORDER_TYPES, ['ROD', 'IOC', 'FOK']);
    assert.deepEqual(STOCK_ORDER_LOTS, ['Common', 'BlockTrade', 'Fixing', 'Odd', 'IntradayOdd']);
    assert.deepEqual(STOCK_ORDER_CONDS, [
      'Cash',
      'Netting',
      'MarginTrading',
      'ShortSelling',
      'SBLShort',
      'SBLShortPriceExempt',
      'Emerging',
    ]);
    assert.deepEqual(FUTURES_OC_TYPES, ['Auto', 'New', 'Cover', 'DayTrade']);
    assert.deepEqual(ORDER_STATES, ['StockOrder', 'StockDeal', 'FuturesOrder', 'FuturesDeal']);
    assert.deepEqual([...ORDER_STATUSES].sort(), [
      'Cancelled',
      'Failed',
      'Filled',
      'Inactive',
      'PartFilled',
      'PendingSubmit',
      'PreSubmitted',
      'Submitted',
    ]);
  });

  it('accepts NewPosition as an input alias of New', () => {
    assert.ok(FUTURES_OC_TYPE_INPUTS.includes('NewPosition'));
    assert.equal(normalizeOcType('NewPosition'), 'New');
    assert.equal(normalizeOcType('Cover'), 'Cover');
  });
});

describe('order requests', () => {
  it('fills the stock defaults: Common lot, Cash, no day-trade short, empty custom_field', () => {
    const order = stockOrderRequest({ action: 'Buy', price: 1000, quantity: 1, price_type: 'LMT', order_type: 'ROD' });
    assert.deepEqual(order, {
      action: 'Buy',
      price: 1000,
      quantity: 1,
      price_type: 'LMT',
      order_type: 'ROD',
      order_lot: 'Common',
      order_cond: 'Cash',
      daytrade_short: false,
      custom_field: '',
    });
    assert.ok(isStockOrder(order));
  });

  it('keeps what the client gave', () => {
    const order = stockOrderRequest({
      action: 'Sell',
      price: 999,
      quantity: 5,
      price_type: 'LMT',
      order_type: 'ROD',
      order_lot: 'IntradayOdd',
      daytrade_short: true,
      custom_field: 'memo1',
    });
    assert.equal(order.order_lot, 'IntradayOdd');
    assert.equal(order.daytrade_short, true);
    assert.equal(order.custom_field, 'memo1');
  });

  it('fills the futures defaults and maps NewPosition to New', () => {
    const auto = futuresOrderRequest({ action: 'Buy', price: 0, quantity: 1, price_type: 'MKT', order_type: 'IOC' });
    assert.equal(auto.octype, 'Auto');
    assert.equal(auto.custom_field, '');
    assert.ok(!isStockOrder(auto));
    const opened = futuresOrderRequest({
      action: 'Sell',
      price: 41_000,
      quantity: 2,
      price_type: 'LMT',
      order_type: 'ROD',
      octype: 'NewPosition',
    });
    assert.equal(opened.octype, 'New');
  });

  it('counts stock quantities in lots for board-lot orders and in shares for odd lots', () => {
    assert.equal(orderShares('Common', 2), 2000);
    assert.equal(orderShares('Fixing', 1), 1000);
    assert.equal(orderShares('Odd', 7), 7);
    assert.equal(orderShares('IntradayOdd', 999), 999);
    assert.deepEqual(STOCK_ORDER_LOTS.filter(isOddLot), ['Odd', 'IntradayOdd']);
  });
});

describe('custom_field', () => {
  it('accepts up to 6 ASCII letters or digits, and the empty default', () => {
    for (const value of ['', 'a', 'abc123', 'ABCDEF', '000001']) assert.ok(isValidCustomField(value), value);
  });

  it('refuses more than 6 characters, punctuation, spaces and non-ASCII letters', () => {
    for (const value of ['abcdefg', 'ab-1', 'ab c', '台積', 'ａｂｃ', 'abc\n']) {
      assert.ok(!isValidCustomField(value), JSON.stringify(value));
    }
  });

  it('decides by length and alphabet alone', () => {
    const alnum = fc.constantFrom(...'abcxyzABCXYZ0189'.split(''));
    fc.assert(
      fc.property(fc.array(alnum, { maxLength: 12 }), (chars) => {
        assert.equal(isValidCustomField(chars.join('')), chars.length <= 6);
      }),
    );
  });
});

describe('order status life cycle', () => {
  it('is PendingSubmit before the exchange acknowledged (all quantities 0)', () => {
    assert.equal(statusForQuantities({ order_quantity: 0, deal_quantity: 0, cancel_quantity: 0 }), 'PendingSubmit');
  });

  it('follows the documented samples: Submitted, update_qty, PartFilled, Filled, Cancelled', () => {
    assert.equal(statusForQuantities({ order_quantity: 2, deal_quantity: 0, cancel_quantity: 0 }), 'Submitted');
    // update_qty by 1 on 2: still Submitted, order_quantity 1, cancel_quantity 1.
    assert.equal(statusForQuantities({ order_quantity: 1, deal_quantity: 0, cancel_quantity: 1 }), 'Submitted');
    assert.equal(statusForQuantities({ order_quantity: 2, deal_quantity: 1, cancel_quantity: 0 }), 'PartFilled');
    assert.equal(statusForQuantities({ order_quantity: 2, deal_quantity: 2, cancel_quantity: 0 }), 'Filled');
    // cancel: order_quantity 0, cancel_quantity = the remaining quantity.
    assert.equal(statusForQuantities({ order_quantity: 0, deal_quantity: 0, cancel_quantity: 2 }), 'Cancelled');
  });

  it('tells a filled remainder from a cancelled one when both fills and cancels happened', () => {
    const q = { order_quantity: 1, deal_quantity: 1, cancel_quantity: 1 };
    assert.equal(statusForQuantities(q, 'deal'), 'Filled');
    assert.equal(statusForQuantities(q, 'cancel'), 'Cancelled');
  });

  it('counts the open quantity as the live quantity less fills', () => {
    assert.equal(openQuantity({ order_quantity: 5, deal_quantity: 2 }), 3);
    assert.equal(openQuantity({ order_quantity: 0, deal_quantity: 0 }), 0);
  });

  it('is final exactly for Filled, Cancelled and Failed', () => {
    assert.deepEqual([...FINAL_ORDER_STATUSES].sort(), ['Cancelled', 'Failed', 'Filled']);
    assert.deepEqual(ORDER_STATUSES.filter(isFinalStatus).sort(), ['Cancelled', 'Failed', 'Filled']);
  });

  it('allows the forward transitions and nothing out of a final status', () => {
    const allowed: [OrderStatus, OrderStatus][] = [
      ['Inactive', 'Submitted'],
      ['Inactive', 'Failed'],
      ['PendingSubmit', 'Submitted'],
      ['PendingSubmit', 'Failed'],
      ['PendingSubmit', 'Filled'],
      ['PreSubmitted', 'Submitted'],
      ['Submitted', 'Submitted'],
      ['Submitted', 'PartFilled'],
      ['Submitted', 'Cancelled'],
      ['PartFilled', 'PartFilled'],
      ['PartFilled', 'Filled'],
      ['PartFilled', 'Cancelled'],
    ];
    for (const [from, to] of allowed) assert.ok(canReach(from, to), `${from} → ${to}`);
    const refused: [OrderStatus, OrderStatus][] = [
      ['Submitted', 'PendingSubmit'],
      ['Submitted', 'Failed'],
      ['PartFilled', 'Submitted'],
      ['Filled', 'Cancelled'],
      ['Cancelled', 'Submitted'],
      ['Failed', 'Submitted'],
      ['PendingSubmit', 'Inactive'],
    ];
    for (const [from, to] of refused) assert.ok(!canReach(from, to), `${from} → ${to}`);
    for (const from of FINAL_ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) assert.ok(!canReach(from, to), `${from} → ${to}`);
    }
  });

  it('derives a final status exactly when nothing is left open, and only reachable transitions', () => {
    const quantities = fc
      .record({ quantity: fc.integer({ min: 1, max: 50 }), cancelled: fc.nat(50), dealt: fc.nat(50) })
      .map(({ quantity, cancelled, dealt }) => {
        const cancel_quantity = Math.min(cancelled, quantity);
        const order_quantity = quantity - cancel_quantity;
        return { order_quantity, deal_quantity: Math.min(dealt, order_quantity), cancel_quantity };
      });
    fc.assert(
      fc.property(quantities, fc.constantFrom('deal' as const, 'cancel' as const), (q, closedBy) => {
        const status = statusForQuantities(q, closedBy);
        assert.equal(isFinalStatus(status), openQuantity(q) === 0, JSON.stringify({ q, status }));
        assert.ok(canReach('PendingSubmit', status));
      }),
    );
  });
});

describe('Trade JSON', () => {
  const trade: StockTrade = {
    contract: { security_type: 'STK', exchange: 'TSE', code: '2330', target_code: null },
    order: {
      id: 'a647f23d',
      seqno: '214115',
      ordno: 'Y27FI',
      action: 'Buy',
      price: 1000,
      quantity: 2,
      time_in_force: 'ROD',
      order_type: 'ROD',
      price_type: 'LMT',
      custom_field: '',
      account,
      ca: '',
      order_cond: 'Cash',
      order_lot: 'Common',
    },
    status: {
      id: 'a647f23d',
      status: 'PartFilled',
      status_code: '00',
      web_id: '137',
      order_ts: 1_779_412_800.123,
      msg: '委託成功',
      modified_ts: 1_779_412_801.5,
      modified_price: 0,
      order_quantity: 2,
      deal_quantity: 1,
      cancel_quantity: 0,
      deals: [{ seq: '000001', price: 1000, quantity: 1, ts: 1_779_412_801.5 }],
    },
  };

  it('serializes with the field names of docs/official-behaviour.md', () => {
    const json = JSON.parse(JSON.stringify(trade));
    assert.deepEqual(Object.keys(json), ['contract', 'order', 'status']);
    assert.deepEqual(Object.keys(json.contract), ['security_type', 'exchange', 'code', 'target_code']);
    assert.deepEqual(Object.keys(json.status.deals[0]), ['seq', 'price', 'quantity', 'ts']);
    assert.ok(isStockTrade(trade));
  });

  it('keys combo deals by leg code', () => {
    const combo: ComboTrade = {
      contract: {
        legs: [
          { security_type: 'OPT', exchange: 'TAIFEX', code: 'TXO44000L6', target_code: null, action: 'Sell' },
          { security_type: 'OPT', exchange: 'TAIFEX', code: 'TXO43800L6', target_code: null, action: 'Buy' },
        ],
      },
      order: {
        id: '0000a1b2',
        seqno: '000001',
        ordno: 'vE0Dr',
        action: 'Buy',
        price: 52,
        quantity: 1,
        time_in_force: 'IOC',
        order_type: 'IOC',
        price_type: 'LMT',
        combo_type: 'PriceSpread',
        octype: 'Auto',
        account: { ...account, account_type: 'F' },
      },
      status: {
        ...trade.status,
        status: 'Filled',
        deals: { TXO44000L6: [{ seq: '000001', price: 120, quantity: 1, ts: 1 }], TXO43800L6: [] },
      },
    };
    assert.deepEqual(Object.keys(combo.status.deals), ['TXO44000L6', 'TXO43800L6']);
  });
});

describe('order_event payloads', () => {
  const deal: StockDealEvent = {
    event_id: 'a647f23d-deal-000001',
    trade_id: 'a647f23d',
    seqno: '214115',
    ordno: 'Y27FI001',
    exchange_seq: '000001',
    broker_id: '9A95',
    account_id: '1234567',
    action: 'Buy',
    code: '2330',
    order_cond: 'Cash',
    order_lot: 'Common',
    price: 1000,
    quantity: 1,
    web_id: '137',
    custom_field: '',
    ts: 1_779_412_801.5,
  };

  it('wraps the body under its state: {state, data: {<state>: body}}', () => {
    const event = orderEvent('StockDeal', deal);
    assert.deepEqual(JSON.parse(JSON.stringify(event)), { state: 'StockDeal', data: { StockDeal: deal } });
    assert.equal(orderEventBody(event), deal);
  });

  it('wraps order reports with their operation', () => {
    const event = orderEvent('FuturesOrder', {
      event_id: '-New-1795000000000000',
      operation: { op_type: 'New', op_code: '9938', op_msg: '當日市價單不允許當日有效委託(ROD)' },
      order: {
        id: '',
        seqno: '',
        ordno: '',
        account: { ...account, account_type: 'F' },
        action: 'Buy',
        price: 0,
        quantity: 1,
        time_in_force: 'ROD',
        order_type: 'ROD',
        price_type: 'MKT',
        market_type: 'Day',
        oc_type: 'Auto',
        subaccount: '',
        combo: false,
        custom_field: '',
      },
      status: { id: '', exchange_ts: 0, modified_price: 0, cancel_quantity: 0, order_quantity: 0, web_id: 'Z' },
      contract: {
        security_type: 'FUT',
        code: 'TXF',
        full_code: 'TXFL6',
        exchange: 'TIM',
        delivery_month: '202612',
        delivery_date: '2026/12/16',
        strike_price: 0,
        option_right: 'Future',
      },
    });
    assert.deepEqual(Object.keys(event.data), ['FuturesOrder']);
    assert.equal(orderEventBody(event).operation.op_code, '9938');
  });
});
