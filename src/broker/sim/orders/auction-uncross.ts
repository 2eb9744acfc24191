// The call auctions users' orders take part in: the opening (09:00 stocks; 15:00 and 08:45 futures), the 13:30
// close and a disposition stock's periodic auctions. The tape's print is the market's own uncross; every user order
// resting in the auction joins the market's own orders and the batch is uncrossed again by the exchange's rule, so
// a crossing order fills at the one auction price and a large one moves that price (market/call-auction.ts).

import type { ContractInfo, StockInfo } from '../../../domain/contracts.js';
import type { SessionPhase } from '../../../domain/order-rules.js';
import { openQuantity } from '../../../domain/orders.js';
import { type ClockMode, contractSession, tradingSession } from '../../../domain/sessions.js';
import type { TapeTrade } from '../exchange/matching.js';
import {
  type AuctionOrder,
  allot,
  marketAuctionOrders,
  openingPrintAt,
  periodicAuctions,
  uncross,
} from '../market/call-auction.js';
import type { Tape } from '../market/tape.js';
import { unitOf } from '../random.js';
import type { OrderRecord } from './trade-records.js';

/** Whether a stock matches only by periodic call auction now (a disposition stock, exchange mode). */
export function matchesByPeriodicAuction(mode: ClockMode, info: ContractInfo): boolean {
  return mode === 'exchange' && info.security_type === 'STK' && !!(info as StockInfo).disposition_match_interval_min;
}

/**
 * The phase a board-lot order meets: a disposition stock's continuous hours are one call auction after another,
 * so its orders are taken as in an auction (LMT ROD only, nothing taken on arrival).
 */
export function auctionPhaseOf(mode: ClockMode, info: ContractInfo, tape: string, phase: SessionPhase): SessionPhase {
  return phase === 'continuous' && tape === 'board' && matchesByPeriodicAuction(mode, info) ? 'closing-auction' : phase;
}

/** The instants (epoch ms) of a contract's call auctions on a day; none in always-open mode. */
function callAuctionInstants(mode: ClockMode, info: ContractInfo, day: string): Set<number> {
  if (mode !== 'exchange') return new Set();
  if (info.security_type === 'FUT' || info.security_type === 'OPT') {
    return new Set(contractSession(mode, day, info.last_trading_date).continuous.map((i) => openingPrintAt(i.start)));
  }
  const session = tradingSession(mode, 'stock', day);
  const instants = [openingPrintAt(session.continuous[0]!.start)];
  if (info.security_type === 'STK')
    instants.push(session.auctions[0]!, ...periodicAuctions(mode, info as StockInfo, day));
  return new Set(instants);
}

export class AuctionUncrossing {
  /** Each auction's outcome for the user orders in it, worked out once when the first of them meets it. */
  private readonly outcomes = new WeakMap<Tape, Map<number, Map<OrderRecord, TapeTrade>>>();
  private readonly instants = new Map<string, Set<number>>();

  constructor(
    private readonly mode: ClockMode,
    /** Every working plain order now. */
    private readonly working: () => Iterable<OrderRecord>,
    /** The trading day of a market at an instant. */
    private readonly dayAt: (record: OrderRecord, at: number) => string,
  ) {}

  /** Trade k of a board tape as one resting order meets it when it is a call auction; null when it is not. */
  tradeFor(record: OrderRecord, info: ContractInfo, tape: Tape, k: number): TapeTrade | null {
    if (record.tape !== 'board' || record.trade.order.order_lot === 'Fixing' || tape.tickTypes[k] !== 0) return null;
    if (!this.instantsOf(info, tape.day).has(tape.times[k]! / 1000)) return null;
    const byTrade = this.outcomes.get(tape) ?? new Map<number, Map<OrderRecord, TapeTrade>>();
    this.outcomes.set(tape, byTrade);
    const outcome = byTrade.get(k) ?? this.outcome(record, info, tape, k);
    byTrade.set(k, outcome);
    return outcome.get(record) ?? { price: tape.prices[k]!, volume: 0, auction: true };
  }

  private instantsOf(info: ContractInfo, day: string): Set<number> {
    const key = `${info.code}|${day}`;
    const known = this.instants.get(key);
    if (known) return known;
    if (this.instants.size > 1000) this.instants.clear();
    const instants = callAuctionInstants(this.mode, info, day);
    this.instants.set(key, instants);
    return instants;
  }

  /** The auction again with every user order in it: each order's fill, at the one new price. */
  private outcome(record: OrderRecord, info: ContractInfo, tape: Tape, k: number): Map<OrderRecord, TapeTrade> {
    const rules = tape.rules!;
    const printed = { price: tape.prices[k]!, volume: tape.volumes[k]! };
    const depth = Math.max(1, Math.round((tape.bidVolumes[k]! + tape.askVolumes[k]!) / 2));
    const market = marketAuctionOrders(printed, depth, rules, ['auction', tape.code, tape.times[k]!]);
    const users = [...this.working()]
      .filter((peer) => this.restsIn(peer, record, tape, k))
      .map((peer) => ({ peer, order: this.auctionOrderOf(peer, rules) }));
    const batch = [...market, ...users.map((user) => user.order)];
    const reference = k > 0 ? tape.prices[k - 1]! : 'reference' in info ? info.reference : printed.price;
    const result = uncross(batch, rules, reference) ?? { price: printed.price, volume: 0 };
    const ranked = users.map(({ peer, order }) => ({
      order,
      position: unitOf('auction-priority', peer.trade.order.id, tape.times[k]!),
    }));
    const quantities = allot(ranked, batch, result);
    return new Map(
      users.map(({ peer }, i) => [peer, { price: result.price, volume: quantities[i]!, auction: true }] as const),
    );
  }

  /** Whether a working order rests in auction k of the tape: same contract and board, entered before it. */
  private restsIn(peer: OrderRecord, record: OrderRecord, tape: Tape, k: number): boolean {
    if (peer.trade.contract.code !== record.trade.contract.code || peer.tape !== 'board') return false;
    if (peer.trade.order.order_lot === 'Fixing' || openQuantity(peer.trade.status) <= 0) return false;
    const auctionAt = tape.times[k]! / 1000;
    if (peer.cursor) return peer.cursor.day === tape.day && peer.cursor.count <= k;
    // A reservation released in this same pass, before the auction, that has not arrived yet.
    return peer.releaseAt !== null && peer.releaseAt <= auctionAt && this.dayAt(peer, peer.releaseAt) === tape.day;
  }

  /** A user order as the auction counts it: at its limit, a market order at the limit it may reach. */
  private auctionOrderOf(peer: OrderRecord, rules: Tape['rules'] & object): AuctionOrder {
    const { order, status } = peer.trade;
    const side = order.action;
    const limit = peer.restingPrice ?? (order.price_type === 'LMT' ? order.price : null);
    const price = limit ?? (side === 'Buy' ? rules.limitUp : rules.limitDown);
    return { side, price, quantity: openQuantity(status) };
  }
}
