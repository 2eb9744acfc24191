// A refused order or change: the broker's message kept, explained in English, and the other price rules the order
// breaks named too (the broker names only the first it finds), as a RefusedError (exit 4).

import type { ContractInfo } from '../../../contract/wire.js';
import { ACCEPTED_MESSAGE, englishOfShioajiMessage, SHIOAJI_MESSAGES } from '../../../domain/order-messages.js';
import type { Trade } from '../../../domain/orders.js';
import type { DaemonClient } from '../../client.js';
import { RefusedError } from '../../errors.js';

/** A new order is refused when it failed; a change, when it failed or its answer is not the accepted message. */
export function isRefused(trade: Trade, kind: 'place' | 'change'): boolean {
  if (trade.status.status === 'Failed') return true;
  const { msg } = trade.status;
  return kind === 'change' && msg !== '' && msg !== ACCEPTED_MESSAGE;
}

/** The broker's message with its English beside it when it is Chinese: `價格檔數錯誤 (the price is not ...)`. */
export function explainedMessage(message: string): string {
  const english = englishOfShioajiMessage(message);
  return english === null ? message : `${message} (${english})`;
}

const PRICE_MESSAGES: readonly string[] = [SHIOAJI_MESSAGES.priceOffTick, SHIOAJI_MESSAGES.priceOutsideLimits];

/**
 * The price against the day's limits: a sentence when it is outside them (the broker may have named only the tick
 * grid), null when it is within them.
 */
export function limitProblem(price: number, info: Pick<ContractInfo, 'limit_up' | 'limit_down'>): string | null {
  const { limit_up: up, limit_down: down } = info;
  if (up === undefined || down === undefined) return null;
  const limits = `today's limits are ${down} to ${up}`;
  if (price > up) return `the price ${price} is above the limit up: ${limits}`;
  if (price < down) return `the price ${price} is below the limit down: ${limits}`;
  return null;
}

/**
 * The RefusedError for a refused trade. `price` is the limit price asked for (a new order's or update-price's): when
 * the broker refused it for the tick grid, the day's limits are looked up so a price past them is reported as well.
 */
export async function refusal(
  trade: Trade,
  what: string,
  client: DaemonClient,
  price: number | undefined,
): Promise<RefusedError> {
  const message = trade.status.msg;
  const details: string[] = [];
  if (price !== undefined && PRICE_MESSAGES.includes(message)) {
    const info = await client.contracts.info<ContractInfo>(trade.contract.code).catch(() => null);
    const problem = info === null ? null : limitProblem(price, info);
    if (problem !== null) details.push(problem);
  }
  return new RefusedError(`the broker refused the ${what}: ${explainedMessage(message)}`, details);
}
