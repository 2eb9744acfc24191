// Plain (single-contract) orders of the simulated exchange: placing one against the exchange's and the broker's
// rules, changing or cancelling it, and letting the working ones meet the market as the clock moves.

import { type AccountSelector, accountKeyOf } from '../../../domain/accounts.js';
import type { StockInfo } from '../../../domain/contracts.js';
import { NotFoundError } from '../../../domain/errors.js';
import type { OrderChange } from '../../../domain/order-change-rules.js';
import { moveStatus, settleStatus } from '../../../domain/order-states.js';
import { changeViolations, orderViolations } from '../../../domain/order-violations.js';
import {
  type Deal,
  isStockOrder,
  isStockTradeOrder,
  type OpType,
  type OrderEvent,
  type Trade,
} from '../../../domain/orders.js';
import type { ClockMode } from '../../../domain/sessions.js';
import type { Clock } from '../../../domain/time.js';
import type { PlaceOrderInput } from '../../port.js';
import type { SimAccounts } from '../accounts.js';
import type { SimContracts } from '../contracts.js';
import { nextOpening } from '../exchange/phases.js';
import { marketOf } from '../market/market.js';
import type { Ledger } from '../portfolio/ledger.js';
import { auctionPhaseOf } from './auction-uncross.js';
import { derivativeFill, stockFill } from './booked-fills.js';
import type { DayAndPhase } from './day-and-phase.js';
import type { ListingCache } from './listing-cache.js';
import type { OrderBook } from './order-book.js';
import { inPriority, type OrderMatching } from './order-matching.js';
import type { OrderReports } from './order-reports.js';
import { accountFor, instrumentOf, orderOf, selectedAccountKey } from './order-requests.js';
import type { PreTrade } from './pre-trade.js';
import {
  acknowledge,
  copyTrade,
  nameViolations,
  newTrade,
  type OrderRecord,
  orderReport,
  refuse,
} from './trade-records.js';

/** The parts of the order desk plain orders use. */
export interface PlainOrderParts {
  book: OrderBook;
  reports: OrderReports;
  ledger: Ledger;
  sessions: DayAndPhase;
  listings: ListingCache;
  preTrade: PreTrade;
  matching: OrderMatching;
  contracts: SimContracts;
  accounts: SimAccounts;
  clock: Clock;
  mode: ClockMode;
}

export class PlainOrders {
  constructor(private readonly parts: PlainOrderParts) {}

  place(input: PlaceOrderInput): Trade {
    const { book, sessions, preTrade, matching, clock, mode } = this.parts;
    const { listed, info } = instrumentOf(this.parts.contracts, input);
    const order = orderOf(input, info);
    const account = accountFor(this.parts.accounts, order.account, isStockOrder(order) ? 'S' : 'F', info.code);
    const now = clock.now();
    const trade = newTrade(info, listed.code !== info.code ? listed.code : null, book.nextIds(), order, account, now);
    const lot = order.order_lot ?? null;
    const record: OrderRecord = {
      trade,
      accountKey: accountKeyOf(account),
      market: marketOf(info),
      tape: lot === 'Odd' || lot === 'IntradayOdd' ? 'odd' : 'board',
      daytradeShort: isStockOrder(order) && order.daytrade_short,
      queueAhead: 0,
      cursor: null,
      releaseAt: null,
      placedAt: now,
    };
    const phase = auctionPhaseOf(mode, info, record.tape, sessions.phaseAt(record.market, lot, now));
    const [first, ...others] = orderViolations(preTrade.contextOf(order, info, record, phase));
    const events: OrderEvent[] = [];
    if (first) {
      refuse(trade.status, [first, ...others]);
      events.push(orderReport(record.trade, info, 'New', first.opCode, first.message, now));
    } else {
      const stock = isStockOrder(order);
      const to = phase === 'closed' ? 'PreSubmitted' : 'Submitted';
      acknowledge(trade.status, stock ? 'stock' : 'futures', stock ? 0 : order.price, order.quantity, now, to);
      if (phase === 'closed') record.releaseAt = nextOpening(mode, record.market, lot, now);
      events.push(orderReport(record.trade, info, 'New', '00', '', now));
      if (phase !== 'closed') events.push(...matching.enter(record, info, now, phase));
    }
    this.commit(record, events, true);
    return copyTrade(record.trade);
  }

  /** A cancel, a new price or a smaller quantity; a change the rules refuse is reported and answered with the reason. */
  change(tradeId: string, change: OrderChange): Trade {
    const { listings, preTrade, clock } = this.parts;
    const record = this.parts.book.get(tradeId);
    if (!record) throw new NotFoundError('ORDER_NOT_FOUND', `no order with trade_id '${tradeId}'`);
    const info = listings.of(record);
    const now = clock.now();
    const { trade } = record;
    const opType: OpType =
      change.kind === 'cancel' ? 'Cancel' : change.kind === 'update_price' ? 'UpdatePrice' : 'UpdateQty';
    const [first, ...others] = changeViolations({
      change,
      order: { price_type: trade.order.price_type, order_lot: trade.order.order_lot },
      status: trade.status,
      instrument: preTrade.priceFactsOf(info),
    });
    if (first) {
      this.commit(record, [orderReport(record.trade, info, opType, first.opCode, first.message, now)]);
      const answer = copyTrade(trade);
      nameViolations(answer.status, [first, ...others]);
      return answer;
    }
    this.commit(record, this.applied(record, change, now));
    return copyTrade(trade);
  }

  /** The account a listing asks for; null when the selector names none (every account). */
  accountKeyOf(selector: AccountSelector | undefined): string | null {
    return selectedAccountKey(this.parts.accounts, selector);
  }

  /** Releases orders whose session opened and lets working orders meet the trades printed since last time. */
  sync(now: number): void {
    const { book, listings, matching, sessions } = this.parts;
    for (const record of inPriority(book.workingNow())) {
      if (record.releaseAt !== null && now < record.releaseAt) continue;
      const info = listings.of(record);
      const events: OrderEvent[] = [];
      if (record.releaseAt !== null) {
        const at = record.releaseAt;
        record.releaseAt = null;
        moveStatus(record.trade.status, 'Submitted');
        const lot = record.trade.order.order_lot ?? null;
        events.push(...matching.enter(record, info, at, sessions.phaseAt(record.market, lot, at)));
      }
      events.push(...matching.meetTrades(record, info, now));
      if (events.length > 0) this.commit(record, events);
    }
  }

  /** Forgets what the orders did to the books, before the journal's deals are replayed (replayDeal). */
  forgetBooks(): void {
    this.parts.matching.memory.clear();
  }

  /**
   * Puts a deal of the journal back in the exchange's memory of the books, as of the listing of its day. Only a deal of
   * the market's current day matters: the memory is kept per day's tape, and an order left open when its day ends
   * expires, so a past day's book is never matched against again (and its tape is not built at start-up).
   */
  replayDeal(record: OrderRecord, deal: Deal, dealSeq: number): void {
    const { sessions, listings, matching, clock } = this.parts;
    const day = sessions.dayAt(record.market, deal.ts * 1000);
    if (day !== sessions.dayAt(record.market, clock.now())) return;
    const info = listings.on(record.trade.contract.code, day);
    if (info) matching.replayDeal(record, info, day, deal, dealSeq);
  }

  /** What a deal books in the ledger: a stock fill, or a futures or options fill, as of the listing of its day. */
  bookedFill(record: OrderRecord, deal: Deal, dealSeq: number) {
    const { sessions, listings } = this.parts;
    const context = {
      accountKey: record.accountKey,
      trade: record.trade,
      deal,
      dealSeq,
      day: sessions.dayAt(record.market, deal.ts * 1000),
    };
    const info = listings.on(record.trade.contract.code, context.day) ?? listings.of(record);
    const { order } = record.trade;
    if (isStockTradeOrder(order)) return stockFill(context, order, info as StockInfo, record.daytradeShort);
    return derivativeFill(context, info, order.action, order.octype);
  }

  /** The events of a change the rules allow, applied to the order. */
  private applied(record: OrderRecord, change: OrderChange, now: number): OrderEvent[] {
    const { matching, sessions, listings } = this.parts;
    const info = listings.of(record);
    const { trade } = record;
    if (change.kind === 'cancel') return matching.cancelRest(record, info, now, '');
    trade.status.modified_ts = now / 1000;
    if (change.kind === 'update_qty') {
      trade.status.order_quantity -= change.quantity;
      trade.status.cancel_quantity += change.quantity;
      // An order waiting for the session to open stays PreSubmitted; only a reduction to nothing closes it.
      if (record.releaseAt === null || trade.status.order_quantity === 0) settleStatus(trade.status, 'cancel');
      return [orderReport(record.trade, info, 'UpdateQty', '00', '', now)];
    }
    trade.order.price = change.price;
    trade.status.modified_price = change.price;
    const events = [orderReport(record.trade, info, 'UpdatePrice', '00', '', now)];
    if (record.releaseAt === null) {
      // A new price is a new place in the queue: the order re-enters the book as if it just arrived.
      const lot = trade.order.order_lot ?? null;
      events.push(...matching.enter(record, info, now, sessions.phaseAt(record.market, lot, now)));
    }
    return events;
  }

  /** Reports the order's change and keeps it. */
  private commit(record: OrderRecord, events: OrderEvent[], placed = false): void {
    this.parts.reports.order(record, events, placed);
    this.parts.book.remember(record);
  }
}
