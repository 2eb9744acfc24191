// The simulator's market-data service: ticks, bars, snapshots and rankings read from the simulated market,
// as published up to the clock's now.

import { previousTradingDay, tradingDaysBetween } from '../../domain/calendar.js';
import type { StockInfo } from '../../domain/contracts.js';
import { InvalidRequestError } from '../../domain/errors.js';
import {
  CHANGE_TYPE_NUMBERS,
  type ContractRef,
  type CreditEnquire,
  type DailyQuotes,
  emptyKbars,
  type InstrumentRef,
  type Kbars,
  type KbarsQuery,
  MAX_SNAPSHOTS,
  type Notice,
  type Punish,
  type ScannerItem,
  type ScannerQuery,
  type ShortStockSource,
  type Snapshot,
  type Ticks,
  type TicksQuery,
} from '../../domain/market-data.js';
import { type Clock, daysBetween, taipeiDate } from '../../domain/time.js';
import type { SimContracts } from './contracts.js';
import { HISTORY_START } from './market/daily.js';
import { kbarsOf } from './market/history.js';
import type { SimMarket } from './market/market.js';
import { creditEnquires, noticeList, punishList, shortStockSources } from './market/reference-data.js';
import { publishedCount } from './market/tape.js';
import { tradeStats } from './market/tape-digest.js';
import { PublishedDays } from './published-days.js';
import { SimSnapshots, snapshotFrom } from './snapshots.js';

export const MAX_KBARS_DAYS = 30;

const roundTo = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export class SimMarketData {
  private readonly days: PublishedDays;
  private readonly snapshotBook: SimSnapshots;

  constructor(
    private readonly market: SimMarket,
    private readonly contracts: SimContracts,
    private readonly clock: Clock,
  ) {
    this.days = new PublishedDays(market, contracts, clock);
    this.snapshotBook = new SimSnapshots(market, this.days, clock);
  }

  ticks(query: TicksQuery): Ticks {
    const queryType = query.query_type ?? 'AllDay';
    if (queryType === 'RangeTime') requireFields(query, ['time_start', 'time_end'], 'RangeTime');
    if (queryType === 'LastCount') requireFields(query, ['last_cnt'], 'LastCount');
    // The last ticks only are turned into records: a day of a busy stock is tens of thousands.
    if (queryType === 'LastCount') return this.days.dayTicks(query.contract, query.date, query.last_cnt!);
    const all = this.days.dayTicks(query.contract, query.date);
    if (queryType === 'AllDay') return all;
    return filterColumns(all, (datetime) => {
      const time = datetime.slice(11, 19);
      return time >= query.time_start!.slice(0, 8) && time <= query.time_end!.slice(0, 8);
    });
  }

  kbars(query: KbarsQuery): Kbars {
    const today = taipeiDate(this.clock.now());
    const start = query.start ?? today;
    const end = query.end ?? today;
    if (end < start) throw new InvalidRequestError(`Kbars start ${start} is after end ${end}`);
    if (daysBetween(start, end) > MAX_KBARS_DAYS) {
      throw new InvalidRequestError(`Kbars date range must not exceed ${MAX_KBARS_DAYS} days (got ${start} to ${end})`);
    }
    const kbars = emptyKbars();
    for (const day of tradingDaysBetween(start, end)) {
      const published = this.days.publishedTape(query.contract, day);
      if (published) kbarsOf(published.tape, published.count, kbars);
    }
    return kbars;
  }

  snapshots(instruments: InstrumentRef[]): Snapshot[] {
    if (instruments.length > MAX_SNAPSHOTS) {
      throw new InvalidRequestError(
        `snapshots takes at most ${MAX_SNAPSHOTS} contracts per request, got ${instruments.length}; split the list`,
      );
    }
    return instruments.map((ref) => this.snapshotBook.of(ref));
  }

  scanner(query: ScannerQuery): ScannerItem[] {
    const count = query.count ?? 200;
    const day = this.days.dayOrCurrent(query.date, 'STK');
    if (!this.market.daily.knows(day) || day < HISTORY_START || day > this.market.dayAt('stock', this.clock.now()))
      return [];
    // Every stock is ranked from its day's digest; only the rows returned read their tapes.
    const ranked = this.contracts.list('STK').map((contract) => ({
      code: contract.code,
      value: this.rankValue(contract.code, day, query.scanner_type),
    }));
    const descending = query.ascending ?? true;
    ranked.sort((a, b) => (descending ? b.value - a.value : a.value - b.value));
    return ranked.slice(0, count).map(({ code }) => this.scannerItem(code, day, query.scanner_type));
  }

  /** Stocks and ETFs only, so warrants are always excluded, whatever the request asks. */
  dailyQuotes(date: string | undefined, _excludeWarrants = true): DailyQuotes {
    const day = date ?? this.latestClosedDay();
    const quotes: DailyQuotes = {
      Date: [],
      Code: [],
      Open: [],
      High: [],
      Low: [],
      Close: [],
      Volume: [],
      Transaction: [],
      Amount: [],
    };
    if (!this.market.daily.knows(day) || day > this.market.dayAt('stock', this.clock.now())) return quotes;
    for (const contract of this.contracts.list('STK')) {
      const stats = this.dayStats(this.market.listings.stockOn(contract.code, day), day);
      if (stats.count === 0) continue;
      quotes.Date.push(day);
      quotes.Code.push(contract.code);
      quotes.Open.push(stats.open);
      quotes.High.push(stats.high);
      quotes.Low.push(stats.low);
      quotes.Close.push(stats.close);
      quotes.Volume.push(stats.volume * 1000);
      quotes.Transaction.push(stats.count);
      quotes.Amount.push(Math.round(stats.amount));
    }
    return quotes;
  }

  /** The last trading day whose stock session is over. */
  private latestClosedDay(): string {
    const now = this.clock.now();
    const day = this.market.dayAt('stock', now);
    return now >= this.market.session('stock', day).end ? day : previousTradingDay(day);
  }

  creditEnquire(contracts: ContractRef[]): CreditEnquire[] {
    return creditEnquires(this.stocksOf(contracts, 'credit_enquire'));
  }

  shortStockSources(contracts: ContractRef[]): ShortStockSource[] {
    return shortStockSources(this.stocksOf(contracts, 'short_stock_sources'), this.market.seed, this.clock.now());
  }

  punish(): Punish {
    return punishList(this.listedStocks());
  }

  notice(): Notice {
    return noticeList(this.listedStocks(), this.market.seed);
  }

  private listedStocks(): StockInfo[] {
    return this.contracts.list('STK').map((c) => this.contracts.info(c.code, { securityType: 'STK' }) as StockInfo);
  }

  private stocksOf(contracts: ContractRef[], operation: string): StockInfo[] {
    return contracts.map((ref) => {
      const info = this.days.resolve(ref);
      if (info.security_type !== 'STK') {
        throw new InvalidRequestError(`${operation} is for stocks only; ${ref.code} is ${info.security_type}`);
      }
      return info as StockInfo;
    });
  }

  // ---- snapshots and rankings ----

  private dayStats(info: StockInfo, day: string) {
    return this.market.figures.stockDayStats(info, day, this.clock.now());
  }

  /** What a stock is ranked by, as its scanner row reports it (rank_value), from the day's digest. */
  private rankValue(code: string, day: string, type: ScannerQuery['scanner_type']): number {
    const info = this.market.listings.stockOn(code, day);
    const stats = this.dayStats(info, day);
    const traded = stats.count > 0;
    const close = traded ? stats.close : info.reference;
    const change = roundTo(close - info.reference, 4);
    switch (type) {
      case 'ChangePercentRank':
        return info.reference ? roundTo((change / info.reference) * 100, 2) : 0;
      case 'ChangePriceRank':
        return change;
      case 'DayRangeRank':
        return traded ? roundTo(stats.high - stats.low, 4) : 0;
      case 'VolumeRank':
        return stats.volume;
      case 'AmountRank':
        return Math.round(stats.amount);
      case 'TickCountRank':
        return stats.count;
    }
  }

  private scannerItem(code: string, day: string, type: ScannerQuery['scanner_type']): ScannerItem {
    const info = this.market.listings.stockOn(code, day);
    const tape = this.market.tape(info, day, this.clock.now());
    const count = publishedCount(tape, this.clock.now());
    const snapshot = snapshotFrom(
      this.clock.now(),
      code,
      info.exchange,
      tape,
      tradeStats(tape, count),
      info.reference,
      this.market.totalVolume(info, previousTradingDay(day)),
      { up: info.limit_up, down: info.limit_down },
    );
    const last = count - 1;
    const rankValue: Record<ScannerQuery['scanner_type'], number> = {
      ChangePercentRank: snapshot.change_rate,
      ChangePriceRank: snapshot.change_price,
      DayRangeRank: roundTo(snapshot.high - snapshot.low, 4),
      VolumeRank: snapshot.total_volume,
      AmountRank: snapshot.total_amount,
      TickCountRank: count,
    };
    return {
      date: day,
      code,
      name: info.name,
      datetime: snapshot.datetime,
      open: snapshot.open,
      high: snapshot.high,
      low: snapshot.low,
      close: snapshot.close,
      price_range: roundTo(snapshot.high - snapshot.low, 4),
      // The scanner numbers its tick types the other way round from ticks: 1 inner, 2 outer.
      tick_type: snapshot.tick_type === 'Buy' ? 2 : snapshot.tick_type === 'Sell' ? 1 : 0,
      change_price: snapshot.change_price,
      change_type: CHANGE_TYPE_NUMBERS[snapshot.change_type],
      average_price: snapshot.average_price,
      volume: snapshot.volume,
      total_volume: snapshot.total_volume,
      amount: snapshot.amount,
      total_amount: snapshot.total_amount,
      yesterday_volume: snapshot.yesterday_volume,
      volume_ratio: snapshot.volume_ratio,
      buy_price: snapshot.buy_price,
      buy_volume: snapshot.buy_volume,
      sell_price: snapshot.sell_price,
      sell_volume: snapshot.sell_volume,
      bid_orders: last >= 0 ? Math.max(1, Math.round(tape.bidVolumes[last]! / 3)) : 0,
      bid_volumes: last >= 0 ? tape.bidVolumes[last]! : 0,
      ask_orders: last >= 0 ? Math.max(1, Math.round(tape.askVolumes[last]! / 3)) : 0,
      ask_volumes: last >= 0 ? tape.askVolumes[last]! : 0,
      rank_value: rankValue[type],
    };
  }
}

function requireFields(query: TicksQuery, fields: (keyof TicksQuery)[], queryType: string): void {
  const missing = fields.filter((field) => query[field] === undefined);
  if (missing.length > 0) {
    throw new InvalidRequestError(
      `Please take ${missing.join(' and ')}: query_type ${queryType} needs ${fields.join(' and ')}`,
    );
  }
}

function filterColumns(ticks: Ticks, keep: (datetime: string) => boolean): Ticks {
  const indices = ticks.datetime.flatMap((datetime, i) => (keep(datetime) ? [i] : []));
  return Object.fromEntries(
    Object.entries(ticks).map(([k, v]) => [k, indices.map((i) => (v as unknown[])[i])]),
  ) as unknown as Ticks;
}
