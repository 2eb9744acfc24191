// Every rule a new order or a change of a working order breaks, not only the first: the broker's answer names the first
// (status.msg, as Shioaji does), and the whole list lets a client fix the order in one go (status.violations,
// docs/exchange-rules.md).

import { CHANGE_RULES, type OrderChangeContext } from './order-change-rules.js';
import {
  COMBO_RULES,
  FUTURES_RULES,
  type OrderRule,
  type OrderViolation,
  type PlaceOrderContext,
  STOCK_RULES,
} from './order-rules.js';

/**
 * Rules whose failure leaves nothing else to judge: the simulator does not trade such orders at all, or the contract
 * no longer trades. They come first in their lists, and the check stops at them.
 */
const CHECK_STOPPERS: ReadonlySet<string> = new Set([
  'blockTradeUnsupported',
  'emergingUnsupported',
  'sblShortUnsupported',
  'contractStillTrading',
  'comboLegsStillTrading',
  // A finished order has nothing left to change.
  'orderStillWorking',
]);

/** A broken rule as a Trade's status lists it: op_code and msg as the order event names them. */
export interface StatusViolation {
  rule: string;
  op_code: string;
  msg: string;
}

export const stopsTheCheck = (found: OrderViolation): boolean => CHECK_STOPPERS.has(found.rule);

/** The rules the context breaks, in the order of the list; none after one that stops the check. */
export function allOf<C>(rules: readonly OrderRule<C>[], ctx: C): OrderViolation[] {
  const found: OrderViolation[] = [];
  for (const rule of rules) {
    const broken = rule(ctx);
    if (broken === null) continue;
    found.push(broken);
    if (stopsTheCheck(broken)) break;
  }
  return found;
}

/**
 * Every rule a new order breaks, in the order: support, quantity, session, price, eligibility, funds; empty when it
 * passes. The first is the one the broker's answer names.
 */
export function orderViolations(ctx: PlaceOrderContext): OrderViolation[] {
  switch (ctx.market) {
    case 'stock':
      return allOf(STOCK_RULES, ctx);
    case 'futures':
      return allOf(FUTURES_RULES, ctx);
    case 'combo':
      return allOf(COMBO_RULES, ctx);
  }
}

/**
 * Every rule a cancel, update_price or update_qty breaks, in the order: the order still working, its price changeable,
 * the new price's rules, the reduction; empty when it passes. The first is the one the broker's answer names.
 */
export function changeViolations(ctx: OrderChangeContext): OrderViolation[] {
  return allOf(CHANGE_RULES, ctx);
}
