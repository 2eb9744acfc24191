// Trades as the daemon answers them, and a fake daemon of the order routes whose answers a test can change.

import type { FuturesTrade, OrderStatus, StockTrade, Trade } from '../../../../src/domain/orders.js';
import { envelope, type FakeDaemon, fakeDaemon } from '../../../helpers/cli.js';

export const STOCK_ACCOUNT = {
  account_type: 'S' as const,
  person_id: 'A123456789',
  broker_id: '9A95',
  account_id: '6880831',
  signed: true,
  username: 'sjgate 模擬帳戶',
};
export const FUTURES_ACCOUNT = {
  ...STOCK_ACCOUNT,
  account_type: 'F' as const,
  broker_id: 'F002000',
  account_id: '5234661',
};

export function stockTrade(status: OrderStatus, fields: Partial<StockTrade['order']> = {}): StockTrade {
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
      time_in_force: 'ROD',
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

export const FUTURES_TRADE: FuturesTrade = {
  contract: { security_type: 'FUT', exchange: 'TAIFEX', code: 'TXFL6', target_code: 'TXFL6' },
  order: {
    id: 'b0fc523b',
    seqno: '100004',
    ordno: 'A0004',
    action: 'Sell',
    price: 0,
    quantity: 1,
    time_in_force: 'ROD',
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

/** What place_order answers, and what each later trades call answers, in turn. */
export interface OrderDaemonState {
  placed: Trade;
  listings: Trade[][];
}

/** The fake daemon of the order routes; `state` is reset by reset() (call it in beforeEach). */
export function orderDaemon(): { daemon: FakeDaemon; state: OrderDaemonState; reset: () => void } {
  const state: OrderDaemonState = { placed: stockTrade('Submitted'), listings: [] };
  const reset = () => {
    state.placed = stockTrade('Submitted');
    state.listings = [];
  };
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
      return [200, order === undefined ? state.placed : FUTURES_TRADE];
    }
    if (url === '/api/v1/order/trades') return [200, state.listings.shift() ?? [state.placed]];
    if (url === '/api/v1/order/cancel_order') {
      const id = (body as { trade_id: string }).trade_id;
      if (id === 'missing') return envelope('ORDER_NOT_FOUND', "no order with trade_id 'missing'");
      return [200, { ...state.placed, status: { ...state.placed.status, status: 'Cancelled', cancel_quantity: 2 } }];
    }
    if (url === '/api/v1/order/update_price' || url === '/api/v1/order/update_qty') return [200, state.placed];
    return envelope('ROUTE_NOT_FOUND', `no route ${url}`);
  });
  return { daemon, state, reset };
}
