// The order rules of expiry (docs/exchange-rules.md, "Expiry and final settlement"): TAIFEX stops an expiring contract
// at 13:30 of its last trading day, and takes no order for it, nor for a combo with a leg in it, after that. They are
// the first of the futures and the combo rules (order-rules.ts).

import { OP_CODE_REJECTED } from './order-messages.js';
import type { ComboOrderContext, FuturesOrderContext, OrderViolation } from './order-rules.js';

const refusal = (rule: string, message: string): OrderViolation => ({ rule, opCode: OP_CODE_REJECTED, message });

/** TAIFEX stops an expiring contract at 13:30 on its last trading day; after that it takes no orders. */
export function contractStillTrading(ctx: FuturesOrderContext): OrderViolation | null {
  const expiredOn = ctx.instrument.expiredOn;
  if (expiredOn === undefined) return null;
  return refusal(
    'contractStillTrading',
    `${ctx.instrument.code} stopped trading at 13:30 on ${expiredOn}, its last trading day, and is settled at its ` +
      'final settlement price; trade the next delivery month or week instead',
  );
}

/** A combo trades only while both its legs do: not once a leg stopped trading at expiry. */
export function comboLegsStillTrading(ctx: ComboOrderContext): OrderViolation | null {
  if (!ctx.expiredLeg) return null;
  const { code, day } = ctx.expiredLeg;
  return refusal(
    'comboLegsStillTrading',
    `the combo's leg ${code} stopped trading at 13:30 on ${day}, its last trading day; the combo cannot trade`,
  );
}
