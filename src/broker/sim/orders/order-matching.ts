// The matching of plain orders against the simulated market, through the engine combos share (resting-orders.ts):
// a plain order trades on its contract's board or odd-lot tape, at its limit or a futures MKP's protective limit, and
// each fill is one deal booked in the ledger.

import type { ContractInfo, StockInfo } from '../../../domain/contracts.js';
import { expiryCloseAt } from '../../../domain/final-settlement.js';
import type { SessionPhase } from '../../../domain/order-rules.js';
import { settleStatus } from '../../../domain/order-states.js';
import { type Deal, isStockTradeOrder, type OrderEvent, openQuantity } from '../../../domain/orders.js';
import { type Fill, protectedLimit } from '../exchange/matching.js';
import { type BookSide, bookAt } from '../market/book.js';
import type { SimMarket } from '../market/market.js';
import type { Tape } from '../market/tape.js';
import { AuctionUncrossing, matchesByPeriodicAuction } from './auction-uncross.js';
import type { DayAndPhase } from './day-and-phase.js';
import type { PreTrade } from './pre-trade.js';
import { arrive, meetTape, type RestingKind } from './resting-orders.js';
import { cancelRemainder, dealReport, type OrderRecord, orderReport } from './trade-records.js';

export class OrderMatching {
  private readonly kinds = new WeakMap<ContractInfo, RestingKind<OrderRecord>>();
  private readonly auctions: AuctionUncrossing;

  constructor(
    private readonly market: SimMarket,
    private readonly sessions: DayAndPhase,
    private readonly preTrade: PreTrade,
    /** Books a new deal of the order (the ledger, and the rows to journal with the change). */
    private readonly bookDeal: (record: OrderRecord, deal: Deal, dealSeq: number) => void,
    /** Every working plain order: the users' orders a call auction uncrosses together. */
    working: () => Iterable<OrderRecord> = () => [],
  ) {
    this.auctions = new AuctionUncrossing(market.mode, working, (record, at) => sessions.dayAt(record.market, at));
  }

  private tapeOf(record: OrderRecord, info: ContractInfo, day: string): Tape {
    if (record.tape === 'odd') return this.market.oddLotTape(info as StockInfo, day);
    if (record.trade.order.order_lot === 'Fixing') return this.market.fixedPriceTape(info as StockInfo, day);
    return this.market.tape(info, day);
  }

  /** The order arrives at the exchange: a marketable part takes depth in continuous trading; the rest rests. */
  enter(record: OrderRecord, info: ContractInfo, at: number, phase: SessionPhase): OrderEvent[] {
    const continuous = phase === 'continuous' && !matchesByPeriodicAuction(this.market.mode, info);
    return arrive(this.kindOf(info), record, at, continuous && record.tape === 'board');
  }

  /** The tape's trades since the order's cursor, up to now; an order left open when its day ends expires. */
  meetTrades(record: OrderRecord, info: ContractInfo, now: number): OrderEvent[] {
    return meetTape(this.kindOf(info), record, now);
  }

  /**
   * What the shared engine needs of a plain order of this contract; built once per listing (the listing cache hands
   * out one info object per code and day), not on every pass of every working order.
   */
  private kindOf(info: ContractInfo): RestingKind<OrderRecord> {
    let kind = this.kinds.get(info);
    if (!kind) {
      kind = this.newKind(info);
      this.kinds.set(info, kind);
    }
    return kind;
  }

  private newKind(info: ContractInfo): RestingKind<OrderRecord> {
    const reference = 'reference' in info ? info.reference : 0;
    return {
      dayAt: (record, at) => this.sessions.dayAt(record.market, at),
      tape: (record, day) => this.tapeOf(record, info, day),
      book: (_record, tape, count) => bookAt(tape, count, reference),
      terms: (record, book) => {
        const { order } = record.trade;
        const limit = book
          ? this.limitOf(record, info, order.action === 'Buy' ? book.ask : book.bid, reference)
          : (record.restingPrice ?? order.price);
        return { action: order.action, orderType: order.order_type, limit };
      },
      open: (record) => openQuantity(record.trade.status),
      auction: (record, tape, index) => record.tape === 'odd' || tape.tickTypes[index] === 0,
      callAuction: (record, tape, index) => this.auctions.tradeFor(record, info, tape, index),
      fill: (record, fills, at) => this.fill(record, info, fills, at),
      cancelRest: (record, at, reason) => this.cancelRest(record, info, at, reason),
      tradingEndsAt: (_record, day) =>
        (info.security_type === 'FUT' || info.security_type === 'OPT') && info.last_trading_date === day
          ? expiryCloseAt(day)
          : undefined,
    };
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
