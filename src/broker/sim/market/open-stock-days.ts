// A stock's day on the always-open clock: continuous trading from the session's start and one print of the day's
// close at its last second, drawn forward in time (forward-tape.ts) so that the trades up to an instant cost what
// they are, not the whole day (a Friday's session runs to Monday midnight). The draws of the days asked for last are
// kept where they stopped (bounded by count and bytes), so asking again for a later instant costs only the trades in
// between, and for an earlier one nothing.

import { previousTradingDay } from '../../../domain/calendar.js';
import type { StockInfo } from '../../../domain/contracts.js';
import { closeAnchor, type TradingSession, tradingSession } from '../../../domain/sessions.js';
import { SECURITIES_BY_CODE } from '../catalog/catalog.js';
import { quoteShape } from '../exchange/spread-model.js';
import { alwaysOpenRate, meanStockTradeLots, type RateBins, rateBins, sessionTradeMean } from './activity.js';
import { type DailyModel, endOfDayLog, FOLLOWERS } from './daily.js';
import type { MarketFactors } from './factors.js';
import { countTrades, type FiguresSoFar, type ForwardDay, ForwardDraw } from './forward-tape.js';
import type { Tape } from './tape.js';

const MODE = 'always-open';
/** Trade counts kept (one number a stock and day): counting a day's trades draws all its sizes. */
const COUNTS_KEPT = 20_000;
/** Draws kept: every listed stock's day, and another day's of the busiest names. */
export const DRAWS_KEPT = 4_000;
/** Bytes of the draws' arrays kept: the whole listing's Friday-to-Monday day is several times more. */
export const DRAW_BYTES_KEPT = 256e6;
/** Draws for figures kept: a few hundred bytes each. */
const FIGURE_DRAWS_KEPT = 8_000;

export class OpenStockDays {
  private lastBins: { day: string; bins: RateBins } | null = null;
  private readonly tradeCounts = new Map<string, number>();
  /** Draws by stock and day, the most recently used last, with the bytes they held when last used. */
  private readonly draws = new Map<string, { draw: ForwardDraw; bytes: number }>();
  private drawBytes = 0;
  /** Draws for figures only, by stock and day, with the last instant asked for. */
  private readonly figureDraws = new Map<string, { draw: ForwardDraw; untilMs: number }>();

  constructor(
    private readonly seed: number,
    private readonly daily: DailyModel,
    private readonly factors: MarketFactors,
    /** Lots a stock trades over its session of a day. */
    private readonly volumeOf: (code: string, day: string) => number,
    private readonly bounds = { count: DRAWS_KEPT, bytes: DRAW_BYTES_KEPT },
  ) {}

  /** The draws kept and the bytes of their arrays. */
  get kept(): { count: number; bytes: number } {
    return { count: this.draws.size, bytes: this.drawBytes };
  }

  /**
   * The trades of a stock's day up to an instant (epoch ms; Infinity for the whole day). The tape's arrays are views
   * of the day's draw and are never changed afterwards (forward-tape.ts).
   */
  tape(info: StockInfo, day: string, untilMs: number): Tape {
    const key = `${info.code}|${day}`;
    const entry = this.draws.get(key) ?? { draw: this.newDraw(info, day, key), bytes: 0 };
    const tape = entry.draw.until(untilMs);
    this.draws.delete(key);
    this.draws.set(key, entry);
    this.drawBytes += entry.draw.bytes - entry.bytes;
    entry.bytes = entry.draw.bytes;
    while (this.draws.size > this.bounds.count || (this.draws.size > 1 && this.drawBytes > this.bounds.bytes)) {
      const [oldest, evicted] = this.draws.entries().next().value!;
      this.draws.delete(oldest);
      this.drawBytes -= evicted.bytes;
    }
    return tape;
  }

  /**
   * A stock's figures of a day up to an instant (open, high, low, close, volume, amount, the last trade's quote),
   * drawn without keeping the trades: a later instant costs the trades in between, an earlier one a fresh draw.
   */
  figures(info: StockInfo, day: string, untilMs: number): FiguresSoFar {
    const key = `${info.code}|${day}`;
    let entry = this.figureDraws.get(key);
    if (!entry || entry.untilMs > untilMs) entry = { draw: this.newDraw(info, day, key, false), untilMs };
    this.figureDraws.delete(key);
    if (this.figureDraws.size >= FIGURE_DRAWS_KEPT) this.figureDraws.delete(this.figureDraws.keys().next().value!);
    this.figureDraws.set(key, entry);
    entry.untilMs = untilMs;
    return entry.draw.figuresUntil(untilMs);
  }

  private newDraw(info: StockInfo, day: string, key: string, keepTrades = true): ForwardDraw {
    const plan = this.dayOf(info, day);
    let trades = this.tradeCounts.get(key);
    if (trades === undefined) {
      trades = countTrades(plan);
      if (this.tradeCounts.size >= COUNTS_KEPT) this.tradeCounts.clear();
      this.tradeCounts.set(key, trades);
    }
    return new ForwardDraw(plan, trades, keepTrades);
  }

  private dayOf(info: StockInfo, day: string): ForwardDay {
    const follower = FOLLOWERS.get(info.code)!;
    const session = tradingSession(MODE, 'stock', day);
    const closingVolume = 1;
    const volume = Math.max(1, this.volumeOf(info.code, day) - closingVolume);
    const rules = { ticks: follower.ticks!, limitUp: info.limit_up, limitDown: info.limit_down };
    const previous = previousTradingDay(day);
    const end = closeAnchor(MODE, day);
    const reference = this.daily.closeOf(follower.code, previous);
    const logFrom = Math.log(reference);
    const logTo = endOfDayLog(this.daily, follower, day, reference);
    return {
      code: info.code,
      day,
      keys: [this.seed, 'tape', MODE, info.code, day],
      volume,
      meanTrade: sessionTradeMean(MODE, session, volume, stockTradeLots(info)),
      bins: this.sessionBins(session),
      closeAtMs: session.end - 1000,
      closingVolume,
      closePrice: this.daily.closeOf(info.code, day),
      shareAt: (ms) => this.factors.clock.fractionAt(previous, day, ms),
      trendAt: (ms, share) =>
        logFrom + share * (logTo - logFrom) + follower.beta * this.factors.bridgeAt(follower.factor, Math.min(ms, end)),
      volatility: follower.volatility,
      rules,
      amountUnit: 1000,
      quoteShape: (trades) => quoteShape(MODE, session, trades, info, rules.ticks),
    };
  }

  /** The minute bins of the day's stock session, shared by every stock's tape of the day. */
  private sessionBins(session: TradingSession): RateBins {
    if (this.lastBins?.day !== session.day) {
      this.lastBins = { day: session.day, bins: rateBins(session.continuous, (t) => alwaysOpenRate(t)) };
    }
    return this.lastBins.bins;
  }
}

/** A stock's mean trade in lots, from its reference price (ETFs trade in larger clips). */
export function stockTradeLots(info: StockInfo): number {
  const security = SECURITIES_BY_CODE.get(info.code);
  return meanStockTradeLots(info.reference, security?.kind === 'etf', security?.avgVolumeLots ?? 0);
}
