// The simulated market: the tape of any instrument on any trading day, as a pure function of the seed, the
// clock mode, the code and the day. Indices are the market factors; stocks follow their factor with a beta and
// their own noise; futures are their underlying plus a basis that decays to zero at expiry; options are Black-76
// prices of their futures with a volatility smile; warrants are priced from their underlying stock.

import { previousTradingDay } from '../../../domain/calendar.js';
import type {
  ComboContract,
  ComboType,
  ContractInfo,
  FuturesInfo,
  OptionInfo,
  StockInfo,
  WarrantInfo,
} from '../../../domain/contracts.js';
import { black76, smileVolatility } from '../../../domain/option-pricing.js';
import {
  type ClockMode,
  closeAnchor,
  type MarketKind,
  oddLotAuctions,
  sessionDayAt,
  type TradingSession,
  tradingSession,
  trialWindows,
} from '../../../domain/sessions.js';
import { roundToTick, type TickTable, TXO_PREMIUM_TICKS, WARRANT_TICKS } from '../../../domain/ticks.js';
import { taipeiInstant } from '../../../domain/time.js';
import { FUTURES_PRODUCTS } from '../catalog/derivative-products.js';
import { tickTableOfFutures } from '../catalog/futures.js';
import type { ReferencePrices } from '../catalog/references.js';
import { oddLotTape, trialTape } from './auctions.js';
import { DailyModel, FACTOR_INDEX, FOLLOWERS, type Follower, limitsFor } from './daily.js';
import { FACTOR_STEP_MS, MarketFactors } from './factors.js';
import { Listings, targetOf } from './listings.js';
import { Rng } from './rng.js';
import { buildTape, publishedCount, splitVolume, type Tape, tradeTimes } from './tape.js';

const TAPES_KEPT = 4000;
/** How each leg counts in a combo's net price, in the exchange's leg order. */
export const COMBO_SIGNS: Record<ComboType, readonly number[]> = {
  TimeSpread: [-1, 1],
  WeeklyTimeSpread: [-1, 1],
  PriceSpread: [-1, 1],
  Straddle: [1, 1],
  Strangle: [1, 1],
  ConversionReversal: [1, -1],
};
const ATM_VOLATILITY = 0.2;
const YEAR_MS = 365 * 86400_000;
const INDEX_LOTS_PER_DAY = 6_000_000;
/** NT$ of an average board lot on the exchange; an index's turnover is its lots at this value, not at its level. */
const AVERAGE_LOT_VALUE = 65_000;

export const marketOf = (info: ContractInfo): MarketKind =>
  info.security_type === 'FUT' || info.security_type === 'OPT' ? 'futures' : 'stock';

export class SimMarket {
  readonly daily: DailyModel;
  readonly factors: MarketFactors;
  readonly listings: Listings;
  private readonly tapes = new Map<string, Tape>();

  constructor(
    readonly seed: number,
    readonly mode: ClockMode,
  ) {
    this.daily = new DailyModel(seed);
    this.factors = new MarketFactors(this.daily, mode);
    this.listings = new Listings(this.daily, (day) => this.referencesOn(day));
  }

  /** The trading day a market is on at an instant. */
  dayAt(market: MarketKind, epochMs: number): string {
    return sessionDayAt(market, epochMs);
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
    return { referenceOf: closes.referenceOf, settlementOf: (contract) => this.settlementOf(contract, previous) };
  }

  /**
   * A derivative's last trade of a day, on its grid: its fair value when the day's trading ends. Only fixed terms
   * of the contract are read, so the settlement does not depend on the day's own listing (no recursion into it).
   */
  settlementOf(contract: FuturesInfo | OptionInfo | WarrantInfo, day: string): number {
    const onGrid = (table: TickTable, value: number) => Math.max(roundToTick(table, value), table[0]!.tick);
    if (contract.security_type === 'WRT') {
      return onGrid(WARRANT_TICKS, this.warrantValue(contract, day, this.daily.closeOf(contract.underlying_code, day)));
    }
    const end = this.session('futures', day).end;
    if (contract.security_type === 'OPT') return onGrid(TXO_PREMIUM_TICKS, this.optionValueAt(contract, end));
    const product = FUTURES_PRODUCTS.find((p) => p.root === contract.root)!;
    return onGrid(tickTableOfFutures(product), this.fairValueAt(contract, end));
  }

  /** The whole day's tape of an instrument listed on that day (R1/R2 give their target's tape). */
  tape(listed: ContractInfo, day: string): Tape {
    const info = targetOf(listed);
    return this.cachedTape(`${info.code}|${day}`, () => this.build(info, day));
  }

  /** The day's odd-lot auctions of a stock (volumes in shares): about 1% of the board-lot volume, in shares. */
  oddLotTape(info: StockInfo, day: string): Tape {
    return this.cachedTape(`${info.code}|odd|${day}`, () => {
      const board = this.tape(info, day);
      const boardLots = board.volumes.reduce((a, b) => a + b, 0);
      const rng = new Rng(this.seed, 'odd', this.mode, info.code, day);
      return oddLotTape(board, oddLotAuctions(this.mode, day), Math.round(boardLots * 10), rng);
    });
  }

  /** The trial matches shown before the day's auctions (exchange mode only; empty in always-open). */
  trialTape(listed: ContractInfo, day: string): Tape {
    const info = targetOf(listed);
    return this.cachedTape(`${info.code}|trial|${day}`, () => {
      const board = this.tape(info, day);
      const rng = new Rng(this.seed, 'trial', this.mode, info.code, day);
      const reference = 'reference' in info ? info.reference : 0;
      return trialTape(board, trialWindows(this.mode, marketOf(info), day), reference, rng);
    });
  }

  /** The last traded price of a stock at an instant, or its reference before the day's first trade. */
  stockPriceAt(code: string, epochMs: number): number {
    const day = this.dayAt('stock', epochMs);
    // Called for every trade of a warrant or stock future: the tape is looked up before any info is built.
    const tape = this.cachedTape(`${code}|${day}`, () => this.build(this.listings.stockOn(code, day), day));
    const count = publishedCount(tape, epochMs);
    return count === 0 ? this.daily.closeOf(code, previousTradingDay(day)) : tape.prices[count - 1]!;
  }

  /** Tapes by key, most recently used last; the oldest go when the cache is full. */
  private cachedTape(key: string, build: () => Tape): Tape {
    let tape = this.tapes.get(key);
    if (tape) {
      this.tapes.delete(key);
    } else {
      tape = build();
      if (this.tapes.size >= TAPES_KEPT) this.tapes.delete(this.tapes.keys().next().value!);
    }
    this.tapes.set(key, tape);
    return tape;
  }

  /** The futures price of an expiry at an instant: the underlying plus a basis that is zero at expiry. */
  forwardAt(underlyingCode: string, root: string, lastTradingDay: string, epochMs: number): number {
    const factor = FACTOR_INDEX[underlyingCode];
    const spot = factor ? Math.exp(this.factors.logAt(factor, epochMs)) : this.stockPriceAt(underlyingCode, epochMs);
    const yearsLeft = Math.max(0, taipeiInstant(lastTradingDay, '13:30') - epochMs) / YEAR_MS;
    return spot * (1 + this.carryOf(root) * yearsLeft);
  }

  /** The Black-76 value of an option at an instant, from the futures of its expiry. */
  optionValueAt(info: OptionInfo, epochMs: number): number {
    const forward = this.forwardAt(info.underlying_code, 'TXF', info.last_trading_date, epochMs);
    const years = Math.max(0, taipeiInstant(info.last_trading_date, '13:30') - epochMs) / YEAR_MS;
    const volatility = smileVolatility(ATM_VOLATILITY, forward, info.strike_price);
    return black76({ underlying: forward, strike: info.strike_price, years, volatility, right: info.option_right });
  }

  /** Lots or contracts traded over a whole day. */
  totalVolume(listed: ContractInfo, day: string): number {
    if (listed.security_type === 'STK') {
      return this.daily.dailyVolume(listed.code, day, FOLLOWERS.get(listed.code)!.avgVolumeLots);
    }
    const info = this.listings.infoOn(listed.code, day);
    return info ? this.tape(info, day).volumes.reduce((a, b) => a + b, 0) : 0;
  }

  /** The fair value of one contract at an instant (futures and options, for combos). */
  fairValueAt(info: ContractInfo, epochMs: number): number {
    if (info.security_type === 'OPT') return this.optionValueAt(info as OptionInfo, epochMs);
    const futures = info as FuturesInfo;
    return this.forwardAt(futures.underlying_code, futures.root, futures.last_trading_date, epochMs);
  }

  /** A combo's own trades: rare, at the net price of its legs (far minus near for a time spread). */
  comboTape(combo: ComboContract, day: string): Tape {
    const key = `${comboCodeOf(combo)}|${combo.combo_type}|${day}`;
    return this.cachedTape(key, () => {
      const legs = combo.legs.map((leg) => this.listings.infoOn(leg.code, day) ?? null);
      const rng = new Rng(this.seed, 'combo', key);
      const signs = COMBO_SIGNS[combo.combo_type];
      const times = legs.every(Boolean) ? tradeTimes(this.session('futures', day), 150, rng) : new Float64Array(0);
      const netAt = (t: number) => legs.reduce((net, leg, i) => net + signs[i]! * this.fairValueAt(leg!, t), 0);
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

  /** Annual carry of a futures family: the basis is futures minus spot, shrinking to zero at expiry. */
  carryOf(root: string): number {
    return -0.02 + 0.05 * new Rng(this.seed, 'carry', root).next();
  }

  private build(info: ContractInfo, day: string): Tape {
    const rng = new Rng(this.seed, 'tape', this.mode, info.code, day);
    switch (info.security_type) {
      case 'IND':
        return this.indexTape(info.code, day, rng);
      case 'STK':
        return this.stockTape(info as StockInfo, day, rng);
      case 'FUT':
        return this.futuresTape(info as FuturesInfo, day, rng);
      case 'OPT':
        return this.optionTape(info as OptionInfo, day, rng);
      case 'WRT':
        return this.warrantTape(info as WarrantInfo, day, rng);
    }
  }

  /** The path of a follower's log price over a day, at given instants: the line between closes plus bridges. */
  private followerPath(follower: Follower, day: string, timesUs: Float64Array, rng: Rng): Float64Array {
    const start = closeAnchor(this.mode, previousTradingDay(day));
    const end = closeAnchor(this.mode, day);
    const reference = this.daily.closeOf(follower.code, previousTradingDay(day));
    const logFrom = Math.log(reference);
    const logTo = this.endOfDayLog(follower, day, reference);
    const path = new Float64Array(timesUs.length);
    const own = this.ownBridge(timesUs, start, end, follower.volatility, rng);
    for (let k = 0; k < timesUs.length; k++) {
      const t = Math.min(timesUs[k]! / 1000, end);
      const f = Math.min(1, Math.max(0, (t - start) / (end - start)));
      path[k] = logFrom + f * (logTo - logFrom) + follower.beta * this.factors.bridgeAt(follower.factor, t) + own[k]!;
    }
    return path;
  }

  /** The day's close in logs, or past the limit when the stock closed locked (it stays locked on the way). */
  private endOfDayLog(follower: Follower, day: string, reference: number): number {
    const close = this.daily.closeOf(follower.code, day);
    const raw = Math.log(reference) + this.daily.rawReturn(follower, this.daily.indexOfDay(day));
    const { limitUp, limitDown } = limitsFor(follower, reference);
    if (close === limitUp && raw > Math.log(close)) return raw;
    if (close === limitDown && raw < Math.log(close)) return raw;
    return Math.log(close);
  }

  /** A Brownian bridge at arbitrary instants between two closes, zero at both. */
  private ownBridge(timesUs: Float64Array, start: number, end: number, volatility: number, rng: Rng): Float64Array {
    const walk = new Float64Array(timesUs.length);
    const span = end - start;
    let value = 0;
    let previous = start;
    for (let k = 0; k < timesUs.length; k++) {
      const t = Math.min(Math.max(timesUs[k]! / 1000, start), end);
      value += volatility * Math.sqrt(Math.max(0, t - previous) / span) * rng.normal();
      walk[k] = value;
      previous = t;
    }
    const final = value + volatility * Math.sqrt(Math.max(0, end - previous) / span) * rng.normal();
    for (let k = 0; k < timesUs.length; k++) {
      const t = Math.min(Math.max(timesUs[k]! / 1000, start), end);
      walk[k] = walk[k]! - ((t - start) / span) * final;
    }
    return walk;
  }

  private stockTape(info: StockInfo, day: string, rng: Rng): Tape {
    const follower = FOLLOWERS.get(info.code)!;
    const session = this.session('stock', day);
    const volume = this.daily.dailyVolume(info.code, day, follower.avgVolumeLots);
    const auctions = session.auctions.length;
    const auctionVolume = auctions === 0 ? 0 : Math.max(1, Math.round(volume * 0.03));
    // Every lot of the day is in the tape: the closing trades are carved out of the day's volume.
    const continuousVolume = Math.max(1, volume - (auctions > 0 ? auctionVolume * auctions : 1));
    const count = Math.min(continuousVolume, Math.max(20, Math.min(15_000, Math.round(volume / 15))));
    const continuous = tradeTimes(session, count, rng);
    const times = new Float64Array(count + Math.max(auctions, 1));
    times.set(continuous);
    // The close: the auctions of the exchange, or the session's last moment in always-open.
    const closes = auctions > 0 ? session.auctions : [session.end - 1000];
    closes.forEach((t, k) => {
      times[count + k] = t * 1000;
    });
    const fair = this.followerPath(follower, day, times, rng).map(Math.exp);
    const close = this.daily.closeOf(info.code, day);
    for (let k = count; k < times.length; k++) fair[k] = close;
    const volumes = new Float64Array(times.length);
    volumes.set(splitVolume(continuousVolume, count, rng));
    for (let k = count; k < times.length; k++) volumes[k] = auctions > 0 ? auctionVolume : 1;
    return buildTape({
      code: info.code,
      day,
      times,
      fair,
      volumes,
      rules: { ticks: follower.ticks!, limitUp: info.limit_up, limitDown: info.limit_down },
      amountUnit: 1000,
      auctionFrom: count,
      rng,
    });
  }

  private indexTape(code: string, day: string, rng: Rng): Tape {
    const session = this.session('stock', day);
    const open = this.mode === 'exchange' ? taipeiInstant(day, '09:00') : session.continuous[0]!.start;
    const close = closeAnchor(this.mode, day);
    const count = Math.round((close - open) / FACTOR_STEP_MS);
    const times = new Float64Array(count);
    for (let k = 0; k < count; k++) times[k] = (open + (k + 1) * FACTOR_STEP_MS) * 1000;
    const factor = FACTOR_INDEX[code];
    const levels = factor
      ? times.map((t) => Math.exp(this.factors.logAt(factor, t / 1000)))
      : this.followerPath(FOLLOWERS.get(code)!, day, times, rng).map(Math.exp);
    const n = times.length;
    const zeros = () => new Float64Array(n);
    return {
      code,
      day,
      times,
      prices: levels.map((v) => Math.round(v * 100) / 100),
      volumes: splitVolume(INDEX_LOTS_PER_DAY, n, rng),
      bidPrices: zeros(),
      bidVolumes: zeros(),
      askPrices: zeros(),
      askVolumes: zeros(),
      tickTypes: new Uint8Array(n),
      amountUnit: n > 0 ? AVERAGE_LOT_VALUE / levels[0]! : 1000,
      rules: null,
    };
  }

  private futuresTape(info: FuturesInfo, day: string, rng: Rng): Tape {
    const product = FUTURES_PRODUCTS.find((p) => p.root === info.root)!;
    const rank = this.monthRank(info, day);
    const base = info.root === 'TXF' ? 90_000 : info.root === 'MXF' ? 120_000 : info.root === 'TMF' ? 50_000 : 4_000;
    const volume = Math.max(5, Math.round(this.daily.dailyVolume(info.code, day, base) * 0.04 ** rank));
    return this.tradedAround(info, day, rng, {
      market: 'futures',
      volume,
      count: Math.min(volume, Math.max(10, Math.min(30_000, Math.round(volume / 4)))),
      ticks: tickTableOfFutures(product),
      amountUnit: 1,
      fairAt: (t) => this.forwardAt(info.underlying_code, info.root, info.last_trading_date, t),
    });
  }

  private optionTape(info: OptionInfo, day: string, rng: Rng): Tape {
    const forward = Math.exp(this.daily.factorLog('TSE', previousTradingDay(day)));
    const moneyness = Math.abs(Math.log(info.strike_price / forward));
    const near = this.daysTo(info.last_trading_date, day) <= 10 ? 1 : 0.3;
    const typical = 6_000 * near * Math.exp(-25 * moneyness);
    const volume = Math.max(2, this.daily.dailyVolume(info.code, day, typical));
    return this.tradedAround(info, day, rng, {
      market: 'futures',
      volume,
      count: Math.min(volume, Math.max(3, Math.min(3_000, Math.round(volume / 4)))),
      ticks: TXO_PREMIUM_TICKS,
      amountUnit: 1,
      fairAt: (t) => this.optionValueAt(info, t),
    });
  }

  /** A warrant's value for a price of its underlying stock on a day. */
  private warrantValue(info: WarrantInfo, day: string, spot: number): number {
    const years = Math.max(this.daysTo(info.expiry_date, day), 1) / 365;
    const value = black76({
      underlying: spot,
      strike: info.strike_price,
      years,
      volatility: 0.4,
      right: info.call_put,
    });
    return value * info.exercise_ratio;
  }

  private warrantTape(info: WarrantInfo, day: string, rng: Rng): Tape {
    const volume = this.daily.dailyVolume(info.code, day, 100);
    const valueAt = (t: number) => this.warrantValue(info, day, this.stockPriceAt(info.underlying_code, t));
    return this.tradedAround(info, day, rng, {
      market: 'stock',
      volume,
      count: Math.min(volume, Math.max(1, Math.round(volume / 3))),
      ticks: WARRANT_TICKS,
      amountUnit: 1000,
      fairAt: valueAt,
    });
  }

  /** A day of continuous trading around a fair value that is a function of time (epoch ms). */
  private tradedAround(
    info: FuturesInfo | OptionInfo | WarrantInfo,
    day: string,
    rng: Rng,
    how: {
      market: MarketKind;
      volume: number;
      count: number;
      ticks: TickTable;
      amountUnit: number;
      fairAt: (t: number) => number;
    },
  ): Tape {
    // The day ends with a trade at the settlement, which the next day's reference is.
    const session = this.session(how.market, day);
    const times = new Float64Array(how.count + 1);
    times.set(tradeTimes(session, how.count, rng));
    times[how.count] = (session.end - 1000) * 1000;
    const fair = times.map((us) => how.fairAt(us / 1000));
    fair[how.count] = this.settlementOf(info, day);
    const volumes = new Float64Array(how.count + 1);
    volumes.set(splitVolume(how.volume, how.count, rng));
    volumes[how.count] = 1;
    return buildTape({
      code: info.code,
      day,
      times,
      fair,
      volumes,
      rules: { ticks: how.ticks, limitUp: info.limit_up, limitDown: info.limit_down },
      amountUnit: how.amountUnit,
      auctionFrom: how.count,
      rng,
    });
  }

  private monthRank(info: FuturesInfo, day: string): number {
    const listed = [...this.listings.derivativesOn(day).values()].filter(
      (other): other is FuturesInfo => other.security_type === 'FUT' && other.root === info.root && !other.target_code,
    );
    return Math.max(
      0,
      listed.findIndex((other) => other.code === info.code),
    );
  }

  private daysTo(date: string, day: string): number {
    return (Date.parse(date) - Date.parse(day)) / 86400_000;
  }
}

/** A combo's exchange code, or its legs joined with '+' for option combos, which have none. */
export const comboCodeOf = (combo: ComboContract): string => combo.code ?? combo.legs.map((l) => l.code).join('+');
