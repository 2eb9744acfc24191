// The trading day and the session phase of instants, as the orders ask for them several times per order. Every
// boundary they depend on (listing refreshes, session and order-entry windows) falls on a whole minute of Taiwan
// time (domain/sessions.ts, exchange/phases.ts), so all instants of one second share a day and a phase: each is
// computed once per second and kind of order, not once per question.

import type { SessionPhase } from '../../../domain/order-rules.js';
import type { StockOrderLot } from '../../../domain/orders.js';
import type { ClockMode, MarketKind } from '../../../domain/sessions.js';
import { phaseAt } from '../exchange/phases.js';
import type { SimMarket } from '../market/market.js';

interface Remembered<T> {
  second: number;
  value: T;
}

export class DayAndPhase {
  /** The latest second asked first. */
  private readonly days = new Map<MarketKind, [Remembered<string>, Remembered<string>?]>();
  private readonly phases = new Map<string, Remembered<SessionPhase>>();

  constructor(
    private readonly market: SimMarket,
    private readonly mode: ClockMode,
  ) {}

  /**
   * The trading day a market is on at an instant (SimMarket.dayAt). The last two seconds asked are remembered per
   * market: a restore asks for each deal's day and for today's in turn.
   */
  dayAt(market: MarketKind, epochMs: number): string {
    const second = Math.floor(epochMs / 1000);
    const known = this.days.get(market);
    if (known?.[0].second === second) return known[0].value;
    if (known?.[1]?.second === second) return known[1].value;
    const value = this.market.dayAt(market, epochMs);
    this.days.set(market, known ? [{ second, value }, known[0]] : [{ second, value }]);
    return value;
  }

  /** The phase an order of a market and lot kind meets at an instant (exchange/phases.ts phaseAt). */
  phaseAt(market: MarketKind, lot: StockOrderLot | null, epochMs: number): SessionPhase {
    const second = Math.floor(epochMs / 1000);
    const key = lot === null ? market : `${market}|${lot}`;
    const known = this.phases.get(key);
    if (known?.second === second) return known.value;
    const value = phaseAt(this.mode, market, lot, epochMs);
    this.phases.set(key, { second, value });
    return value;
  }
}
