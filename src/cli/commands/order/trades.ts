// What the order commands share about trades: waiting until the exchange has answered, and one row per trade.

import { explainedRefusal } from '../../../contract/broker-messages.js';
import type { OrderStatus, Trade } from '../../../domain/orders.js';
import { taipeiIso } from '../../../domain/time.js';
import type { DaemonClient } from '../../client.js';
import type { Cli } from '../../context.js';
import { formatTable, type Row } from '../../output.js';

/** How `place` (and cancel and updates, unless --no-wait) follow a trade until the exchange has answered. */
export const WAIT = { intervalMs: 200, timeoutMs: 5_000 } as const;

/** The fields of a trade, for --json. */
export const TRADE_FIELDS = ['contract', 'order', 'status'] as const satisfies readonly (keyof Trade)[];

/** Statuses of an order the exchange has not answered yet. */
const UNSETTLED: readonly OrderStatus[] = ['PendingSubmit', 'Inactive'];

export const isSettled = (trade: Trade): boolean => !UNSETTLED.includes(trade.status.status);

export interface WaitOptions {
  intervalMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls the trades of the trade's account until it is no longer PendingSubmit or Inactive, or until the time is up;
 * returns the latest state seen. A trade without an id (placed without waiting) cannot be found and is returned as is.
 */
export async function settle(
  trade: Trade,
  list: (selector: Record<string, string>) => Promise<Trade[]>,
  options: WaitOptions = {},
): Promise<Trade> {
  const { intervalMs = WAIT.intervalMs, timeoutMs = WAIT.timeoutMs, sleep = pause } = options;
  const id = trade.order.id;
  if (isSettled(trade) || id === '') return trade;
  const selector = { broker_id: trade.order.account.broker_id, account_id: trade.order.account.account_id };
  let latest = trade;
  for (let waited = 0; waited < timeoutMs && !isSettled(latest); waited += intervalMs) {
    await sleep(intervalMs);
    latest = (await list(selector)).find((t) => t.order.id === id) ?? latest;
  }
  return latest;
}

/** The trades of an account, as settle() asks for them. */
export const listOf = (client: DaemonClient) => (selector: Record<string, string>) =>
  client.orders.trades<Trade[]>(selector);

/** The code as ordered, with the month of a continuous alias: `TXFR1 (TXFL6)`. */
function codeOf(trade: Trade): string {
  const { code, target_code: target } = trade.contract;
  return target !== null && target !== '' && target !== code ? `${code} (${target})` : code;
}

/** The average price of the deals, at most 4 decimals; null without deals. */
function averageFillPrice(trade: Trade): number | null {
  const { deals } = trade.status;
  const quantity = deals.reduce((sum, deal) => sum + deal.quantity, 0);
  if (quantity === 0) return null;
  const amount = deals.reduce((sum, deal) => sum + deal.price * deal.quantity, 0);
  return Math.round((amount / quantity) * 10_000) / 10_000;
}

/** The Taiwan time of the last deal, `HH:MM:SS`; null without deals. */
function lastFillTime(trade: Trade): string | null {
  const last = Math.max(...trade.status.deals.map((deal) => deal.ts));
  return Number.isFinite(last) ? taipeiIso(last * 1000).slice(11, 19) : null;
}

/**
 * One row per trade: id, code, action, price (or the market price type), quantity, status, what was filled at what
 * average price and when last, what was cancelled, and the broker's message with its English (each rule a refused
 * order broke, the broker's first).
 */
export function tradeRow(trade: Trade): Row {
  const { order, status } = trade;
  return {
    id: order.id === '' ? '-' : order.id,
    code: codeOf(trade),
    action: order.action,
    price: order.price_type === 'LMT' ? order.price : order.price_type,
    type: order.order_type,
    qty: order.quantity,
    status: status.status,
    filled: status.deal_quantity,
    fill_price: averageFillPrice(trade),
    fill_time: lastFillTime(trade),
    cancelled: status.cancel_quantity,
    msg: explainedRefusal(status).join('; '),
  };
}

export function formatTrades(trades: readonly Trade[], color = false): string {
  return formatTable(trades.map(tradeRow), undefined, color);
}

/** A trade still unsettled after the wait is printed as it is, with a hint on stderr. */
export function warnIfUnsettled(cli: Cli, trade: Trade): void {
  if (isSettled(trade)) return;
  const where = trade.order.id === '' ? 'the order events' : '`sjgate order list`';
  cli.printError(`note: the order is still ${trade.status.status}; follow it with ${where}`);
}
