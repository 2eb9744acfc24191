// The matching of combo orders, through the engine plain orders use (resting-orders.ts): a combo takes the depth of
// the combo's own book and rests against the combo's tape like a plain order; every fill books both legs at once, at
// prices that make the net price. The combo books remember what combo orders took of them and got of their trades
// (no latent depth past the five levels), rebuilt from the legs' deals at restart (replayDeal), each book's when it is
// first read.

import type { ContractInfo, FuturesInfo, OptionInfo } from '../../../domain/contracts.js';
import { expiryCloseAt } from '../../../domain/final-settlement.js';
import { settleStatus } from '../../../domain/order-states.js';
import { type Deal, type OpType, type OrderEvent, openQuantity, type Trade } from '../../../domain/orders.js';
import { BookMemory } from '../exchange/book-memory.js';
import { refillHalfLife } from '../exchange/depth-model.js';
import type { Fill } from '../exchange/matching.js';
import { bookAt } from '../market/book.js';
import { COMBO_SIGNS, comboCodeOf, type SimMarket } from '../market/market.js';
import { publishedCount, type Tape } from '../market/tape.js';
import type { ComboRecord, LegFill } from './combo-orders.js';
import { bookKey, replayInto } from './order-matching.js';
import { arrive, type BookOverlay, meetTape, type RestingKind } from './resting-orders.js';
import { cancelRemainder, dealReport, orderReport } from './trade-records.js';

export type LegInfos = [ContractInfo, ContractInfo];

export class ComboMatching {
  /** What combo orders took of the combo books and got of their trades. */
  readonly memory = new BookMemory();

  constructor(
    private readonly market: SimMarket,
    /** Books one leg's deal of a fill (the ledger, and the rows to journal with the change). */
    private readonly bookLeg: (fill: LegFill) => void,
  ) {}

  /** The combo arrives at the exchange: a marketable part takes the combo book's depth; the rest rests. */
  enter(record: ComboRecord, infos: LegInfos, at: number): OrderEvent[] {
    return arrive(this.kindOf(infos), record, at, true);
  }

  /** The combo tape's trades since the combo's cursor, up to now; a combo left open when its day ends expires. */
  meetTrades(record: ComboRecord, infos: LegInfos, now: number): OrderEvent[] {
    return meetTape(this.kindOf(infos), record, now);
  }

  /** What the shared engine needs of a combo of these legs: the combo's own book and tape, its net price. */
  private kindOf(infos: LegInfos): RestingKind<ComboRecord> {
    return {
      dayAt: (_record, at) => this.market.dayAt('futures', at),
      tape: (record, day) => this.market.comboTape(record.combo, day),
      book: (_record, tape, count) => bookAt(tape, count, 0),
      overlay: (_record, tape) => this.overlayOf(tape),
      terms: (record) => {
        const { order } = record.trade;
        const limit = order.price_type === 'LMT' ? order.price : null;
        return { action: order.action, orderType: order.order_type, limit };
      },
      open: (record) => openQuantity(record.trade.status),
      auction: () => false,
      fill: (record, fills, at, taker) => this.fill(record, infos, fills, at, taker),
      cancelRest: (record, at, reason) => this.cancelRest(record, infos, at, reason),
      tradingEndsAt: (_record, day) => (legExpiringOn(infos, day) ? expiryCloseAt(day) : undefined),
    };
  }

  private overlayOf(tape: Tape): BookOverlay {
    return {
      memory: this.memory,
      key: bookKey(tape.code, tape.day, 'combo'),
      model: null,
      halfLifeMs: refillHalfLife(tape),
    };
  }

  /**
   * Puts a journaled fill back in the memory, once its second leg's deal is read, when the combo's book is first read
   * (its tape is built then): the net price is the legs' prices by the combo's signs.
   */
  replayDeal(record: ComboRecord, code: string, deal: Deal): void {
    const [first, second] = record.trade.contract.legs;
    if (code !== second.code) return;
    const fill = Number(deal.seq);
    const firstDeal = record.trade.status.deals[first.code]?.[fill - 1];
    if (!firstDeal) return;
    const signs = COMBO_SIGNS[record.combo.combo_type];
    const price = roundPrice(signs[0]! * firstDeal.price + signs[1]! * deal.price);
    const day = this.market.dayAt('futures', deal.ts * 1000);
    const taker = record.takerFills?.includes(fill) ?? false;
    const { action } = record.trade.order;
    this.memory.defer(bookKey(comboCodeOf(record.combo), day, 'combo'), () => {
      const tape = this.market.comboTape(record.combo, day);
      replayInto(this.overlayOf(tape), action, tape, taker, { price, quantity: deal.quantity, ts: deal.ts });
    });
  }

  /** Each fill is one deal per leg: the first leg at its last trade, the second at what makes the net price. */
  private fill(record: ComboRecord, infos: LegInfos, fills: Fill[], at: number, taker: boolean): OrderEvent[] {
    const { status, contract } = record.trade;
    const signs = COMBO_SIGNS[record.combo.combo_type];
    const events: OrderEvent[] = [];
    for (const fill of fills) {
      const fillsBefore = status.deals[contract.legs[0].code]?.length ?? 0;
      const first = this.lastPrice(infos[0], at);
      const second = roundPrice((fill.price - signs[0]! * first) / signs[1]!);
      [first, second].forEach((price, i) => {
        const leg = contract.legs[i]!;
        status.deals[leg.code] ??= [];
        const deals = status.deals[leg.code]!;
        const deal: Deal = {
          seq: String(deals.length + 1).padStart(6, '0'),
          price,
          quantity: fill.quantity,
          ts: at / 1000,
        };
        deals.push(deal);
        const { accountKey, trade } = record;
        const dealSeq = fillsBefore * 2 + i + 1;
        this.bookLeg({ accountKey, trade, info: infos[i]!, action: leg.action, deal, dealSeq });
        events.push(dealReport(legTrade(record, i), infos[i]!, deal, true));
      });
      if (taker) record.takerFills = [...(record.takerFills ?? []), fillsBefore + 1];
      status.deal_quantity += fill.quantity;
      settleStatus(status);
      status.modified_ts = at / 1000;
    }
    return events;
  }

  private lastPrice(info: ContractInfo, at: number): number {
    const tape = this.market.tape(info, this.market.dayAt('futures', at));
    const count = publishedCount(tape, at);
    return count > 0 ? tape.prices[count - 1]! : (info as FuturesInfo | OptionInfo).reference;
  }

  cancelRest(record: ComboRecord, infos: LegInfos, at: number, reason: string): OrderEvent[] {
    cancelRemainder(record.trade.status, at, reason);
    return [comboReport(record, infos, 'Cancel', '00', reason, at)];
  }
}

/** The order report of an operation on a combo, as TAIFEX reports it: from its first leg. */
export function comboReport(
  record: ComboRecord,
  infos: LegInfos,
  op: OpType,
  code: string,
  message: string,
  at: number,
): OrderEvent {
  return orderReport(legTrade(record, 0), infos[0], op, code, message, at, true);
}

/** The combo seen from one leg, as the order and deal events of TAIFEX report it. */
function legTrade(record: ComboRecord, legIndex: number): Trade {
  const { order, status, contract } = record.trade;
  const leg = contract.legs[legIndex]!;
  return {
    contract: { security_type: leg.security_type, exchange: leg.exchange, code: leg.code, target_code: null },
    order: {
      id: order.id,
      seqno: order.seqno,
      ordno: order.ordno,
      action: leg.action,
      price: order.price,
      quantity: order.quantity,
      time_in_force: order.order_type,
      order_type: order.order_type,
      price_type: order.price_type,
      octype: order.octype,
      custom_field: '',
      account: order.account,
      ca: '',
    },
    status: { ...status, deals: status.deals[leg.code] ?? [] },
  };
}

const roundPrice = (price: number) => Math.round(price * 100) / 100;

/** Whether a leg of a combo has its last trading day on a day: the combo stops trading with it at 13:30. */
export function legExpiringOn(infos: LegInfos, day: string): boolean {
  return infos.some((info) => 'last_trading_date' in info && info.last_trading_date === day);
}
