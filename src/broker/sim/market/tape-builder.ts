// How the simulated market builds the tape of an instrument's day, as a pure function of the seed, the clock mode,
// the code and the day. Indices are the market factors; stocks follow their factor with a beta and their own noise;
// futures, options and warrants trade around their fair values (fair-values.ts).

import { previousTradingDay } from '../../../domain/calendar.js';
import type { ContractInfo, FuturesInfo, OptionInfo, StockInfo, WarrantInfo } from '../../../domain/contracts.js';
import {
  type ClockMode,
  closeAnchor,
  contractSession,
  type MarketKind,
  type TradingSession,
  tradingSession,
} from '../../../domain/sessions.js';
import { type TickTable, TXO_PREMIUM_TICKS, WARRANT_TICKS } from '../../../domain/ticks.js';
import { taipeiInstant } from '../../../domain/time.js';
import { SECURITIES_BY_CODE } from '../catalog/catalog.js';
import { FUTURES_PRODUCTS } from '../catalog/derivative-products.js';
import { tickTableOfFutures } from '../catalog/futures.js';
import { typicalStockFuturesVolume } from '../catalog/stock-futures.js';
import { quoteShape } from '../exchange/spread-model.js';
import {
  activeHours,
  activityProfile,
  alwaysOpenTradesPerHour,
  EXCHANGE_STOCK_HOURS,
  isNightInterval,
  MEAN_FUTURES_TRADE,
  MEAN_OPTION_TRADE,
  meanStockTradeLots,
  minTradesPerHour,
  type RateAt,
  sessionTradeMean,
  sessionVolumeFactor,
  tradeSizes,
} from './activity.js';
import {
  afterOpenings,
  futuresOpeningShare,
  markCallAuction,
  openingPrintAt,
  periodicAuctions,
  stockAuctionShares,
  withAuctions,
} from './call-auction.js';
import { type DailyModel, endOfDayLog, FACTOR_INDEX, FOLLOWERS, type Follower } from './daily.js';
import { FACTOR_STEP_MS, type MarketFactors } from './factors.js';
import { daysTo, type FairValues } from './fair-values.js';
import type { Listings } from './listings.js';
import { OpenStockDays, stockTradeLots } from './open-stock-days.js';
import { Rng } from './rng.js';
import { addSweeps } from './sweeps.js';
import { buildTape, splitVolume, type Tape, tradeTimes, truncateTape } from './tape.js';

const INDEX_LOTS_PER_DAY = 6_000_000;
/** NT$ of an average board lot on the exchange; an index's turnover is its lots at this value, not at its level. */
const AVERAGE_LOT_VALUE = 65_000;

export class TapeBuilder {
  /** Stocks' days on the always-open clock, drawn forward and kept where they stopped. */
  readonly openStocks: OpenStockDays;

  constructor(
    private readonly seed: number,
    private readonly mode: ClockMode,
    private readonly daily: DailyModel,
    private readonly factors: MarketFactors,
    private readonly listings: Listings,
    private readonly values: FairValues,
    /** The last traded price of a stock at an instant: the underlying of warrants. */
    private readonly stockPriceAt: (code: string, epochMs: number) => number,
  ) {
    this.openStocks = new OpenStockDays(seed, daily, factors, (code, day) => this.stockVolume(code, day));
  }

  /** When trades happen over a session on this clock. */
  private get profile(): RateAt {
    return activityProfile(this.mode, isNightInterval);
  }

  build(info: ContractInfo, day: string): Tape {
    const rng = new Rng(this.seed, 'tape', this.mode, info.code, day);
    switch (info.security_type) {
      case 'IND':
        return this.indexTape(info.code, day, rng);
      case 'STK':
        return this.mode === 'always-open'
          ? this.openStocks.tape(info as StockInfo, day, Number.POSITIVE_INFINITY)
          : this.stockTape(info as StockInfo, day, rng);
      case 'FUT':
        return this.futuresTape(info as FuturesInfo, day, rng);
      case 'OPT':
        return this.optionTape(info as OptionInfo, day, rng);
      case 'WRT':
        return this.warrantTape(info as WarrantInfo, day, rng);
    }
  }

  /**
   * The trades of a day's tape up to an instant (epoch ms): exactly the first trades of build(). A stock's tape on
   * the always-open clock is drawn only that far (open-stock-days.ts); other tapes are built whole and cut.
   */
  buildUntil(info: ContractInfo, day: string, untilMs: number): Tape {
    if (info.security_type === 'STK' && this.mode === 'always-open') {
      return this.openStocks.tape(info as StockInfo, day, untilMs);
    }
    return truncateTape(this.build(info, day), untilMs);
  }

  /**
   * The path of a follower's log price over a day, at given instants: the line between closes plus bridges, all
   * in business time (variance-clock.ts), so a stock moves while its market trades more than overnight.
   */
  private followerPath(follower: Follower, day: string, timesUs: Float64Array, rng: Rng): Float64Array {
    const previous = previousTradingDay(day);
    const end = closeAnchor(this.mode, day);
    const reference = this.daily.closeOf(follower.code, previous);
    const logFrom = Math.log(reference);
    const logTo = endOfDayLog(this.daily, follower, day, reference);
    const shares = this.factors.clock.fractionsAt(previous, day, timesUs);
    const path = new Float64Array(timesUs.length);
    const own = ownBridge(shares, follower.volatility, rng);
    for (let k = 0; k < timesUs.length; k++) {
      const t = Math.min(timesUs[k]! / 1000, end);
      path[k] =
        logFrom + shares[k]! * (logTo - logFrom) + follower.beta * this.factors.bridgeAt(follower.factor, t) + own[k]!;
    }
    return path;
  }

  /** A stock's day on the exchange clock (buildUntil draws the always-open clock's forward). */
  private stockTape(info: StockInfo, day: string, rng: Rng): Tape {
    const follower = FOLLOWERS.get(info.code)!;
    const session = tradingSession(this.mode, 'stock', day);
    const volume = this.stockVolume(info.code, day);
    const rules = { ticks: follower.ticks!, limitUp: info.limit_up, limitDown: info.limit_down };
    const periodic = periodicAuctions(this.mode, info, day);
    if (periodic.length > 0) return this.periodicTape(follower, info, day, periodic, volume, rng);
    // The 09:00 opening auction, continuous trading, the 13:30 closing auction (the 14:30 fixed-price match is a
    // tape of its own). Every lot of the day is in the tape: the auctions are carved out of the day's volume.
    const shares = stockAuctionShares(this.seed, info, day);
    const openingVolume = Math.max(1, Math.round(volume * shares.opening));
    const closingVolume = Math.max(1, Math.round(volume * shares.closing));
    const continuousVolume = Math.max(1, volume - openingVolume - closingVolume);
    const sizes = sessionTradeSizes(this.mode, session, continuousVolume, stockTradeLots(info), rng);
    const count = sizes.length;
    const closeAt = session.auctions[0]!;
    const opening = [openingPrintAt(session.continuous[0]!.start)];
    const continuous = tradeTimes(session, count, rng, this.profile).map((us) => Math.min(us, closeAt * 1000 - 1));
    const { times, at } = withAuctions(afterOpenings(continuous, opening), [...opening, closeAt]);
    const fair = this.followerPath(follower, day, times, rng).map(Math.exp);
    const last = times.length - 1;
    fair[last] = this.daily.closeOf(info.code, day);
    const volumes = new Float64Array(times.length);
    volumes.set(sizes, 1);
    volumes[0] = openingVolume;
    volumes[last] = closingVolume;
    const tape = buildTape({
      code: info.code,
      day,
      times,
      fair,
      volumes,
      rules,
      amountUnit: 1000,
      auctionFrom: last,
      rng,
      ...quoteShape(this.mode, session, count, info, rules.ticks),
    });
    addSweeps(tape, last, at, fair[0] ?? 0);
    for (const k of at.slice(0, -1)) markCallAuction(tape, k, fair[k]!);
    return tape;
  }

  /** A disposition stock in exchange mode: only the periodic call auctions print, the last being the close. */
  private periodicTape(follower: Follower, info: StockInfo, day: string, instants: number[], volume: number, rng: Rng) {
    const times = Float64Array.from(instants, (ms) => ms * 1000);
    const fair = this.followerPath(follower, day, times, rng).map(Math.exp);
    fair[times.length - 1] = this.daily.closeOf(info.code, day);
    const rules = { ticks: follower.ticks!, limitUp: info.limit_up, limitDown: info.limit_down };
    const volumes = splitVolume(volume, times.length, rng);
    return buildTape({ code: info.code, day, times, fair, volumes, rules, amountUnit: 1000, auctionFrom: 0, rng });
  }

  /**
   * Lots of a stock traded over its session of a day: the daily model's volume on the exchange clock. On the
   * always-open clock, as many trades of the stock's usual size as its busyness gives (alwaysOpenTradesPerHour):
   * the busiest names about one a second, the quietest about one every five minutes.
   */
  stockVolume(code: string, day: string): number {
    const daily = this.daily.dailyVolume(code, day, FOLLOWERS.get(code)!.avgVolumeLots);
    if (this.mode === 'exchange') return Math.max(1, daily);
    const session = tradingSession(this.mode, 'stock', day);
    const security = SECURITIES_BY_CODE.get(code);
    const price = this.daily.closeOf(code, previousTradingDay(day));
    const mean = meanStockTradeLots(price, security?.kind === 'etf', security?.avgVolumeLots ?? 0);
    const perHour = alwaysOpenTradesPerHour(daily / mean / EXCHANGE_STOCK_HOURS);
    const hours = activeHours(this.mode, session);
    return Math.max(1, Math.round(Math.max(perHour, minTradesPerHour(this.mode)) * hours * mean));
  }

  private indexTape(code: string, day: string, rng: Rng): Tape {
    const session = tradingSession(this.mode, 'stock', day);
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
      bidVolumes: new Uint32Array(n),
      askPrices: zeros(),
      askVolumes: new Uint32Array(n),
      tickTypes: new Uint8Array(n),
      amountUnit: n > 0 ? AVERAGE_LOT_VALUE / levels[0]! : 1000,
      rules: null,
    };
  }

  private futuresTape(info: FuturesInfo, day: string, rng: Rng): Tape {
    const product = FUTURES_PRODUCTS.find((p) => p.root === info.root)!;
    const rank = monthRank(this.listings, info, day);
    const base = typicalFuturesVolume(info);
    const volume = Math.max(5, Math.round(this.daily.dailyVolume(info.code, day, base) * 0.04 ** rank));
    return this.tradedAround(info, day, rng, {
      market: 'futures',
      volume,
      meanTrade: MEAN_FUTURES_TRADE,
      ticks: tickTableOfFutures(product),
      amountUnit: 1,
      fairAt: (t) => this.values.forwardAt(info.underlying_code, info.last_trading_date, t),
    });
  }

  private optionTape(info: OptionInfo, day: string, rng: Rng): Tape {
    const forward = Math.exp(this.daily.factorLog('TSE', previousTradingDay(day)));
    const moneyness = Math.abs(Math.log(info.strike_price / forward));
    const near = daysTo(info.last_trading_date, day) <= 10 ? 1 : 0.3;
    const typical = 6_000 * near * Math.exp(-25 * moneyness);
    const volume = Math.max(2, this.daily.dailyVolume(info.code, day, typical));
    return this.tradedAround(info, day, rng, {
      market: 'futures',
      volume,
      meanTrade: MEAN_OPTION_TRADE,
      ticks: TXO_PREMIUM_TICKS,
      amountUnit: 1,
      fairAt: (t) => this.values.optionValueAt(info, t),
    });
  }

  private warrantTape(info: WarrantInfo, day: string, rng: Rng): Tape {
    const volume = this.daily.dailyVolume(info.code, day, 100);
    const valueAt = (t: number) => this.values.warrantValue(info, day, this.stockPriceAt(info.underlying_code, t));
    return this.tradedAround(info, day, rng, {
      market: 'stock',
      volume,
      meanTrade: 3,
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
      /** Volume of an exchange day; an always-open day trades more (sessionVolumeFactor). */
      volume: number;
      meanTrade: number;
      ticks: TickTable;
      amountUnit: number;
      fairAt: (t: number) => number;
    },
  ): Tape {
    // The day ends with a trade at the settlement, which the next day's reference is: after every other trade. On a
    // contract's last trading day, trading stops at 13:30 and the last print is the final settlement, at 13:30.
    const expiring = info.security_type !== 'WRT' && info.last_trading_date === day;
    const session =
      info.security_type === 'WRT'
        ? tradingSession(this.mode, how.market, day)
        : contractSession(this.mode, day, info.last_trading_date);
    const settledAt = (expiring ? session.end : session.end - 1000) * 1000;
    const volume = Math.max(1, Math.round(how.volume * sessionVolumeFactor(this.mode, session)));
    // Exchange mode: each session (night, day) opens with a call auction, carved out of the day's volume.
    const sessions = this.mode === 'exchange' ? session.continuous : [];
    const openings = sessions
      .map((interval, i) => ({
        at: openingPrintAt(interval.start),
        volume: Math.round(volume * futuresOpeningShare(this.seed, info.code, day, i < sessions.length - 1)),
      }))
      .filter((opening) => opening.volume > 0);
    const continuousVolume = Math.max(1, volume - openings.reduce((sum, o) => sum + o.volume, 0));
    const sizes = sessionTradeSizes(this.mode, session, continuousVolume, how.meanTrade, rng);
    const openingsMs = openings.map((opening) => opening.at);
    const continuous = tradeTimes(session, sizes.length, rng, this.profile).map((us) => Math.min(us, settledAt - 1));
    const { times: traded, at } = withAuctions(afterOpenings(continuous, openingsMs), openingsMs);
    const times = new Float64Array(traded.length + 1);
    times.set(traded);
    const last = traded.length;
    times[last] = settledAt;
    const fair = times.map((us) => how.fairAt(us / 1000));
    // In always-open mode a futures day runs on to 14:45, past the 13:45 its settlement is fixed at (settlementOf):
    // its last print is a trade like the others, and the next day's reference is that settlement.
    const printsSettlement = expiring || info.security_type === 'WRT' || this.mode === 'exchange';
    if (printsSettlement) fair[last] = this.values.settlementOf(info, day);
    const volumes = new Float64Array(last + 1);
    for (let k = 0, c = 0; k < last; k++) {
      const opening = at.indexOf(k);
      volumes[k] = opening >= 0 ? openings[opening]!.volume : sizes[c++]!;
    }
    volumes[last] = 1;
    const rules = { ticks: how.ticks, limitUp: info.limit_up, limitDown: info.limit_down };
    const tape = buildTape({
      code: info.code,
      day,
      times,
      fair,
      volumes,
      rules,
      amountUnit: how.amountUnit,
      auctionFrom: last,
      rng,
      ...quoteShape(this.mode, session, sizes.length, info, how.ticks),
    });
    addSweeps(tape, last, at, fair[0] ?? 0);
    for (const k of at) markCallAuction(tape, k, fair[k]!);
    return tape;
  }
}

/** Contracts a day of the index futures, by root; weekly Mini-TAIEX trade like a stock future. */
const INDEX_FUTURES_VOLUME: Readonly<Record<string, number>> = { TXF: 90_000, MXF: 120_000, TMF: 50_000 };

/** A futures product's typical contracts a day in its nearest month (later months trade far less). */
function typicalFuturesVolume(info: FuturesInfo): number {
  const index = INDEX_FUTURES_VOLUME[info.root];
  if (index !== undefined) return index;
  const underlying = SECURITIES_BY_CODE.get(info.underlying_code);
  return underlying ? typicalStockFuturesVolume(underlying, SECURITIES_BY_CODE) : 4_000;
}

/** A Brownian bridge at instants given by their share of business time (in order), zero at both closes. */
function ownBridge(shares: Float64Array, volatility: number, rng: Rng): Float64Array {
  const walk = new Float64Array(shares.length);
  let value = 0;
  let previous = 0;
  for (let k = 0; k < shares.length; k++) {
    value += volatility * Math.sqrt(Math.max(0, shares[k]! - previous)) * rng.normal();
    walk[k] = value;
    previous = Math.max(previous, shares[k]!);
  }
  const final = value + volatility * Math.sqrt(Math.max(0, 1 - previous)) * rng.normal();
  for (let k = 0; k < shares.length; k++) walk[k] = walk[k]! - shares[k]! * final;
  return walk;
}

/**
 * The sizes of a session's trades: around a mean, fewer and larger where the trade rate would pass its cap, more
 * and smaller where it would fall below its floor.
 */
function sessionTradeSizes(mode: ClockMode, session: TradingSession, volume: number, mean: number, rng: Rng) {
  return tradeSizes(volume, sessionTradeMean(mode, session, volume, mean), rng);
}

/** Where a future's month is among its root's listed months of a day: 0 for the nearest. */
function monthRank(listings: Listings, info: FuturesInfo, day: string): number {
  const listed = [...listings.derivativesOn(day).values()].filter(
    (other): other is FuturesInfo => other.security_type === 'FUT' && other.root === info.root && !other.target_code,
  );
  return Math.max(
    0,
    listed.findIndex((other) => other.code === info.code),
  );
}
