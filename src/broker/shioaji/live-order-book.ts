// The gateway's view of the orders at SinoPac: each order as last reported, the reports of orders not known yet, and
// every change reported to the listeners once, with the events SinoPac sent or the ones a command's answer implies.

import { accountKeyOf } from '../../domain/accounts.js';
import { OP_CODE_OK, type OrderEvent, type OrderState, orderEvent, type Trade } from '../../domain/orders.js';
import type { Clock } from '../../domain/time.js';
import type { OrderUpdate } from '../port.js';
import {
  absorb,
  answerEvents,
  applyDealEvent,
  applyOrderEvent,
  catchUp,
  consumeEcho,
  type DealBody,
  isDealState,
  type OrderBody,
  orderIdOf,
  type TrackedOrder,
} from './order-tracking.js';

export interface Report {
  state: OrderState;
  body: OrderBody | DealBody;
}

export class LiveOrderBook {
  readonly orders = new Map<string, TrackedOrder>();
  /** Reports of orders not known yet: placed from elsewhere, or reported before place_order answered. */
  private readonly early = new Map<string, Report[]>();
  readonly listeners = new Set<(update: OrderUpdate) => void>();

  constructor(private readonly clock: Clock) {}

  get hasEarly(): boolean {
    return this.early.size > 0;
  }

  /** The reports kept for an id, handed over once (to a combo placed under it). */
  takeEarly(id: string): Report[] {
    const reports = this.early.get(id) ?? [];
    this.early.delete(id);
    return reports;
  }

  /** Forgets the reports of ids a read-back did not find, naming them in the log. */
  dropEarly(log: (line: string) => void): void {
    for (const [id, reports] of this.early) {
      log(`bridge: ${reports.length} report(s) of order ${id}, which SinoPac does not list, were dropped`);
    }
    this.early.clear();
  }

  emit(update: OrderUpdate): void {
    for (const listener of this.listeners) listener(update);
  }

  /** Applies a report of SinoPac's; false when its order is not known yet (the report is kept for it). */
  receive(report: Report): boolean {
    const id = orderIdOf(report.state, report.body);
    const tracked = this.orders.get(id);
    if (!tracked) {
      this.early.set(id, [...(this.early.get(id) ?? []), report]);
      return false;
    }
    this.apply(tracked, report);
    return true;
  }

  /**
   * A new order as place_order answered it, reported with its New event (SinoPac's when it came first, else one from
   * the answer) and the events of the fills the answer holds; then whatever else came early for it.
   */
  placed(trade: Trade): void {
    const id = trade.order.id;
    if (this.orders.has(id)) {
      this.replayEarly(id);
      return;
    }
    const early = this.early.get(id) ?? [];
    const index = early.findIndex((report) => !isDealState(report.state));
    const tracked = this.track({ ...trade, status: { ...trade.status, deals: [], deal_quantity: 0 } } as Trade);
    let events: OrderEvent[];
    if (index >= 0) {
      const [news] = early.splice(index, 1);
      applyOrderEvent(tracked, news!.body as OrderBody);
      tracked.ops = 1;
      events = [orderEvent(news!.state, news!.body as never) as OrderEvent, ...absorb(tracked, trade)];
    } else {
      const failed = trade.status.status === 'Failed';
      events = answerEvents(tracked, trade, {
        op_type: 'New',
        op_code: failed ? failedCode(trade.status.status_code) : OP_CODE_OK,
        op_msg: failed ? trade.status.msg : '',
      });
    }
    this.report(tracked, events, true);
    this.replayEarly(id);
  }

  /** An order first seen in a read-back: reported with every fill it has, then whatever came early for it. */
  adopt(trade: Trade): void {
    const tracked = this.track({ ...trade, status: { ...trade.status, deals: [], deal_quantity: 0 } } as Trade);
    this.report(tracked, [], true);
    const events = catchUp(tracked, trade);
    if (events.length > 0) this.report(tracked, events, false);
    this.replayEarly(trade.order.id);
  }

  report(tracked: TrackedOrder, events: OrderEvent[], placed: boolean): void {
    const { trade } = tracked;
    const update: OrderUpdate = {
      order: {
        id: trade.order.id,
        accountKey: tracked.accountKey,
        code: trade.contract.code,
        placedAt: tracked.placedAt,
      },
      status: { status: trade.status.status, msg: trade.status.msg },
      record: () => structuredClone(tracked),
      deals: trade.status.deals.map((deal) => ({ code: trade.contract.code, action: trade.order.action, deal })),
      events,
      ledger: [],
      placed,
      at: this.clock.now(),
    };
    this.emit(update);
  }

  private apply(tracked: TrackedOrder, report: Report): void {
    const event = orderEvent(report.state, report.body as never) as OrderEvent;
    if (isDealState(report.state)) {
      if (!applyDealEvent(tracked, report.body as DealBody)) return;
    } else {
      if (consumeEcho(tracked, report.body as OrderBody)) return;
      applyOrderEvent(tracked, report.body as OrderBody);
      tracked.ops = (tracked.ops ?? 0) + 1;
    }
    this.report(tracked, [event], false);
  }

  private replayEarly(id: string): void {
    const reports = this.early.get(id);
    this.early.delete(id);
    const tracked = this.orders.get(id);
    if (tracked) for (const report of reports ?? []) this.apply(tracked, report);
  }

  private track(trade: Trade): TrackedOrder {
    const tracked: TrackedOrder = {
      trade,
      dealKeys: [],
      accountKey: accountKeyOf(trade.order.account),
      placedAt: trade.status.order_ts ? trade.status.order_ts * 1000 : this.clock.now(),
    };
    this.orders.set(trade.order.id, tracked);
    return tracked;
  }
}

/** The op_code of a refused New: SinoPac's status code, or a code that is not 00 when it gave none. */
function failedCode(statusCode: string): string {
  return statusCode && statusCode !== OP_CODE_OK ? statusCode : '99';
}
