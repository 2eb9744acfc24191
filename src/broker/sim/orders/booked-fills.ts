// A deal as the ledger books it (portfolio/fills.ts): shares for stocks, with the terms that set its costs.

import type { ContractInfo, FuturesInfo, OptionInfo, StockInfo } from '../../../domain/contracts.js';
import { stockTaxKind } from '../../../domain/fees.js';
import {
  type Action,
  type Deal,
  type FuturesOCType,
  orderShares,
  type StockTradeOrder,
  type Trade,
} from '../../../domain/orders.js';
import type { BookedFill } from '../portfolio/ledger.js';
import { stockMarginRatios } from './margins.js';

interface DealContext {
  accountKey: string;
  trade: { order: Pick<Trade['order'], 'id' | 'seqno' | 'ordno'> | Trade['order'] };
  /** The trading day the deal belongs to. */
  day: string;
  deal: Deal;
  dealSeq: number;
}

/** The fields of every booked fill; its kind's fields follow (see stockFill). */
function common(
  { accountKey, trade, day, deal, dealSeq }: DealContext,
  code: string,
  action: Action,
  quantity: number,
) {
  const { id, seqno, ordno } = trade.order;
  const at = Math.round(deal.ts * 1000);
  return { accountKey, orderId: id, seqno, ordno, dealSeq, at, day, code, action, price: deal.price, quantity };
}

// A fill is made as one literal and its kind's part added after: on Node 20, a literal that adds keys after a spread
// (`{ ...common(), quantity }`) takes V8's slow path, microseconds per key, and every deal makes one.

export function stockFill(
  context: DealContext,
  order: StockTradeOrder,
  info: StockInfo,
  daytradeShort: boolean,
): BookedFill {
  const fill: BookedFill = common(
    context,
    info.code,
    order.action,
    orderShares(order.order_lot, context.deal.quantity),
  );
  fill.stock = {
    cond: order.order_cond,
    lot: order.order_lot,
    taxKind: stockTaxKind(info.code, info.security_type),
    daytradeShort,
    ...stockMarginRatios(info),
  };
  return fill;
}

export function derivativeFill(
  context: DealContext,
  info: ContractInfo,
  action: Action,
  ocType: FuturesOCType,
): BookedFill {
  const derivative = info as FuturesInfo | OptionInfo;
  const fill: BookedFill = common(context, info.code, action, context.deal.quantity);
  fill.derivative = {
    securityType: info.security_type === 'OPT' ? 'OPT' : 'FUT',
    root: derivative.root,
    multiplier: derivative.multiplier,
    ocType,
    expiry: {
      lastTradingDay: derivative.last_trading_date,
      underlyingCode: derivative.underlying_code,
      strike: info.security_type === 'OPT' ? (info as OptionInfo).strike_price : undefined,
      right: info.security_type === 'OPT' ? (info as OptionInfo).option_right : undefined,
    },
  };
  return fill;
}
