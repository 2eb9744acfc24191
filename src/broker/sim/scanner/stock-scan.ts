// One stock under the scanner: the book top it showed last, the recent trade, bid and ask prices the price-move
// rules look back on, and when each rule last fired on it (cooldowns). Fed one trade at a time with the book top it
// left; answers the signals of the active rules. The rules themselves are the domain's (scanner-rules.ts).

import {
  type BookTop,
  cooledDown,
  isVolumeBurst,
  type LimitPrices,
  limitSignals,
  PRICE_MOVE_PRESET,
  PRICE_MOVE_RULES,
  PRICE_MOVE_SERIES,
  type PriceMove,
  type PricePoint,
  priceMove,
  type ScannerRule,
} from '../../../domain/scanner-rules.js';

export interface ScanSignal {
  rule: ScannerRule;
  timeUs: number;
  extra:
    | { family: 'limit'; previous_best_price: number | null; trigger_price: number; limit_price: number }
    | ({ family: 'price_move' } & PriceMove)
    | { family: 'volume'; amount: number; volume: number; price: number; threshold: number };
}

/** A trade of the stock and the book top it left behind. */
export interface ScanTrade {
  timeUs: number;
  price: number;
  /** Lots. */
  volume: number;
  /** NT$ of the trade. */
  amount: number;
  top: BookTop;
}

export class StockScan {
  private top: BookTop;
  private readonly series: Record<'trade' | 'bid' | 'ask', PricePoint[]> = { trade: [], bid: [], ask: [] };
  private readonly lastSignalUs = new Map<ScannerRule, number>();

  constructor(
    readonly limits: LimitPrices,
    /** The book top before the first trade it is fed. */
    top: BookTop,
  ) {
    this.top = { ...top };
  }

  /** The signals one trade fires among the active rules; volume_burst against `threshold` (NT$). */
  onTrade(trade: ScanTrade, active: ReadonlySet<ScannerRule>, threshold: number): ScanSignal[] {
    const signals: ScanSignal[] = [];
    const fire = (signal: ScanSignal) => {
      if (!active.has(signal.rule) || !cooledDown(signal.rule, this.lastSignalUs.get(signal.rule), trade.timeUs)) {
        return;
      }
      this.lastSignalUs.set(signal.rule, trade.timeUs);
      signals.push(signal);
    };
    for (const { rule, extra } of limitSignals(this.top, trade.top, this.limits)) {
      fire({ rule, timeUs: trade.timeUs, extra: { family: 'limit', ...extra } });
    }
    const seen = {
      trade: trade.price,
      bid: trade.top.bid !== this.top.bid ? trade.top.bid : 0,
      ask: trade.top.ask !== this.top.ask ? trade.top.ask : 0,
    };
    for (const rule of PRICE_MOVE_RULES) {
      const { series, direction } = PRICE_MOVE_SERIES[rule];
      if (seen[series] === 0 || !active.has(rule)) continue;
      const move = priceMove(
        this.series[series],
        { timeUs: trade.timeUs, price: seen[series] },
        direction,
        this.limits.ticks,
      );
      if (move) fire({ rule, timeUs: trade.timeUs, extra: { family: 'price_move', ...move } });
    }
    // The book top in force at each trade is remembered, changed or not, so a move is measured from where it stood.
    const standing = { trade: trade.price, bid: trade.top.bid, ask: trade.top.ask };
    for (const name of ['trade', 'bid', 'ask'] as const) {
      if (standing[name] !== 0) this.remember(this.series[name], { timeUs: trade.timeUs, price: standing[name] });
    }
    if (isVolumeBurst(trade.amount, threshold)) {
      fire({
        rule: 'volume_burst',
        timeUs: trade.timeUs,
        extra: { family: 'volume', amount: trade.amount, volume: trade.volume, price: trade.price, threshold },
      });
    }
    this.top = { ...trade.top };
    return signals;
  }

  /** Keeps the points of the last window only. */
  private remember(points: PricePoint[], point: PricePoint): void {
    points.push(point);
    const from = point.timeUs - PRICE_MOVE_PRESET.window_ms * 1000;
    let drop = 0;
    while (drop < points.length && points[drop]!.timeUs < from) drop++;
    if (drop > 0) points.splice(0, drop);
  }
}
