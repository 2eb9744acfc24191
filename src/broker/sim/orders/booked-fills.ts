// A deal as the ledger books it (portfolio/fills.ts): shares for stocks, with the terms that set its costs.

import type { ContractInfo, FuturesInfo, OptionInfo, StockInfo } from '../../../domain/contracts.js';
import { stockTaxKind } from '../../../domain/fees.js';
import { type Action, type Deal, type FuturesOCType, orderShares, type Trade } from '../../../domain/orders.js';
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

function common({ accountKey, trade, day, deal, dealSeq }: DealContext, code: string, action: Action) {
  const { id, seqno, ordno } = trade.order;
  const at = Math.round(deal.ts * 1000);
  return { accountKey, orderId: id, seqno, ordno, dealSeq, at, day, code, action, price: deal.price };
}

export function stockFill(context: DealContext, info: StockInfo, daytradeShort: boolean): BookedFill {
  const order = context.trade.order;
  if (!('order_lot' in order)) throw new Error(`order ${order.id} is not a stock order`);
  return {
    ...common(context, info.code, order.action),
    quantity: orderShares(order.order_lot, context.deal.quantity),
    stock: {
      cond: order.order_cond,
      lot: order.order_lot,
      taxKind: stockTaxKind(info.code, info.security_type),
      daytradeShort,
      ...stockMarginRatios(info),
    },
  };
}

export function derivativeFill(
  context: DealContext,
  info: ContractInfo,
  action: Action,
  ocType: FuturesOCType,
): BookedFill {
  const derivative = info as FuturesInfo | OptionInfo;
  return {
    ...common(context, info.code, action),
    quantity: context.deal.quantity,
    derivative: {
      securityType: info.security_type === 'OPT' ? 'OPT' : 'FUT',
      root: derivative.root,
      multiplier: derivative.multiplier,
      ocType,
    },
  };
}
