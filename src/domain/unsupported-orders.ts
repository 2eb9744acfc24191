// Stock orders the simulator does not simulate, refused with a message saying so and what to use instead: block
// trades, the emerging board, and sales of borrowed securities. They are the first of the stock rules (order-rules.ts).

import { OP_CODE_REJECTED } from './order-messages.js';
import type { OrderViolation, StockOrderContext } from './order-rules.js';

const refusal = (rule: string, message: string): OrderViolation => ({ rule, opCode: OP_CODE_REJECTED, message });

export function blockTradeUnsupported(ctx: StockOrderContext): OrderViolation | null {
  if (ctx.order.order_lot !== 'BlockTrade') return null;
  return refusal(
    'blockTradeUnsupported',
    'BlockTrade orders are not supported in simulation; use order_lot Common, Fixing, Odd or IntradayOdd',
  );
}

export function emergingUnsupported(ctx: StockOrderContext): OrderViolation | null {
  if (ctx.order.order_cond !== 'Emerging' && ctx.instrument.exchange !== 'OES') return null;
  return refusal('emergingUnsupported', 'emerging-board (興櫃, OES) orders are not supported in simulation');
}

/**
 * A sale of borrowed securities (借券賣出; 1.7.9's SBLShort and SBLShortPriceExempt) is a valid request, but the
 * simulator keeps no securities-borrowing account to sell from.
 */
export function sblShortUnsupported(ctx: StockOrderContext): OrderViolation | null {
  const cond = ctx.order.order_cond;
  if (cond !== 'SBLShort' && cond !== 'SBLShortPriceExempt') return null;
  return refusal(
    'sblShortUnsupported',
    `${cond} (借券賣出) is not supported in simulation: the simulator keeps no securities-borrowing account; ` +
      'use order_cond ShortSelling (融券) for a short sale',
  );
}
