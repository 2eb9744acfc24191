// Today's order/trades (the official default call) as the JSON array the API answers. A busy day's list is mostly
// finished orders: each is written once and reused while it lists unchanged. A venue that tells when its list changes
// (OrdersPort.tradesVersion) is not asked for an unchanged list at all: the previous answer's bytes are the answer.

import type { OrdersPort } from '../broker/port.js';
import type { AccountSelector } from '../domain/accounts.js';
import { isFinalStatus, type Trade } from '../domain/orders.js';
import type { TradeJson } from './trade-wire.js';

const [OPEN, COMMA, CLOSE] = ['[', ',', ']'].map((text) => Buffer.from(text)) as [Buffer, Buffer, Buffer];

/** Answers kept per account asked for: a few accounts, so the bound is only against a caller cycling selectors. */
const KEPT_ANSWERS = 64;

export class TodaysTrades {
  private readonly lists: TradeListJson | undefined;
  /** The last answer for each account ('' for every account), with the venue's version it was made at. */
  private answers = new Map<string, { version: number; json: Buffer }>();

  constructor(
    private readonly venue: Pick<OrdersPort, 'trades' | 'tradesVersion'>,
    /** The key of the account a selector names (AccountsPort.resolve). */
    private readonly accountKey: (account: AccountSelector) => Promise<string>,
    tradeJson: TradeJson | undefined,
  ) {
    this.lists = tradeJson && new TradeListJson(tradeJson.write);
  }

  /**
   * The trades of one account (every account's without a selector) as UTF-8 JSON, once `durable` says that what they
   * show is in the journal. An answer is kept only once durable, so a kept one is answered without waiting.
   */
  async json(account: AccountSelector | undefined, durable: () => Promise<void>): Promise<Buffer> {
    const { lists, venue } = this;
    if (lists === undefined) throw new Error('no trade JSON writer: the server gives one (GatewayOptions.tradeJson)');
    if (venue.tradesVersion === undefined) return durably(lists.write(await venue.trades(account)), durable);
    const key = account === undefined ? '' : await this.accountKey(account);
    // Asked before the list: a change in between makes a newer list under an older version, written again next time.
    const version = venue.tradesVersion();
    const kept = this.answers.get(key);
    if (kept?.version === version) return kept.json;
    const json = await durably(lists.write(await venue.trades(account)), durable);
    if (this.answers.size >= KEPT_ANSWERS) this.answers = new Map();
    this.answers.set(key, { version, json });
    return json;
  }
}

async function durably<T>(answer: T, durable: () => Promise<void>): Promise<T> {
  await durable();
  return answer;
}

/** What of a trade can still change; a finished trade whose parts all read the same writes the same JSON. */
function changeableParts(trade: Trade): string {
  const { order, status } = trade;
  return [
    status.status,
    status.msg,
    status.modified_ts,
    status.modified_price,
    status.order_quantity,
    status.deal_quantity,
    status.cancel_quantity,
    status.deals.length,
    status.violations?.length ?? 0,
    order.price,
    order.quantity,
  ].join('|');
}

/** Lists of trades as UTF-8 JSON, each finished trade written once and reused while it lists unchanged. */
class TradeListJson {
  private finished = new Map<string, { parts: string; json: Buffer }>();
  /** The last list written: when a call lists the very same reused JSON, its answer is the same bytes. */
  private last: { chunks: Buffer[]; json: Buffer } | undefined;

  constructor(private readonly writeTrade: TradeJson['write']) {}

  write(trades: readonly Trade[]): Buffer {
    const chunks: Buffer[] = [OPEN];
    trades.forEach((trade, i) => {
      if (i > 0) chunks.push(COMMA);
      chunks.push(isFinalStatus(trade.status.status) ? this.finishedJson(trade) : Buffer.from(this.writeTrade(trade)));
    });
    chunks.push(CLOSE);
    // Finished orders of past days leave the venue's list; once the cache holds many more than a list, it restarts.
    if (this.finished.size > 2 * trades.length + 1000) this.finished = new Map();
    const { last } = this;
    if (last?.chunks.length === chunks.length && last.chunks.every((chunk, i) => chunk === chunks[i])) return last.json;
    const json = Buffer.concat(chunks);
    this.last = { chunks, json };
    return json;
  }

  private finishedJson(trade: Trade): Buffer {
    const parts = changeableParts(trade);
    const known = this.finished.get(trade.order.id);
    if (known?.parts === parts) return known.json;
    const json = Buffer.from(this.writeTrade(trade));
    this.finished.set(trade.order.id, { parts, json });
    return json;
  }
}
