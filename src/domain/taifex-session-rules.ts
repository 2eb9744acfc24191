// When TAIFEX takes an order (docs/exchange-rules.md, "Sessions and hours"): outside its sessions and their pre-open
// order entry an order is only a reservation, which the broker holds until order entry opens. A reservation is a
// limit ROD order, as for stocks; market, IOC and FOK orders are refused with the message TWSE gives them.

import { OP_CODE_REJECTED, SHIOAJI_MESSAGES } from './order-messages.js';
import type { FuturesOrderContext, OrderViolation } from './order-rules.js';

/** While TAIFEX is closed a futures or options order must be LMT ROD: it waits for the next order-entry window. */
export function taifexClosedOrderTypes(ctx: FuturesOrderContext): OrderViolation | null {
  const { price_type, order_type } = ctx.order;
  if (ctx.phase !== 'closed' || (price_type === 'LMT' && order_type === 'ROD')) return null;
  return { rule: 'taifexClosedOrderTypes', opCode: OP_CODE_REJECTED, message: SHIOAJI_MESSAGES.auctionMarketOrder };
}
