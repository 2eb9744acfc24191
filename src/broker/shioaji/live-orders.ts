// Orders at SinoPac through the bridge. Every order and deal report the SDK calls back with is applied to the order
// and reported to the gateway with its event as SinoPac sent it; after a new session the orders are read back
// (update_status) and whatever happened meanwhile is reported once, as the events it implies.

import type { AccountBook } from '../../domain/account-book.js';
import { type AccountSelector, accountKeyOf } from '../../domain/accounts.js';
import { NotFoundError } from '../../domain/errors.js';
import {
  type ComboTrade,
  OP_CODE_OK,
  type OpType,
  type OrderEvent,
  type OrderState,
  orderEvent,
  type Trade,
} from '../../domain/orders.js';
import type { Clock } from '../../domain/time.js';
import type { OrdersPort, OrderUpdate, PlaceComboInput, PlaceOrderInput, SavedOrders } from '../port.js';
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
import type { BridgeSession } from './session.js';
import type { UpstreamCall } from './upstream.js';

interface Report {
  state: OrderState;
  body: OrderBody | DealBody;
}

export class LiveOrders implements OrdersPort {
  private readonly orders = new Map<string, TrackedOrder>();
  /** Reports of orders not known yet: placed from elsewhere, or reported before place_order answered. */
  private readonly early = new Map<string, Report[]>();
  private readonly listeners = new Set<(update: OrderUpdate) => void>();
  private adopting: Promise<void> | null = null;

  constructor(
    private readonly call: UpstreamCall,
    private readonly accounts: AccountBook,
    private readonly clock: Clock,
    private readonly log: (line: string) => void,
    session: BridgeSession,
  ) {
    session.onEvent((event) => {
      if (event.event === 'order') this.receive(event.data as unknown as Report);
    });
    session.onReconnected(() => this.reconcile());
  }

  async place(input: PlaceOrderInput): Promise<Trade> {
    const trade = await this.call<Trade>('place_order', {
      contract: input.contract,
      stock_order: input.stockOrder,
      futures_order: input.futuresOrder,
    });
    if (!this.orders.has(trade.order.id)) this.placed(trade);
    this.replayEarly(trade.order.id);
    return structuredClone(this.orders.get(trade.order.id)?.trade ?? trade);
  }

  cancel(tradeId: string): Promise<Trade> {
    return this.command('cancel_order', { id: tradeId }, 'Cancel', (before, after) =>
      after.status.status === 'Cancelled' ? before.status.status !== 'Cancelled' : grew(before, after),
    );
  }

  updatePrice(tradeId: string, price: number): Promise<Trade> {
    return this.command('update_order', { id: tradeId, price }, 'UpdatePrice', (_, after) => {
      return after.status.modified_price === price;
    });
  }

  updateQty(tradeId: string, quantity: number): Promise<Trade> {
    return this.command('update_order', { id: tradeId, qty: quantity }, 'UpdateQty', grew);
  }

  async trade(tradeId: string): Promise<Trade | undefined> {
    const tracked = this.orders.get(tradeId);
    return tracked ? structuredClone(tracked.trade) : undefined;
  }

  async trades(selector?: AccountSelector): Promise<Trade[]> {
    const key = selector ? accountKeyOf(this.accounts.resolve(selector)) : null;
    return [...this.orders.values()]
      .filter((tracked) => key === null || tracked.accountKey === key)
      .sort((a, b) => a.placedAt - b.placedAt)
      .map((tracked) => structuredClone(tracked.trade));
  }

  placeCombo(input: PlaceComboInput): Promise<ComboTrade> {
    return this.call<ComboTrade>('place_comboorder', {
      legs: input.legs,
      combo_type: input.comboType,
      order: input.order,
    });
  }

  cancelCombo(tradeId: string): Promise<ComboTrade> {
    return this.call<ComboTrade>('cancel_comboorder', { id: tradeId }, 'ORDER_NOT_FOUND');
  }

  async comboTrades(selector?: AccountSelector): Promise<ComboTrade[]> {
    const all = await this.call<ComboTrade[]>('combo_trades', { refresh: false });
    if (!selector) return all;
    const key = accountKeyOf(this.accounts.resolve(selector));
    return all.filter((trade) => accountKeyOf(trade.order.account) === key);
  }

  onOrderUpdate(listener: (update: OrderUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  restore(saved: SavedOrders, options: { rollback: boolean; log: (line: string) => void }): void {
    if (options.rollback) return;
    for (const { record } of saved.orders) {
      const tracked = record as TrackedOrder;
      if (tracked?.trade?.order?.id) this.orders.set(tracked.trade.order.id, tracked);
    }
  }

  /** Reads every order back from SinoPac and reports what changed while the session was down. */
  async reconcile(): Promise<void> {
    const fresh = await this.call<Trade[]>('trades', { refresh: true });
    for (const trade of fresh) {
      const tracked = this.orders.get(trade.order.id);
      if (!tracked) {
        this.adopt(trade);
        continue;
      }
      const before = JSON.stringify(tracked.trade.status);
      const events = catchUp(tracked, trade);
      if (events.length > 0 || JSON.stringify(tracked.trade.status) !== before) this.report(tracked, events, false);
    }
  }

  /**
   * Sends a command on a known order. Its change is reported before it is answered: from SinoPac's order event when it
   * came first, else from the answer when `done` sees the change in it (the event, when it comes, is its echo).
   */
  private async command(
    method: string,
    params: { id: string; price?: number; qty?: number },
    opType: OpType,
    done: (before: Trade, after: Trade) => boolean,
  ): Promise<Trade> {
    const tracked = this.orders.get(params.id);
    if (!tracked) {
      throw new NotFoundError('ORDER_NOT_FOUND', `order ${params.id} not found; GET /api/v1/order/trades lists them`);
    }
    const [ops, before] = [tracked.ops ?? 0, structuredClone(tracked.trade)];
    const answer = await this.call<Trade>(method, params, 'ORDER_NOT_FOUND');
    if ((tracked.ops ?? 0) === ops && done(before, answer)) {
      const events = answerEvents(tracked, answer, { op_type: opType, op_code: OP_CODE_OK, op_msg: '' });
      this.report(tracked, events, false);
    }
    return structuredClone(tracked.trade);
  }

  private receive(report: Report): void {
    const id = orderIdOf(report.state, report.body);
    const tracked = this.orders.get(id);
    if (!tracked) {
      this.early.set(id, [...(this.early.get(id) ?? []), report]);
      this.adoptSoon();
      return;
    }
    this.apply(tracked, report);
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

  /**
   * A new order as place_order answered it, reported with its New event (SinoPac's when it came first, else one from
   * the answer) and the events of the fills the answer holds.
   */
  private placed(trade: Trade): void {
    const id = trade.order.id;
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
      const opCode = failed ? failedCode(trade.status.status_code) : OP_CODE_OK;
      events = answerEvents(tracked, trade, {
        op_type: 'New',
        op_code: opCode,
        op_msg: failed ? trade.status.msg : '',
      });
    }
    this.report(tracked, events, true);
  }

  private replayEarly(id: string): void {
    const reports = this.early.get(id);
    this.early.delete(id);
    const tracked = this.orders.get(id);
    if (tracked) for (const report of reports ?? []) this.apply(tracked, report);
  }

  /** An order reported but never placed here (from another app, or before a restart): read it back once. */
  private adoptSoon(): void {
    if (this.adopting) return;
    this.adopting = new Promise<void>((resolve) => setTimeout(resolve, 200))
      .then(() => (this.early.size > 0 ? this.reconcile() : undefined))
      .catch((error: Error) => this.log(`bridge: reading orders back failed: ${error.message}`))
      .finally(() => {
        this.adopting = null;
      });
  }

  /** An order first seen in a read-back: reported with every fill it has, then whatever came early for it. */
  private adopt(trade: Trade): void {
    const tracked = this.track({ ...trade, status: { ...trade.status, deals: [], deal_quantity: 0 } } as Trade);
    this.report(tracked, [], true);
    const events = catchUp(tracked, trade);
    if (events.length > 0) this.report(tracked, events, false);
    this.replayEarly(trade.order.id);
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

  private report(tracked: TrackedOrder, events: OrderEvent[], placed: boolean): void {
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
    for (const listener of this.listeners) listener(update);
  }
}

/** Whether an answer shows more cancelled than before: a quantity reduced or the rest cancelled. */
function grew(before: Trade, after: Trade): boolean {
  return after.status.cancel_quantity > before.status.cancel_quantity;
}

/** The op_code of a refused New: SinoPac's status code, or a code that is not 00 when it gave none. */
function failedCode(statusCode: string): string {
  return statusCode && statusCode !== OP_CODE_OK ? statusCode : '99';
}
