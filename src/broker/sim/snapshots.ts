// Snapshots of the simulated market as published at an instant. What a snapshot takes from its contract's listing
// of the day (the info, reference and limits, the previous day's volume) is the same all day, so it is worked out
// once per code and day and kept for the last two days of each market; each snapshot then reads only the day's tape.

import { previousTradingDay } from '../../domain/calendar.js';
import type { ContractInfo } from '../../domain/contracts.js';
import { changeTypeOf, type InstrumentRef, isComboRef, type Snapshot } from '../../domain/market-data.js';
import type { MarketKind } from '../../domain/sessions.js';
import type { Clock } from '../../domain/time.js';
import { taipeiDateTime } from './market/history.js';
import { comboCodeOf, marketOf, type SimMarket } from './market/market.js';
import { publishedCount, type Tape } from './market/tape.js';
import { type TradeStats, TwoDayCache, tradeStats } from './market/tape-digest.js';
import type { PublishedDays } from './published-days.js';

const roundTo = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** What a contract's snapshots of a day share. */
interface SnapshotBasis {
  /** The contract as listed that day (a continuous future's target). */
  listed: ContractInfo;
  reference: number;
  limits: { up: number; down: number } | null;
  yesterdayVolume: number;
  /** The day's figures as far as counted last: a later snapshot counts on from there, not from the day's start. */
  counted: RunningStats;
}

interface RunningStats {
  count: number;
  high: number;
  low: number;
  volume: number;
  amount: number;
}

export class SimSnapshots {
  private readonly bases: Record<MarketKind, TwoDayCache<SnapshotBasis>> = {
    stock: new TwoDayCache(),
    futures: new TwoDayCache(),
  };

  constructor(
    private readonly market: SimMarket,
    private readonly days: PublishedDays,
    private readonly clock: Clock,
  ) {}

  of(ref: InstrumentRef): Snapshot {
    const now = this.clock.now();
    if (isComboRef(ref)) {
      const combo = this.days.combo(ref);
      const day = this.market.dayAt('futures', now);
      const tape = this.market.comboTape(combo, day);
      return snapshotFrom(now, comboCodeOf(combo), '', tape, tradeStats(tape, publishedCount(tape, now)), 0, 0, null);
    }
    const info = this.days.resolve(ref);
    const kind = marketOf(info);
    const day = this.market.dayAt(kind, now);
    const basis = this.bases[kind].get(info.code, day, () => this.basisOf(info, day));
    const tape = this.market.tape(basis.listed, day, now);
    const count = publishedCount(tape, now);
    const snapshot = snapshotFrom(
      now,
      info.code,
      info.exchange,
      tape,
      statsOf(basis, tape, count),
      basis.reference,
      basis.yesterdayVolume,
      basis.limits,
    );
    if (info.security_type === 'STK') this.stampFixedPrice(snapshot, info, day, now);
    return snapshot;
  }

  /**
   * After the fixed-price match a stock's snapshot is stamped with it; its volume is not the day's. Its tape is read
   * only once the match is due (never on the always-open clock, which has none).
   */
  private stampFixedPrice(snapshot: Snapshot, info: ContractInfo, day: string, now: number): void {
    const fixedAt = this.market.session('stock', day).auctions[1];
    if (fixedAt === undefined || now < fixedAt) return;
    const fixed = this.days.fixedPriceTape(info, day);
    if (fixed && publishedCount(fixed, now) > 0) snapshot.datetime = taipeiDateTime(fixed.times[0]!);
  }

  private basisOf(info: ContractInfo, day: string): SnapshotBasis {
    const listed = this.market.listings.infoOn(info.code, day) ?? info;
    return {
      listed,
      reference: 'reference' in listed ? listed.reference : 0,
      limits: 'limit_up' in listed ? { up: listed.limit_up, down: listed.limit_down } : null,
      yesterdayVolume: this.market.totalVolume(listed, previousTradingDay(day)),
      counted: { count: 0, high: Number.NEGATIVE_INFINITY, low: Number.POSITIVE_INFINITY, volume: 0, amount: 0 },
    };
  }
}

/**
 * The day so far of a tape's first count trades, as tradeStats counts them (the same sums in the same order), counted
 * on from the basis's last count; a clock gone back counts afresh.
 */
function statsOf(basis: SnapshotBasis, tape: Tape, count: number): TradeStats {
  const counted = basis.counted;
  if (count < counted.count) return tradeStats(tape, count);
  for (let k = counted.count; k < count; k++) {
    const price = tape.prices[k]!;
    if (price > counted.high) counted.high = price;
    if (price < counted.low) counted.low = price;
    counted.volume += tape.volumes[k]!;
    counted.amount += price * tape.volumes[k]! * tape.amountUnit;
  }
  counted.count = count;
  const traded = count > 0;
  return {
    count,
    open: traded ? tape.prices[0]! : 0,
    high: traded ? counted.high : 0,
    low: traded ? counted.low : 0,
    close: traded ? tape.prices[count - 1]! : 0,
    volume: counted.volume,
    amount: counted.amount,
  };
}

export function snapshotFrom(
  now: number,
  code: string,
  exchange: string,
  tape: Tape,
  stats: TradeStats,
  reference: number,
  yesterdayVolume: number,
  limits: { up: number; down: number } | null,
): Snapshot {
  const last = stats.count - 1;
  const traded = stats.count > 0;
  const close = traded ? stats.close : reference;
  const change = roundTo(close - reference, 4);
  return {
    datetime: taipeiDateTime(traded ? tape.times[last]! : now * 1000),
    code,
    exchange,
    open: traded ? stats.open : reference,
    high: traded ? stats.high : reference,
    low: traded ? stats.low : reference,
    close,
    tick_type: !traded ? 'None' : tape.tickTypes[last] === 1 ? 'Buy' : tape.tickTypes[last] === 2 ? 'Sell' : 'None',
    change_price: change,
    change_rate: reference ? roundTo((change / reference) * 100, 2) : 0,
    change_type: changeTypeOf(close, reference, limits),
    average_price: stats.volume ? roundTo(stats.amount / (stats.volume * tape.amountUnit), 2) : 0,
    volume: traded ? tape.volumes[last]! : 0,
    total_volume: stats.volume,
    amount: traded ? Math.round(close * tape.volumes[last]! * tape.amountUnit) : 0,
    total_amount: Math.round(stats.amount),
    yesterday_volume: yesterdayVolume,
    buy_price: traded ? tape.bidPrices[last]! : 0,
    buy_volume: traded ? tape.bidVolumes[last]! : 0,
    sell_price: traded ? tape.askPrices[last]! : 0,
    sell_volume: traded ? tape.askVolumes[last]! : 0,
    volume_ratio: yesterdayVolume ? roundTo(stats.volume / yesterdayVolume, 4) : 0,
  };
}
