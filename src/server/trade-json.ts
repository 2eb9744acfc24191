// One Trade's JSON as order/trades writes it (the route's own serializer, applied to one element), for the journal to
// keep with each finished order (src/gateway/trade-wire.ts): a page of older trades is then these joined. Today's list
// reuses a finished trade's JSON in memory the same way (TradeListJson).

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { isFinalStatus, type Trade } from '../domain/orders.js';
import type { TradeJson } from '../gateway/trade-wire.js';
import { lazySerializer } from './plugins/serialization.js';
import { TradeSchema } from './schemas/orders.js';

const serializerVersion = (
  createRequire(import.meta.resolve('fastify'))('fast-json-stringify/package.json') as { version: string }
).version;

/** Names the schema and the serializer's version: JSON written under another (an older sjgate) is not served. */
const format = createHash('sha256')
  .update(`fast-json-stringify ${serializerVersion}\n${JSON.stringify(TradeSchema)}`)
  .digest('base64url')
  .slice(0, 16);

export const tradeJson: TradeJson = {
  format,
  write: lazySerializer({ schema: TradeSchema }) as (trade: Trade) => string,
};

const [OPEN, COMMA, CLOSE] = ['[', ',', ']'].map((text) => Buffer.from(text)) as [Buffer, Buffer, Buffer];

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

/**
 * Lists of trades (today's order/trades) as UTF-8 JSON, each finished trade written once and reused while it lists
 * unchanged: a busy day's list is mostly finished orders, and writing them again on every call was most of its cost.
 */
export class TradeListJson {
  private finished = new Map<string, { parts: string; json: Buffer }>();
  /** The last list written: when a call lists the very same reused JSON, its answer is the same bytes. */
  private last: { chunks: Buffer[]; json: Buffer } | undefined;

  write(trades: readonly Trade[]): Buffer {
    const chunks: Buffer[] = [OPEN];
    trades.forEach((trade, i) => {
      if (i > 0) chunks.push(COMMA);
      chunks.push(isFinalStatus(trade.status.status) ? this.finishedJson(trade) : Buffer.from(tradeJson.write(trade)));
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
    const json = Buffer.from(tradeJson.write(trade));
    this.finished.set(trade.order.id, { parts, json });
    return json;
  }
}
