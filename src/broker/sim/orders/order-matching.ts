// The matching of single orders against the simulated market: an order entering the exchange takes the depth it
// can (exchange/matching.ts holds the price-time rules), rests with its place in the queue, and meets the tape's
// trades as the clock moves; what is left when its day ends expires.

import type { ContractInfo, StockInfo } from '../../../domain/contracts.js';
import type { SessionPhase } from '../../../domain/order-rules.js';
import { settleStatus } from '../../../domain/order-states.js';
import { type Deal, isStockTradeOrder, type OrderEvent, openQuantity } from '../../../domain/orders.js';
import { displayedAt, type Fill, meetTrade, protectedLimit, takeOnArrival } from '../exchange/matching.js';
import { type BookSide, bookAt } from '../market/book.js';
import type { SimMarket } from '../market/market.js';
import { publishedCount, type Tape } from '../market/tape.js';
import type { DayAndPhase } from './day-and-phase.js';
import type { PreTrade } from './pre-trade.js';
import { cancelRemainder, dealReport, type OrderRecord, orderReport } from './trade-records.js';

export class OrderMatching {
  constructor(
    private readonly market: SimMarket,
    private readonly sessions: DayAndPhase,
    private readonly preTrade: PreTrade,
    /** Books a new deal of the order (the ledger, and the rows to journal with the change). */
    private readonly bookDeal: (record: OrderRecord, deal: Deal, dealSeq: number) => void,
  ) {}

  private tapeOf(record: OrderRecord, info: ContractInfo, day: string): Tape {
    if (record.tape === 'odd') return this.market.oddLotTape(info as StockInfo, day);
    return this.market.tape(info, day);
  }

  /** The order arrives at the exchange: a marketable part takes depth in continuous trading; the rest rests. */
  enter(record: OrderRecord, info: ContractInfo, at: number, phase: SessionPhase): OrderEvent[] {
    const day = this.sessions.dayAt(record.market, at);
    const tape = this.tapeOf(record, info, day);
    const count = publishedCount(tape, at);
    record.cursor = { day, count };
    const { order } = record.trade;
    const reference = 'reference' in info ? info.reference : 0;
    const book = bookAt(tape, count, reference);
    const opposite = order.action === 'Buy' ? book.ask : book.bid;
    const limit = this.limitOf(record, info, opposite, reference);
    const immediate = order.order_type !== 'ROD' || limit === null;
    const events: OrderEvent[] = [];
    if (phase === 'continuous' && record.tape === 'board') {
      const open = openQuantity(record.trade.status);
      events.push(...this.fill(record, info, takeOnArrival(opposite, order.action, limit, open, order.order_type), at));
    }
    if (immediate && openQuantity(record.trade.status) > 0) {
      events.push(...this.cancelRest(record, info, at, ''));
    } else if (limit !== null) {
      record.queueAhead = displayedAt(order.action === 'Buy' ? book.bid : book.ask, limit);
    }
    return events;
  }

  /** The price an order may trade at: its own for LMT, the protective limit for a futures MKP, none for MKT. */
  private limitOf(record: OrderRecord, info: ContractInfo, opposite: BookSide, reference: number): number | null {
    const { order } = record.trade;
    if (order.price_type === 'LMT') return order.price;
    if (order.price_type !== 'MKP' || isStockTradeOrder(order)) return null;
    const limit = protectedLimit(opposite, order.action, this.preTrade.priceFactsOf(info), reference);
    if (limit !== null) {
      record.restingPrice = limit;
      record.trade.status.modified_price = limit;
    }
    return limit;
  }

  /** The tape's trades since the order's cursor, up to now; an order left open when its day ends expires. */
  meetTrades(record: OrderRecord, info: ContractInfo, now: number): OrderEvent[] {
    if (!record.cursor) return [];
    const events: OrderEvent[] = [];
    const tape = this.tapeOf(record, info, record.cursor.day);
    const upTo = publishedCount(tape, now);
    const { order } = record.trade;
    const { status } = record.trade;
    for (let k = record.cursor.count; k < upTo && openQuantity(status) > 0; k++) {
      const met = meetTrade(
        {
          action: order.action,
          price: record.restingPrice ?? order.price,
          remaining: openQuantity(status),
          queueAhead: record.queueAhead,
        },
        { price: tape.prices[k]!, volume: tape.volumes[k]!, auction: record.tape === 'odd' || tape.tickTypes[k] === 0 },
      );
      record.queueAhead = met.queueAhead;
      if (met.fill) events.push(...this.fill(record, info, [met.fill], tape.times[k]! / 1000));
    }
    record.cursor.count = upTo;
    if (openQuantity(status) > 0 && this.sessions.dayAt(record.market, now) !== record.cursor.day) {
      events.push(...this.cancelRest(record, info, now, 'the order expired at the end of its trading day'));
    }
    return events;
  }

  private fill(record: OrderRecord, info: ContractInfo, fills: Fill[], at: number): OrderEvent[] {
    const { status } = record.trade;
    return fills.map((fill) => {
      const deal = {
        seq: String(status.deals.length + 1).padStart(6, '0'),
        price: fill.price,
        quantity: fill.quantity,
        ts: at / 1000,
      };
      status.deals.push(deal);
      status.deal_quantity += fill.quantity;
      settleStatus(status);
      status.modified_ts = deal.ts;
      this.bookDeal(record, deal, status.deals.length);
      return dealReport(record.trade, info, deal);
    });
  }

  cancelRest(record: OrderRecord, info: ContractInfo, at: number, reason: string): OrderEvent[] {
    cancelRemainder(record.trade.status, at, reason);
    return [orderReport(record.trade, info, 'Cancel', '00', reason, at)];
  }
}
