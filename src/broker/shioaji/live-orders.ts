// Orders at SinoPac through the bridge. Every order and deal report the SDK calls back with is applied to the order
// and reported to the gateway with its event as SinoPac sent it; after a new session the orders are read back
// (update_status) and whatever happened meanwhile is reported once, as the events it implies.

import type { AccountBook } from '../../domain/account-book.js';
import { type AccountSelector, accountKeyOf } from '../../domain/accounts.js';
import { NotFoundError } from '../../domain/errors.js';
import { type ComboTrade, type OrderEvent, type OrderState, orderEvent, type Trade } from '../../domain/orders.js';
import type { Clock } from '../../domain/time.js';
import type { OrdersPort, OrderUpdate, PlaceComboInput, PlaceOrderInput, SavedOrders } from '../port.js';
import {
  applyDealEvent,
  applyOrderEvent,
  catchUp,
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
    if (!this.orders.has(trade.order.id)) this.track(trade, [], true);
    this.replayEarly(trade.order.id);
    return structuredClone(this.orders.get(trade.order.id)?.trade ?? trade);
  }

  cancel(tradeId: string): Promise<Trade> {
    return this.command('cancel_order', { id: tradeId });
  }

  updatePrice(tradeId: string, price: number): Promise<Trade> {
    return this.command('update_order', { id: tradeId, price });
  }

  updateQty(tradeId: string, quantity: number): Promise<Trade> {
    return this.command('update_order', { id: tradeId, qty: quantity });
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

  private async command(method: string, params: { id: string; price?: number; qty?: number }): Promise<Trade> {
    if (!this.orders.has(params.id)) {
      throw new NotFoundError('ORDER_NOT_FOUND', `order ${params.id} not found; GET /api/v1/order/trades lists them`);
    }
    return this.call<Trade>(method, params, 'ORDER_NOT_FOUND');
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
      applyOrderEvent(tracked, report.body as OrderBody);
    }
    this.report(tracked, [event], false);
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
    const fills = structuredClone(trade);
    this.track({ ...trade, status: { ...trade.status, deals: [], deal_quantity: 0 } } as Trade, [], true);
    const tracked = this.orders.get(trade.order.id)!;
    const events = catchUp(tracked, fills);
    if (events.length > 0) this.report(tracked, events, false);
    this.replayEarly(trade.order.id);
  }

  private track(trade: Trade, events: OrderEvent[], placed: boolean): void {
    const tracked: TrackedOrder = {
      trade,
      dealKeys: [],
      accountKey: accountKeyOf(trade.order.account),
      placedAt: trade.status.order_ts ? trade.status.order_ts * 1000 : this.clock.now(),
    };
    this.orders.set(trade.order.id, tracked);
    this.report(tracked, events, placed);
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
