// The rules a cancel or an update of a working order must pass, as pure checks (the rules of a new order are in
// order-rules.ts): only a working order changes, only a limit order changes price and its new price passes the price
// rules of a new order, and update_qty reduces by at most what is still open. order-violations.ts lists them all.

import { SHIOAJI_MESSAGES } from './order-messages.js';
import {
  isWholeAtLeastOne,
  type OrderRule,
  type OrderViolation,
  PRICE_RULES,
  type PriceFacts,
  violation,
} from './order-rules.js';
import { type OrderStatus, openQuantity, type PriceType, type StockOrderLot, type TradeStatus } from './orders.js';

export type OrderChange =
  | { kind: 'cancel' }
  | { kind: 'update_price'; price: number }
  /** quantity: how many to cancel (reduce by). */
  | { kind: 'update_qty'; quantity: number };

export interface OrderChangeContext {
  change: OrderChange;
  order: { price_type: PriceType; order_lot?: StockOrderLot | undefined };
  status: Pick<TradeStatus, 'status' | 'order_quantity' | 'deal_quantity'>;
  instrument: PriceFacts;
}

const FINISHED_MESSAGES: Partial<Record<OrderStatus, string>> = {
  Filled: SHIOAJI_MESSAGES.orderFilled,
  Cancelled: SHIOAJI_MESSAGES.orderCancelled,
  Failed: SHIOAJI_MESSAGES.orderAbnormal,
  // Placed without waiting and not yet at the exchange: there is nothing there to change.
  Inactive: SHIOAJI_MESSAGES.noOriginalOrder,
};

/** Only a working order can be cancelled or changed; a finished one answers why not, as Shioaji does. */
export function orderStillWorking(ctx: Pick<OrderChangeContext, 'status'>): OrderViolation | null {
  const message = FINISHED_MESSAGES[ctx.status.status];
  return message === undefined ? null : violation('orderStillWorking', message);
}

export function priceChangeAllowed(ctx: OrderChangeContext): OrderViolation | null {
  if (ctx.change.kind !== 'update_price') return null;
  const { order_lot, price_type } = ctx.order;
  if (order_lot === 'IntradayOdd') {
    return violation(
      'priceChangeAllowed',
      'IntradayOdd orders cannot change price; reduce the quantity with update_qty or cancel the order',
    );
  }
  if (order_lot === 'Fixing') {
    return violation('priceChangeAllowed', 'Fixing orders trade at the close price; their price cannot be changed');
  }
  if (price_type !== 'LMT') {
    return violation('priceChangeAllowed', `only LMT orders can change price; this order is ${price_type}`);
  }
  return null;
}

/** The new price of update_price passes each price rule of a new limit order. */
const NEW_PRICE_RULES: readonly OrderRule<OrderChangeContext>[] = PRICE_RULES.map(
  (rule) =>
    (ctx: OrderChangeContext): OrderViolation | null =>
      ctx.change.kind === 'update_price'
        ? rule({ order: { price_type: 'LMT', price: ctx.change.price }, instrument: ctx.instrument })
        : null,
);

/** update_qty reduces by 1 up to the quantity still open. */
export function reductionWithinOpen(ctx: OrderChangeContext): OrderViolation | null {
  if (ctx.change.kind !== 'update_qty') return null;
  const { quantity } = ctx.change;
  const open = openQuantity(ctx.status);
  if (isWholeAtLeastOne(quantity) && quantity <= open) return null;
  return violation(
    'reductionWithinOpen',
    `update_qty reduces the order by quantity: it must be a whole number from 1 to ${open} (the quantity still open), got ${quantity}`,
  );
}

/** The rules of a change, in the order the broker's answer names the first. */
export const CHANGE_RULES: readonly OrderRule<OrderChangeContext>[] = [
  orderStillWorking,
  priceChangeAllowed,
  ...NEW_PRICE_RULES,
  reductionWithinOpen,
];
