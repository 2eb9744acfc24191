// The matching of combo orders: a combo takes the depth of the combo's own book and rests against the combo's tape
// like a single order (exchange/matching.ts); every fill books both legs at once, at prices that make the net price.

import type { ContractInfo, FuturesInfo, OptionInfo } from '../../../domain/contracts.js';
import { settleStatus } from '../../../domain/order-states.js';
import { type Deal, type OpType, type OrderEvent, openQuantity, type Trade } from '../../../domain/orders.js';
import { displayedAt, type Fill, meetTrade, takeOnArrival } from '../exchange/matching.js';
import { bookAt } from '../market/book.js';
import { COMBO_SIGNS, type SimMarket } from '../market/market.js';
import { publishedCount } from '../market/tape.js';
import type { ComboRecord, LegFill } from './combo-orders.js';
import { cancelRemainder, dealReport, orderReport } from './trade-records.js';

export type LegInfos = [ContractInfo, ContractInfo];

export class ComboMatching {
  constructor(
    private readonly market: SimMarket,
    /** Books one leg's deal of a fill (the ledger, and the rows to journal with the change). */
    private readonly bookLeg: (fill: LegFill) => void,
  ) {}

  /** The combo arrives at the exchange: a marketable part takes the combo book's depth; the rest rests. */
  enter(record: ComboRecord, infos: LegInfos, at: number): OrderEvent[] {
    const day = this.market.dayAt('futures', at);
    const tape = this.market.comboTape(record.combo, day);
    const count = publishedCount(tape, at);
    record.cursor = { day, count };
    const { order } = record.trade;
    const book = bookAt(tape, count, 0);
    const limit = order.price_type === 'LMT' ? order.price : null;
    const opposite = order.action === 'Buy' ? book.ask : book.bid;
    const open = openQuantity(record.trade.status);
    const events = this.fill(record, infos, takeOnArrival(opposite, order.action, limit, open, order.order_type), at);
    if ((order.order_type !== 'ROD' || limit === null) && openQuantity(record.trade.status) > 0) {
      events.push(...this.cancelRest(record, infos, at, ''));
    } else if (limit !== null) {
      record.queueAhead = displayedAt(order.action === 'Buy' ? book.bid : book.ask, limit);
    }
    return events;
  }

  /** The combo tape's trades since the combo's cursor, up to now; a combo left open when its day ends expires. */
  meetTrades(record: ComboRecord, infos: LegInfos, now: number): OrderEvent[] {
    if (!record.cursor) return [];
    const tape = this.market.comboTape(record.combo, record.cursor.day);
    const upTo = publishedCount(tape, now);
    const { order, status } = record.trade;
    const events: OrderEvent[] = [];
    for (let k = record.cursor.count; k < upTo && openQuantity(status) > 0; k++) {
      const met = meetTrade(
        { action: order.action, price: order.price, remaining: openQuantity(status), queueAhead: record.queueAhead },
        { price: tape.prices[k]!, volume: tape.volumes[k]!, auction: false },
      );
      record.queueAhead = met.queueAhead;
      if (met.fill) events.push(...this.fill(record, infos, [met.fill], tape.times[k]! / 1000));
    }
    record.cursor.count = upTo;
    if (openQuantity(status) > 0 && this.market.dayAt('futures', now) !== record.cursor.day) {
      events.push(...this.cancelRest(record, infos, now, 'the order expired at the end of its trading day'));
    }
    return events;
  }

  /** Each fill is one deal per leg: the first leg at its last trade, the second at what makes the net price. */
  private fill(record: ComboRecord, infos: LegInfos, fills: Fill[], at: number): OrderEvent[] {
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
