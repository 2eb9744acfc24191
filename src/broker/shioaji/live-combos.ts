// Combo orders at SinoPac through the bridge: reported to the gateway like plain orders, so their order and deal
// events reach the stream once and the blotter survives a restart. Their status is SinoPac's combo list, read back at
// the first listing of each session and after every report.

import type { AccountBook } from '../../domain/account-book.js';
import { type AccountSelector, accountKeyOf } from '../../domain/accounts.js';
import { NotFoundError } from '../../domain/errors.js';
import { type ComboTrade, type OrderEvent, orderEvent } from '../../domain/orders.js';
import type { Clock } from '../../domain/time.js';
import type { OrderUpdate, PlaceComboInput } from '../port.js';
import type { Report } from './live-order-book.js';
import type { UpstreamCall } from './upstream.js';

/** What the journal keeps of a combo: the trade as last read, marked so a restore tells it from a plain order. */
export interface TrackedCombo {
  combo: true;
  trade: ComboTrade;
  accountKey: string;
  placedAt: number;
}

export const isTrackedCombo = (record: unknown): record is TrackedCombo =>
  typeof record === 'object' && record !== null && (record as TrackedCombo).combo === true;

export class LiveCombos {
  private readonly combos = new Map<string, TrackedCombo>();
  /** SinoPac's combo list is read back at the next listing: at the start of a session, and after a report. */
  private stale = true;

  constructor(
    private readonly call: UpstreamCall,
    private readonly accounts: AccountBook,
    private readonly clock: Clock,
    private readonly report: (update: OrderUpdate) => void,
  ) {}

  async place(input: PlaceComboInput, takeEarly: (id: string) => Report[]): Promise<ComboTrade> {
    const trade = await this.call<ComboTrade>('place_comboorder', {
      legs: input.legs,
      combo_type: input.comboType,
      order: input.order,
    });
    const tracked = this.track(trade);
    this.publish(tracked, [], true);
    for (const report of takeEarly(trade.order.id)) this.receive(report);
    return structuredClone(tracked.trade);
  }

  async cancel(tradeId: string): Promise<ComboTrade> {
    const tracked = this.combos.get(tradeId);
    if (!tracked) {
      throw new NotFoundError(
        'ORDER_NOT_FOUND',
        `combo ${tradeId} not found; POST /api/v1/order/combotrades lists them`,
      );
    }
    tracked.trade = await this.call<ComboTrade>('cancel_comboorder', { id: tradeId }, 'ORDER_NOT_FOUND');
    this.publish(tracked, [], false);
    return structuredClone(tracked.trade);
  }

  async list(selector?: AccountSelector): Promise<ComboTrade[]> {
    if (this.stale) await this.readBack();
    const key = selector ? accountKeyOf(this.accounts.resolve(selector)) : null;
    return [...this.combos.values()]
      .filter((tracked) => key === null || tracked.accountKey === key)
      .sort((a, b) => a.placedAt - b.placedAt)
      .map((tracked) => structuredClone(tracked.trade));
  }

  /** Publishes a report of one of its combos; false when the id is no combo of ours. */
  receive(report: Report): boolean {
    const body = report.body as { trade_id?: string; order?: { id: string } };
    const tracked = this.combos.get(body.trade_id ?? body.order?.id ?? '');
    if (!tracked) return false;
    this.publish(tracked, [orderEvent(report.state, report.body as never) as OrderEvent], false);
    this.stale = true;
    return true;
  }

  restore(record: TrackedCombo): void {
    this.combos.set(record.trade.order.id, record);
  }

  /** A new session: the combo list is read back at its next listing. */
  invalidate(): void {
    this.stale = true;
  }

  private async readBack(): Promise<void> {
    const fresh = await this.call<ComboTrade[]>('combo_trades', { refresh: true });
    this.stale = false;
    for (const trade of fresh) {
      const tracked = this.combos.get(trade.order.id);
      if (!tracked) {
        this.publish(this.track(trade), [], true);
      } else if (JSON.stringify(tracked.trade.status) !== JSON.stringify(trade.status)) {
        tracked.trade = trade;
        this.publish(tracked, [], false);
      }
    }
  }

  private track(trade: ComboTrade): TrackedCombo {
    const tracked: TrackedCombo = {
      combo: true,
      trade,
      accountKey: accountKeyOf(trade.order.account),
      placedAt: trade.status.order_ts ? trade.status.order_ts * 1000 : this.clock.now(),
    };
    this.combos.set(trade.order.id, tracked);
    return tracked;
  }

  private publish(tracked: TrackedCombo, events: OrderEvent[], placed: boolean): void {
    const { trade } = tracked;
    const [first, second] = trade.contract.legs;
    const firstDeals = trade.status.deals[first.code] ?? [];
    const secondDeals = trade.status.deals[second.code] ?? [];
    this.report({
      order: {
        id: trade.order.id,
        accountKey: tracked.accountKey,
        code: `${first.code}/${second.code}`,
        placedAt: tracked.placedAt,
      },
      status: { status: trade.status.status, msg: trade.status.msg },
      record: () => structuredClone(tracked),
      // Each fill made one deal per leg: journaled fill by fill, first leg first, as the simulator does.
      deals: firstDeals.flatMap((deal, i) => [
        { code: first.code, action: first.action, deal },
        ...(secondDeals[i] ? [{ code: second.code, action: second.action, deal: secondDeals[i] }] : []),
      ]),
      events,
      ledger: [],
      placed,
      at: this.clock.now(),
    });
  }
}
