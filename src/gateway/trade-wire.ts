// A finished order's trade as the API writes it, kept in the journal (orders.wire) when the order finishes, so that a
// page of older trades is the stored JSON joined: no record parsed, no trade written again. The writer is the server's
// (its response serializer of one Trade); its `format` names it, and JSON another format wrote is forgotten.

import type { OrdersPort } from '../broker/port.js';
import type { Deal, Trade } from '../domain/orders.js';
import type { Journal, OrderPage, OrderPosition } from '../store/journal.js';

export interface TradeJson {
  /** Names what `write` writes (e.g. a hash of its schema): JSON of another format is not served. */
  format: string;
  /** One Trade's JSON; an array of trades is these joined with commas inside brackets. */
  write(trade: Trade): string;
}

export interface TradePageJson {
  json: Buffer;
  count: number;
  last: OrderPosition | null;
}

const FORMAT_META = 'trade_json_format';
const [OPEN, COMMA, CLOSE] = ['[', ',', ']'].map((text) => Buffer.from(text)) as [Buffer, Buffer, Buffer];

export class TradeWire {
  private json: TradeJson | undefined;

  constructor(
    private readonly journal: Journal,
    private readonly savedTrade: OrdersPort['savedTrade'],
  ) {}

  /** Writes trades with `json` from now on; the trade JSON the journal holds in another format is forgotten. */
  writeWith(json: TradeJson): void {
    if (this.journal.meta.get(FORMAT_META) !== json.format) {
      this.journal.orders.forgetWire();
      this.journal.meta.set(FORMAT_META, json.format);
    }
    this.json = json;
  }

  /**
   * The JSON of a finished order's trade with its deals, made as a page would make it from the journal's rows (the
   * record and deals as JSON reads them back); null without a writer or when the venue lists no trade for it.
   */
  ofFinished(record: unknown, deals: Deal[]): string | null {
    if (this.json === undefined) return null;
    const copy = JSON.parse(JSON.stringify({ record, deals: deals.map((deal, i) => ({ seq: i + 1, record: deal })) }));
    const trade = this.savedTrade(copy);
    return trade ? this.json.write(trade) : null;
  }

  /** A page's trades as the JSON array the API answers (UTF-8), how many it holds, and where the next page starts. */
  pageJson(page: OrderPage): TradePageJson {
    const { json } = this;
    if (json === undefined) throw new Error('no trade JSON writer: the server gives one (GatewayOptions.tradeJson)');
    const parts: Buffer[] = [OPEN];
    let count = 0;
    for (const order of page.orders) {
      let item: Buffer | undefined;
      if ('wire' in order) item = order.wire;
      else {
        const trade = this.savedTrade({ record: order.stored.record, deals: order.deals });
        if (trade) item = Buffer.from(json.write(trade));
      }
      if (item === undefined) continue;
      if (count++ > 0) parts.push(COMMA);
      parts.push(item);
    }
    parts.push(CLOSE);
    return { json: Buffer.concat(parts), count, last: page.last };
  }
}
