// Orders at SinoPac through the bridge. Every order and deal report the SDK calls back with is applied to the order
// and reported to the gateway with its event as SinoPac sent it; after a new session the orders are read back
// (update_status) and whatever happened meanwhile is reported once, as the events it implies.

import type { AccountBook } from '../../domain/account-book.js';
import { type AccountSelector, accountKeyOf } from '../../domain/accounts.js';
import { NotFoundError } from '../../domain/errors.js';
import { type ComboTrade, OP_CODE_OK, type OpType, type Trade } from '../../domain/orders.js';
import type { Clock } from '../../domain/time.js';
import type { OrdersPort, OrderUpdate, PlaceComboInput, PlaceOrderInput, SavedOrder, SavedOrders } from '../port.js';
import { isTrackedCombo, LiveCombos } from './live-combos.js';
import { LiveOrderBook, type Report } from './live-order-book.js';
import { answerEvents, catchUp, type TrackedOrder } from './order-tracking.js';
import type { BridgeSession } from './session.js';
import type { UpstreamCall } from './upstream.js';

export class LiveOrders implements OrdersPort {
  private readonly book: LiveOrderBook;
  private readonly combos: LiveCombos;
  /** An order reported but never placed here (from another app, or before a restart): read it back once. */
  private readonly adoptSoon: () => void;

  constructor(
    private readonly call: UpstreamCall,
    private readonly accounts: AccountBook,
    clock: Clock,
    log: (line: string) => void,
    session: BridgeSession,
  ) {
    this.book = new LiveOrderBook(clock);
    this.adoptSoon = oneAtATime(async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (!this.book.hasEarly) return;
      await this.refresh();
      this.book.dropEarly(log);
    }, log);
    this.combos = new LiveCombos(call, accounts, clock, (update) => this.book.emit(update));
    session.onEvent((event) => {
      if (event.event !== 'order') return;
      const report = event.data as unknown as Report;
      if (!this.combos.receive(report) && !this.book.receive(report)) this.adoptSoon();
    });
    session.onReconnected(() => this.refresh());
  }

  async place(input: PlaceOrderInput): Promise<Trade> {
    const trade = await this.call<Trade>('place_order', {
      contract: input.contract,
      stock_order: input.stockOrder,
      futures_order: input.futuresOrder,
    });
    this.book.placed(trade);
    return structuredClone(this.book.orders.get(trade.order.id)?.trade ?? trade);
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
    const tracked = this.book.orders.get(tradeId);
    return tracked ? structuredClone(tracked.trade) : undefined;
  }

  async trades(selector?: AccountSelector): Promise<Trade[]> {
    const key = selector ? accountKeyOf(this.accounts.resolve(selector)) : null;
    return [...this.book.orders.values()]
      .filter((tracked) => key === null || tracked.accountKey === key)
      .sort((a, b) => a.placedAt - b.placedAt)
      .map((tracked) => structuredClone(tracked.trade));
  }

  placeCombo(input: PlaceComboInput): Promise<ComboTrade> {
    return this.combos.place(input, (id) => this.book.takeEarly(id));
  }

  cancelCombo(tradeId: string): Promise<ComboTrade> {
    return this.combos.cancel(tradeId);
  }

  comboTrades(selector?: AccountSelector): Promise<ComboTrade[]> {
    return this.combos.list(selector);
  }

  onOrderUpdate(listener: (update: OrderUpdate) => void): () => void {
    this.book.listeners.add(listener);
    return () => this.book.listeners.delete(listener);
  }

  /** A tracked order's record holds its trade with every deal. */
  savedTrade(saved: SavedOrder): Trade | undefined {
    const tracked = saved.record as TrackedOrder | undefined;
    return isTrackedCombo(tracked) || !tracked?.trade?.order?.id ? undefined : tracked.trade;
  }

  restore(saved: SavedOrders, options: { rollback: boolean; log: (line: string) => void }): void {
    if (options.rollback) return;
    for (const { record } of saved.orders) {
      if (isTrackedCombo(record)) {
        this.combos.restore(record);
        continue;
      }
      const tracked = record as TrackedOrder;
      if (tracked?.trade?.order?.id) this.book.orders.set(tracked.trade.order.id, tracked);
    }
  }

  /**
   * Reads every order back from SinoPac and reports what changed meanwhile (a session was down, or an order was
   * placed elsewhere); the combo trades are read back at their next listing.
   */
  async refresh(): Promise<void> {
    this.combos.invalidate();
    const fresh = await this.call<Trade[]>('trades', { refresh: true });
    for (const trade of fresh) {
      const tracked = this.book.orders.get(trade.order.id);
      if (!tracked) {
        this.book.adopt(trade);
        continue;
      }
      const before = JSON.stringify(tracked.trade.status);
      const events = catchUp(tracked, trade);
      if (events.length > 0 || JSON.stringify(tracked.trade.status) !== before)
        this.book.report(tracked, events, false);
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
    const tracked = this.book.orders.get(params.id);
    if (!tracked) {
      throw new NotFoundError('ORDER_NOT_FOUND', `order ${params.id} not found; GET /api/v1/order/trades lists them`);
    }
    const [ops, before] = [tracked.ops ?? 0, structuredClone(tracked.trade)];
    const answer = await this.call<Trade>(method, params, 'ORDER_NOT_FOUND');
    if ((tracked.ops ?? 0) === ops && done(before, answer)) {
      const events = answerEvents(tracked, answer, { op_type: opType, op_code: OP_CODE_OK, op_msg: '' });
      this.book.report(tracked, events, false);
    }
    return structuredClone(tracked.trade);
  }
}

/** Runs `work` when called, unless a run is under way; logs a failure. */
function oneAtATime(work: () => Promise<void>, log: (line: string) => void): () => void {
  let running: Promise<void> | null = null;
  return () => {
    if (running) return;
    running = work()
      .catch((error: Error) => log(`bridge: reading orders back failed: ${error.message}`))
      .finally(() => {
        running = null;
      });
  };
}

/** Whether an answer shows more cancelled than before: a quantity reduced or the rest cancelled. */
function grew(before: Trade, after: Trade): boolean {
  return after.status.cancel_quantity > before.status.cancel_quantity;
}
