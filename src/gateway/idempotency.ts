// What identifies a place_order request under an Idempotency-Key: a retry must ask for the same order as the request
// that placed it, or it is refused instead of answered with an order it did not ask for.

import type { PlaceOrderInput } from '../broker/port.js';
import { futuresOrderRequest, stockOrderRequest } from '../domain/orders.js';

/**
 * The contract as named and the order with its defaults filled in, as canonical JSON; null for a request that names
 * neither or both order kinds (the venue refuses it, so it never places anything under a key).
 */
export function requestFingerprint(input: PlaceOrderInput): string | null {
  const { stockOrder, futuresOrder } = input;
  if ((stockOrder === undefined) === (futuresOrder === undefined)) return null;
  const { account, ...fields } = stockOrder ? stockOrderRequest(stockOrder) : futuresOrderRequest(futuresOrder!);
  const named = account ? [account.broker_id ?? '', account.account_id ?? ''] : [];
  return JSON.stringify([input.contract.code, named, Object.entries(fields).sort(([a], [b]) => a.localeCompare(b))]);
}
