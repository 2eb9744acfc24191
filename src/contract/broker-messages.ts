// The broker's answers to an order or a change of one (status.msg, the order event's op_msg) in English, for readers
// without Chinese: the CLI and the dashboard print the English beside the broker's words. Keyed by the words as
// Shioaji gives them, which the simulator's rules give too (src/domain/order-messages.ts; a test keeps the two
// tables in step).

import type { Trade } from './wire.js';

const ENGLISH_OF: Readonly<Record<string, string>> = {
  價格錯誤: 'invalid price: a limit order needs a price above 0',
  價格檔數錯誤: 'price not on the tick grid of its price band',
  價格超過漲跌幅範圍: "price outside today's limits",
  '集合競價時段不可輸入市價／ IOC ／ FOK 委託': 'no market, IOC or FOK orders during a call auction',
  該商品非當沖: 'this product may not be day traded',
  委託數量已完全刪除: 'the order is already fully cancelled',
  '該委託書已完全成交，不可刪單/改單或改價': 'the order is fully filled: it can no longer be cancelled or changed',
  '該筆委託無法處理，原委託有異常狀況！': 'the original order failed: there is nothing to change',
  無原委託內容: 'no original order: not at the exchange yet, or unknown',
  '當日市價單不允許當日有效委託(ROD)': 'a market order cannot be ROD: use IOC or FOK',
  委託條件錯誤: 'order condition not allowed: option combos take IOC or FOK',
};

const INSUFFICIENT_SHARES = /^集保賣出餘股數不足，餘股數 (\d+) 股$/;

/** The English of a broker message; null for a message already in English or one this table does not know. */
export function englishOfBrokerMessage(message: string): string | null {
  const english = ENGLISH_OF[message];
  if (english !== undefined) return english;
  const shares = INSUFFICIENT_SHARES.exec(message)?.[1];
  return shares === undefined ? null : `not enough shares in the depository account to sell: ${shares} left`;
}

/** The broker's message with its English beside it when it is Chinese: `價格檔數錯誤 (the price is not ...)`. */
export function explainedMessage(message: string): string {
  const english = englishOfBrokerMessage(message);
  return english === null ? message : `${message} (${english})`;
}

/** The message of every rule a refused order or change broke, the broker's first; its one msg where it lists none. */
function brokenRuleMessages(status: Pick<Trade['status'], 'msg' | 'violations'>): [string, ...string[]] {
  const [first, ...others] = status.violations ?? [];
  return first === undefined ? [status.msg] : [first.msg, ...others.map((found) => found.msg)];
}

/** Every rule a refused order or change broke, each with its English: what the CLI and the dashboard show. */
export const explainedRefusal = (status: Pick<Trade['status'], 'msg' | 'violations'>): [string, ...string[]] => {
  const [first, ...others] = brokenRuleMessages(status);
  return [explainedMessage(first), ...others.map(explainedMessage)];
};
