// The matching of plain orders against the simulated market, through the engine combos share (resting-orders.ts):
// a plain order trades on its contract's board or odd-lot tape, at its limit or a futures MKP's protective limit, and
// each fill is one deal booked in the ledger. The exchange's book memory (exchange/book-memory.ts) keeps what the
// user's orders took of each book and got of each trade; a restart rebuilds it from the deals (replayDeal), each
// book's when it is first read.

import type { ContractInfo, StockInfo } from '../../../domain/contracts.js';
import { expiryCloseAt } from '../../../domain/final-settlement.js';
import type { SessionPhase } from '../../../domain/order-rules.js';
import { settleStatus } from '../../../domain/order-states.js';
import { type Action, type Deal, isStockTradeOrder, type OrderEvent, openQuantity } from '../../../domain/orders.js';
import { BookMemory, type BookSideName } from '../exchange/book-memory.js';
import { depthModelOf, refillHalfLife } from '../exchange/depth-model.js';
import { type Fill, protectedLimit } from '../exchange/matching.js';
import { type BookSide, bookAt } from '../market/book.js';
import { targetOf } from '../market/listings.js';
import type { SimMarket } from '../market/market.js';
import { publishedCount, type Tape } from '../market/tape.js';
import { AuctionUncrossing, matchesByPeriodicAuction } from './auction-uncross.js';
import type { DayAndPhase } from './day-and-phase.js';
import type { PreTrade } from './pre-trade.js';
import { arrive, type BookOverlay, meetTape, type RestingKind } from './resting-orders.js';
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

  /** What the user's orders took of the market's books and got of its trades; rebuilt from the deals at restore. */
  readonly memory = new BookMemory();

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
      book: (record, tape, count) =>
        bookAt(tape, count, reference, record.tape === 'board' ? depthModelOf(info, tape) : null),
      overlay: (record, tape) => this.overlayOf(record, info, tape),
      terms: (record, book) => {
        const { order } = record.trade;
        const limit = book
          ? this.limitOf(record, info, () => (order.action === 'Buy' ? book().ask : book().bid), reference)
          : (record.restingPrice ?? order.price);
        return { action: order.action, orderType: order.order_type, limit };
      },
      open: (record) => openQuantity(record.trade.status),
      auction: (record, tape, index) => record.tape === 'odd' || tape.tickTypes[index] === 0,
      callAuction: (record, tape, index) => this.auctions.tradeFor(record, info, tape, index),
      fill: (record, fills, at, taker) => this.fill(record, info, fills, at, taker),
      cancelRest: (record, at, reason) => this.cancelRest(record, info, at, reason),
      tradingEndsAt: (_record, day) =>
        (info.security_type === 'FUT' || info.security_type === 'OPT') && info.last_trading_date === day
          ? expiryCloseAt(day)
          : undefined,
    };
  }

  /** The price an order may trade at: its own for LMT, the protective limit for a futures MKP, none for MKT. */
  private limitOf(record: OrderRecord, info: ContractInfo, opposite: () => BookSide, reference: number): number | null {
    const { order } = record.trade;
    if (order.price_type === 'LMT') return order.price;
    if (order.price_type !== 'MKP' || isStockTradeOrder(order)) return null;
    const limit = protectedLimit(opposite(), order.action, this.preTrade.priceFactsOf(info), reference);
    if (limit !== null) {
      record.restingPrice = limit;
      record.trade.status.modified_price = limit;
    }
    return limit;
  }

  private overlayOf(record: OrderRecord, info: ContractInfo, tape: Tape): BookOverlay {
    const model = record.tape === 'board' ? depthModelOf(info, tape) : null;
    return {
      memory: this.memory,
      key: bookKey(tape.code, tape.day, record.tape),
      model,
      halfLifeMs: model?.halfLifeMs ?? refillHalfLife(tape),
    };
  }

  /**
   * Puts a deal of the journal (of the trading `day`) back in the book memory when its book is first read (so its tape is built then, not at
   * the restore): a deal taken on arrival took depth at its price and instant; another got part of the tape trade
   * printed at its instant.
   */
  replayDeal(record: OrderRecord, info: ContractInfo, day: string, deal: Deal, dealSeq: number): void {
    const { action } = record.trade.order;
    const taker = record.takerDeals?.includes(dealSeq) ?? false;
    const fill = { price: deal.price, quantity: deal.quantity, ts: deal.ts };
    this.memory.defer(bookKey(targetOf(info).code, day, record.tape), () => {
      const tape = this.tapeOf(record, info, day);
      replayInto(this.overlayOf(record, info, tape), action, tape, taker, fill);
    });
  }

  private fill(record: OrderRecord, info: ContractInfo, fills: Fill[], at: number, taker: boolean): OrderEvent[] {
    const { status } = record.trade;
    return fills.map((fill) => {
      const deal = {
        seq: String(status.deals.length + 1).padStart(6, '0'),
        price: fill.price,
        quantity: fill.quantity,
        ts: at / 1000,
      };
      status.deals.push(deal);
      if (taker) record.takerDeals = [...(record.takerDeals ?? []), status.deals.length];
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

/** The key of a tape's book in a book memory: by the tape's code (a continuous future's month) and day. */
export const bookKey = (code: string, day: string, kind: string) => `${code}|${day}|${kind}`;

/**
 * Puts a journaled fill back in a book memory: one taken on arrival took depth at its price and instant; another got
 * part of the tape trade printed at its instant.
 */
export function replayInto(
  overlay: BookOverlay,
  action: Action,
  tape: Tape,
  taker: boolean,
  fill: Fill & { ts: number },
) {
  const buy = action === 'Buy';
  if (taker) {
    const side: BookSideName = buy ? 'ask' : 'bid';
    overlay.memory.take(overlay.key, side, fill.price, fill.quantity, fill.ts * 1000, overlay.halfLifeMs);
    return;
  }
  const trade = tradeStampedAt(tape, fill.ts);
  if (trade >= 0) overlay.memory.share(overlay.key, buy ? 'bid' : 'ask', trade, fill.quantity);
}

/** The index of the tape trade a resting order's deal came from: the last one stamped at the deal's time. */
function tradeStampedAt(tape: Tape, dealTs: number): number {
  const us = Math.round(dealTs * 1e6);
  // A deal's ts is the trade's microseconds over 1e6: read back, it may be a microsecond off.
  for (let k = publishedCount(tape, us / 1000 + 1) - 1; k >= 0 && tape.times[k]! >= us - 1; k--) {
    if (Math.abs(tape.times[k]! - us) <= 1) return k;
  }
  return -1;
}

/**
 * Working orders in the order they meet the tape: those of one book and side by price (a buy's highest first, a
 * sell's lowest), then by when they joined the queue, so that the first to arrive at a price gets a trade's volume
 * first. Books and sides follow one another in the order of their oldest order.
 */
export function inPriority(records: OrderRecord[]): OrderRecord[] {
  const groups = new Map<string, OrderRecord[]>();
  for (const record of records) {
    const key = `${record.trade.contract.code}|${record.tape}|${record.trade.order.action}`;
    const group = groups.get(key);
    if (group) group.push(record);
    else groups.set(key, [record]);
  }
  const arrival = (record: OrderRecord) => record.queuedAt ?? record.releaseAt ?? record.placedAt;
  const price = (record: OrderRecord) => record.restingPrice ?? record.trade.order.price;
  return [...groups.values()].flatMap((group) => {
    const sign = group[0]!.trade.order.action === 'Buy' ? -1 : 1;
    return group.sort((a, b) => sign * (price(a) - price(b)) || arrival(a) - arrival(b));
  });
}
