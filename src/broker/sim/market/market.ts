// The simulated market: the tape of any instrument on any trading day, as a pure function of the seed, the
// clock mode, the code and the day. TapeBuilder builds each day's tape around the fair values of FairValues; the
// tapes built last are kept.

import { previousTradingDay } from '../../../domain/calendar.js';
import type { ComboContract, ComboType, ContractInfo, FuturesInfo, StockInfo } from '../../../domain/contracts.js';
import {
  type ClockMode,
  contractSession,
  type MarketKind,
  oddLotAuctions,
  sessionDayAt,
  type TradingSession,
  tradingSession,
  trialWindows,
} from '../../../domain/sessions.js';
import type { ReferencePrices } from '../catalog/references.js';
import { fixedPriceTape, oddLotTape, trialTape } from './auctions.js';
import { stockAuctionShares } from './call-auction.js';
import { DailyModel, FOLLOWERS } from './daily.js';
import { DayFigures } from './day-figures.js';
import { MarketFactors } from './factors.js';
import { FairValues } from './fair-values.js';
import { Listings, targetOf } from './listings.js';
import { Rng } from './rng.js';
import { buildTape, publishedCount, splitVolume, type Tape, tradeTimes } from './tape.js';
import { TapeBuilder } from './tape-builder.js';
import { horizonOf, markPartial, TapeCache } from './tape-cache.js';

/** With the whole listing (some 2,300 stocks), a day of every stock with its odd-lot and trial tapes fits in. */
const TAPES_KEPT = 20_000;
/** At most this many bytes of tapes are kept: a whole market's day on the always-open clock is several times more. */
const TAPE_BYTES_KEPT = 256e6;
/**
 * A partial tape is drawn this far past the instant asked for, rounded up to whole steps of it, so that a stream of
 * reads moving on with the clock extends it once every few minutes, not at every read.
 */
export const HORIZON_STEP_MS = 5 * 60_000;
/** How each leg counts in a combo's net price, in the exchange's leg order. */
export const COMBO_SIGNS: Record<ComboType, readonly number[]> = {
  TimeSpread: [-1, 1],
  WeeklyTimeSpread: [-1, 1],
  PriceSpread: [-1, 1],
  Straddle: [1, 1],
  Strangle: [1, 1],
  ConversionReversal: [1, -1],
};

export const marketOf = (info: ContractInfo): MarketKind =>
  info.security_type === 'FUT' || info.security_type === 'OPT' ? 'futures' : 'stock';

export class SimMarket {
  readonly daily: DailyModel;
  readonly factors: MarketFactors;
  readonly listings: Listings;
  /** The fair values of derivatives and warrants, which their tapes trade around. */
  readonly values: FairValues;
  /** Builds tapes without keeping them; buildUntil gives the trades of a day up to an instant. */
  readonly builder: TapeBuilder;
  private readonly tapes = new TapeCache(TAPES_KEPT, TAPE_BYTES_KEPT);
  /** Every stock's digest of the day and the figures of past days, which whole-market reads count from. */
  readonly figures = new DayFigures({
    tapeAsOf: (info, day, epochMs) => this.tape(info, day, epochMs),
    passingTape: (info, day) => this.passingTape(info, day),
    dayEnd: (day) => this.session('stock', day).end,
  });

  constructor(
    readonly seed: number,
    readonly mode: ClockMode,
  ) {
    this.daily = new DailyModel(seed);
    this.factors = new MarketFactors(this.daily, mode);
    this.listings = new Listings(this.daily, (day) => this.referencesOn(day));
    const stockPriceAt = (code: string, epochMs: number) => this.stockPriceAt(code, epochMs);
    // A stock future's final settlement averages its stock over exchange hours: the exchange clock's stock, so that
    // it settles alike in both modes (built only when one is asked for in always-open mode).
    let exchangeTwin: SimMarket | null = null;
    const fixingPriceAt =
      mode === 'exchange'
        ? stockPriceAt
        : (code: string, epochMs: number) => {
            exchangeTwin ??= new SimMarket(seed, 'exchange');
            return exchangeTwin.stockPriceAt(code, epochMs);
          };
    this.values = new FairValues(seed, mode, this.daily, this.factors, stockPriceAt, fixingPriceAt);
    this.builder = new TapeBuilder(seed, mode, this.daily, this.factors, this.listings, this.values, stockPriceAt);
  }

  /** The trading day a market is on at an instant. */
  dayAt(market: MarketKind, epochMs: number): string {
    return sessionDayAt(market, epochMs, this.mode);
  }

  session(market: MarketKind, day: string): TradingSession {
    return tradingSession(this.mode, market, day);
  }

  /**
   * What every listing of a day derives its reference from: the previous day's closes of stocks and indices, and
   * the previous day's settlement of each derivative (its last trade, see settlementOf).
   */
  referencesOn(day: string): ReferencePrices {
    const closes = this.daily.referencesOn(day);
    const previous = previousTradingDay(day);
    return {
      referenceOf: closes.referenceOf,
      settlementOf: (contract) => this.values.settlementOf(contract, previous),
    };
  }

  /**
   * The day's tape of an instrument listed on that day (R1/R2 give their target's tape): whole, or when an instant
   * (epoch ms) is given, the trades up to it at least, exactly the whole tape's first trades (read it only up to
   * publishedCount(tape, asOf)). An always-open stock's day not over, drawn forward, is then built only a few minutes
   * past the instant and drawn on when asked later (horizonOf tells how far it goes); other tapes are whole.
   */
  tape(listed: ContractInfo, day: string, asOf = Number.POSITIVE_INFINITY): Tape {
    const info = targetOf(listed);
    const key = `${info.code}|${day}`;
    const covering = this.tapes.covering(key, asOf);
    if (covering) return covering;
    const { continuous, end } = this.session(marketOf(info), day);
    const horizon = (Math.floor(Math.max(asOf, continuous[0]?.start ?? end) / HORIZON_STEP_MS) + 1) * HORIZON_STEP_MS;
    const drawnForward = info.security_type === 'STK' && this.mode === 'always-open';
    if (drawnForward && horizon < end) {
      return this.tapes.put(key, markPartial(this.builder.buildUntil(info, day, horizon), horizon));
    }
    return this.tapes.put(key, this.figures.shareArrays(this.builder.build(info, day)));
  }

  /**
   * A tape for one pass over it: the kept one, else built and not kept, so that a pass over a whole past day of the
   * market (daily quotes, the scanner's threshold) does not evict the tapes in use nor fill the cache with its own.
   */
  passingTape(listed: ContractInfo, day: string): Tape {
    const info = targetOf(listed);
    const kept = this.tapes.peek(`${info.code}|${day}`);
    return kept && horizonOf(kept) === Number.POSITIVE_INFINITY
      ? kept
      : this.figures.shareArrays(this.builder.build(info, day));
  }

  /** The day's odd-lot auctions of a stock (volumes in shares): about 1% of the board-lot volume, in shares. */
  oddLotTape(info: StockInfo, day: string): Tape {
    return this.tapes.get(`${info.code}|odd|${day}`, () => {
      const board = this.tape(info, day);
      const boardLots = board.volumes.reduce((a, b) => a + b, 0);
      const rng = new Rng(this.seed, 'odd', this.mode, info.code, day);
      return oddLotTape(board, oddLotAuctions(this.mode, day), Math.round(boardLots * 10), rng);
    });
  }

  /** The 14:30 after-hours fixed-price match of a stock (exchange mode): its own small volume at the close. */
  fixedPriceTape(info: StockInfo, day: string): Tape {
    return this.tapes.get(`${info.code}|fixed|${day}`, () => {
      const board = this.tape(info, day);
      const volume = this.daily.dailyVolume(info.code, day, FOLLOWERS.get(info.code)!.avgVolumeLots);
      const share = stockAuctionShares(this.seed, info, day).fixedPrice;
      return fixedPriceTape(board, this.session('stock', day).auctions[1], Math.round(volume * share));
    });
  }

  /** The trial matches shown before the day's auctions (exchange mode only; empty in always-open). */
  trialTape(listed: ContractInfo, day: string): Tape {
    const info = targetOf(listed);
    return this.tapes.get(`${info.code}|trial|${day}`, () => {
      const windows = trialWindows(this.mode, marketOf(info), day);
      // Without trial windows (always-open) the tape is empty: the board's day is not drawn for it.
      const board = windows.length > 0 ? this.tape(info, day) : this.tape(info, day, Number.NEGATIVE_INFINITY);
      const rng = new Rng(this.seed, 'trial', this.mode, info.code, day);
      const reference = 'reference' in info ? info.reference : 0;
      return trialTape(board, windows, reference, rng);
    });
  }

  /** The last traded price of a stock at an instant, or its reference before the day's first trade. */
  stockPriceAt(code: string, epochMs: number): number {
    const day = this.dayAt('stock', epochMs);
    // From the closing auction on, the last trade is the day's close: no need to build the tape for it.
    const closing = this.session('stock', day).auctions[0];
    if (closing !== undefined && epochMs >= closing) return this.daily.closeOf(code, day);
    // Called for every trade of a warrant or stock future: the tape is looked up before any info is built. A whole
    // derivative's day asks at every instant of the day in turn: drawn whole at once, not on in steps.
    const tape = this.tapes.covering(`${code}|${day}`, epochMs) ?? this.tape(this.listings.stockOn(code, day), day);
    const count = publishedCount(tape, epochMs);
    return count === 0 ? this.daily.closeOf(code, previousTradingDay(day)) : tape.prices[count - 1]!;
  }

  /**
   * Lots or contracts traded over a whole day: a stock's from its daily volume; another instrument's counted from
   * its tape of that day, which is not kept for it (a snapshot asks for the previous day's, once a day).
   */
  totalVolume(listed: ContractInfo, day: string): number {
    if (listed.security_type === 'STK') {
      return this.builder.stockVolume(listed.code, day);
    }
    const info = this.listings.infoOn(listed.code, day);
    return info ? this.passingTape(info, day).volumes.reduce((a, b) => a + b, 0) : 0;
  }

  /** A combo's own trades: rare, at the net price of its legs (far minus near for a time spread). */
  comboTape(combo: ComboContract, day: string): Tape {
    const key = `${comboCodeOf(combo)}|${combo.combo_type}|${day}`;
    return this.tapes.get(key, () => {
      const legs = combo.legs.map((leg) => this.listings.infoOn(leg.code, day) ?? null);
      const rng = new Rng(this.seed, 'combo', key);
      const signs = COMBO_SIGNS[combo.combo_type];
      // A combo trades while both legs do: to 13:30 on the last trading day of either.
      const firstExpiry = legs.map((leg) => (leg as FuturesInfo | null)?.last_trading_date ?? '').sort()[0];
      const session = contractSession(this.mode, day, firstExpiry);
      const times = legs.every(Boolean) ? tradeTimes(session, 150, rng) : new Float64Array(0);
      const netAt = (t: number) => legs.reduce((net, leg, i) => net + signs[i]! * this.values.fairValueAt(leg!, t), 0);
      const tick = legs[0]?.security_type === 'OPT' ? 0.1 : 1;
      return buildTape({
        code: comboCodeOf(combo),
        day,
        times,
        fair: times.map((us) => netAt(us / 1000)),
        volumes: splitVolume(times.length * 2, times.length, rng),
        rules: { ticks: [{ min: -1e9, max: null, tick }], limitUp: 1e9, limitDown: -1e9 },
        amountUnit: 1,
        auctionFrom: times.length,
        rng,
      });
    });
  }
}

/** A combo's exchange code, or its legs joined with '+' for option combos, which have none. */
export const comboCodeOf = (combo: ComboContract): string => combo.code ?? combo.legs.map((l) => l.code).join('+');
