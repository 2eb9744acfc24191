// A refused order or change: the broker's message kept, explained in English, and the other rules the order breaks
// named too (status.violations from the simulator; the broker names only the first), as a RefusedError (exit 4).

import { explainedRefusal } from '../../../contract/broker-messages.js';
import { ACCEPTED_MESSAGE, SHIOAJI_MESSAGES } from '../../../domain/order-messages.js';
import type { Trade } from '../../../domain/orders.js';
import type { DaemonClient } from '../../client.js';
import { RefusedError } from '../../errors.js';

/** A new order is refused when it failed; a change, when it failed or its answer is not the accepted message. */
export function isRefused(trade: Trade, kind: 'place' | 'change'): boolean {
  if (trade.status.status === 'Failed') return true;
  const { msg } = trade.status;
  return kind === 'change' && msg !== '' && msg !== ACCEPTED_MESSAGE;
}

const PRICE_MESSAGES: readonly string[] = [SHIOAJI_MESSAGES.priceOffTick, SHIOAJI_MESSAGES.priceOutsideLimits];

/** Whether the day's limits may say more: a price past them, or the grid named alone by a broker that lists one. */
const limitsMaySayMore = (status: Trade['status']): boolean =>
  status.violations === undefined
    ? PRICE_MESSAGES.includes(status.msg)
    : status.violations.some((found) => found.msg === SHIOAJI_MESSAGES.priceOutsideLimits);

/**
 * The price against the day's limits: a sentence when it is outside them (the broker may have named only the tick
 * grid), null when it is within them.
 */
export function limitProblem(price: number, info: { limit_up?: number; limit_down?: number }): string | null {
  const { limit_up: up, limit_down: down } = info;
  if (up === undefined || down === undefined) return null;
  const limits = `today's limits are ${down} to ${up}`;
  if (price > up) return `the price ${price} is above the limit up: ${limits}`;
  if (price < down) return `the price ${price} is below the limit down: ${limits}`;
  return null;
}

/**
 * The RefusedError for a refused trade: the first rule broken, then each other one. `price` is the limit price asked
 * for (a new order's or update-price's): when the limits may say more, they are looked up and the price set against
 * them.
 */
export async function refusal(
  trade: Trade,
  what: string,
  client: DaemonClient,
  price: number | undefined,
): Promise<RefusedError> {
  const [first, ...others] = explainedRefusal(trade.status);
  const details = others.map((message) => `also: ${message}`);
  if (price !== undefined && limitsMaySayMore(trade.status)) {
    const info = await client.contracts.info(trade.contract.code).catch(() => null);
    const problem = info === null || !('limit_up' in info) ? null : limitProblem(price, info);
    if (problem !== null) details.push(problem);
  }
  return new RefusedError(`the broker refused the ${what}: ${first}`, details);
}
