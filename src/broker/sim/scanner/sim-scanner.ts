// The simulator's market scanner: the subscribed rules and states evaluated over every stock of an exchange as the
// clock moves. Nothing runs for an exchange nobody scans; for one that is scanned, each step visits only the stocks
// that traded since the last (a heap of each stock's next trade time), so the cost follows the trades, not the
// number of stocks. Signals start from the moment of the subscription: the day's earlier trades are counted into
// each stock's quote, never replayed as signals.

import { previousTradingDay } from '../../../domain/calendar.js';
import type { StockInfo } from '../../../domain/contracts.js';
import type { MarketEvent } from '../../../domain/quotes.js';
import {
  isScannerRule,
  type ScannerExchange,
  type ScannerRule,
  type ScannerState,
  type ScannerSubscription,
  scannerKey,
  volumeBurstThreshold,
} from '../../../domain/scanner-rules.js';
import type { Clock } from '../../../domain/time.js';
import { LISTED_SECURITIES } from '../catalog/listed-securities.js';
import type { SimMarket } from '../market/market.js';
import { publishedCount, quoteAround, type Tape } from '../market/tape.js';
import { horizonOf } from '../market/tape-cache.js';
import { DayState } from '../quotes/day-state.js';
import { type ScannedStock, scannerQuote, signalPayload, statePayload } from './scanner-payloads.js';
import { StockScan } from './stock-scan.js';
import { TradeQueue } from './trade-queue.js';

interface Member {
  stock: ScannedStock;
  info: StockInfo;
  /** The day's trades as far as drawn (SimMarket.tape with an instant): extended when the cursor reaches its horizon. */
  tape: Tape;
  /** Trades counted so far (the tape's next trade to visit). */
  cursor: number;
  state: DayState;
  scan: StockScan;
  /** The day's trial matches, built when simtrade is first scanned; and the next one to show. */
  trial: Tape | null;
  trialCursor: number;
}

/** The scan of one exchange's stocks on one day. */
class ExchangeScan {
  readonly rules = new Set<ScannerRule>();
  readonly states = new Set<ScannerState>();
  private day: string | null = null;
  private members: Member[] = [];
  private readonly queue = new TradeQueue();

  constructor(
    private readonly exchange: ScannerExchange,
    private readonly market: SimMarket,
    private readonly emit: (event: MarketEvent) => void,
    /** Thresholds by exchange and day, kept by the scanner: a scan opened again does not read the day again. */
    private readonly thresholds: Map<string, number>,
  ) {}

  get active(): boolean {
    return this.rules.size > 0 || this.states.size > 0;
  }

  activate(id: ScannerSubscription['scanner'], nowMs: number): void {
    this.ensureDay(nowMs);
    if (isScannerRule(id)) {
      this.rules.add(id);
      // The threshold reads the previous day's tapes: built now rather than in the middle of a step.
      if (id === 'volume_burst') this.volumeThreshold();
      return;
    }
    if (this.states.has(id)) return;
    this.states.add(id);
    if (id === 'simtrade') this.openTrials(nowMs);
    if (id === 'suspend') this.showSuspended(nowMs * 1000);
  }

  deactivate(id: ScannerSubscription['scanner']): void {
    if (isScannerRule(id)) this.rules.delete(id);
    else this.states.delete(id);
  }

  /** Visits every trade and trial match published by now, in time order. */
  step(nowMs: number): void {
    this.ensureDay(nowMs);
    const limitUs = nowMs * 1000;
    for (let entry = this.queue.popUpTo(limitUs); entry !== null; entry = this.queue.popUpTo(limitUs)) {
      const member = this.members[entry.member]!;
      if (entry.trial) this.showTrial(member, entry.member);
      else if (member.cursor < member.tape.times.length) this.visitTrade(member, entry.member);
      else {
        // Past the horizon of a partial tape: drawn on to now (its trades so far are the same).
        member.tape = this.market.tape(member.info, this.day!, nowMs);
        queueNext(this.queue, member, entry.member);
      }
    }
  }

  /** Opens the day the stock market is on: every stock's tape, counted up to now. */
  private ensureDay(nowMs: number): void {
    const day = this.market.dayAt('stock', nowMs);
    if (day === this.day) return;
    this.day = day;
    this.queue.clear();
    this.members = LISTED_SECURITIES.filter((security) => security.exchange === this.exchange).map((security) => {
      const info = this.market.listings.stockOn(security.code, day);
      const tape = this.market.tape(info, day, nowMs);
      const cursor = publishedCount(tape, nowMs);
      const state = DayState.over(tape, cursor);
      const limits = { limitUp: info.limit_up, limitDown: info.limit_down, ticks: tape.rules!.ticks };
      const top =
        cursor > 0
          ? { bid: tape.bidPrices[cursor - 1]!, ask: tape.askPrices[cursor - 1]! }
          : quoteAround(info.reference, tape.rules!);
      const stock = {
        code: info.code,
        reference: info.reference,
        limits: { up: info.limit_up, down: info.limit_down },
        suspend: info.trading_suspended,
      };
      return { stock, info, tape, cursor, state, scan: new StockScan(limits, top), trial: null, trialCursor: 0 };
    });
    for (const [index, member] of this.members.entries()) queueNext(this.queue, member, index);
    if (this.rules.has('volume_burst')) this.volumeThreshold();
    if (this.states.has('simtrade')) this.openTrials(nowMs);
    if (this.states.has('suspend')) this.showSuspended(nowMs * 1000);
  }

  private visitTrade(member: Member, index: number): void {
    const { tape } = member;
    const k = member.cursor++;
    member.state.addTapeTrade(tape, k);
    queueNext(this.queue, member, index);
    // Fed even when no rule is scanned (a state only), so a rule subscribed later starts from the book as it is.
    const top = { bid: tape.bidPrices[k]!, ask: tape.askPrices[k]! };
    const trade = {
      timeUs: tape.times[k]!,
      price: tape.prices[k]!,
      volume: tape.volumes[k]!,
      amount: tape.prices[k]! * tape.volumes[k]! * tape.amountUnit,
      top,
    };
    const signals = member.scan.onTrade(trade, this.rules, this.volumeThreshold());
    if (signals.length === 0) return;
    const quote = scannerQuote(member.stock, member.state, top, trade.timeUs, false);
    for (const signal of signals) this.emit({ name: 'scanner', data: signalPayload(this.exchange, quote, signal) });
  }

  /** A trial match (simtrade): shown on top of the day so far, never counted. */
  private showTrial(member: Member, index: number): void {
    const trial = member.trial!;
    const k = member.trialCursor++;
    queueNextTrial(this.queue, member, index);
    if (!this.states.has('simtrade')) return;
    const state = member.state.withTrial(trial.times[k]!, trial.prices[k]!, trial.volumes[k]!);
    const top = { bid: trial.bidPrices[k]!, ask: trial.askPrices[k]! };
    const quote = scannerQuote(member.stock, state, top, trial.times[k]!, true);
    const scanners: ScannerState[] =
      member.stock.suspend && this.states.has('suspend') ? ['simtrade', 'suspend'] : ['simtrade'];
    this.emit({ name: 'scanner', data: statePayload(this.exchange, scanners, quote) });
  }

  private openTrials(nowMs: number): void {
    const day = this.day!;
    this.members.forEach((member, index) => {
      if (member.trial) return;
      member.trial = this.market.trialTape(member.info, day);
      member.trialCursor = publishedCount(member.trial, nowMs);
      queueNextTrial(this.queue, member, index);
    });
  }

  /** A suspended stock's quote, when suspend is scanned and when its day opens. */
  private showSuspended(timeUs: number): void {
    for (const member of this.members) {
      if (!member.stock.suspend) continue;
      const top = { bid: 0, ask: 0 };
      const quote = scannerQuote(member.stock, member.state, top, timeUs, false);
      this.emit({ name: 'scanner', data: statePayload(this.exchange, ['suspend'], quote) });
    }
  }

  /** The day's volume_burst threshold, from the previous trading day's trades on this exchange. */
  private volumeThreshold(): number {
    if (!this.rules.has('volume_burst')) return Number.POSITIVE_INFINITY;
    const key = `${this.exchange}|${this.day}`;
    let threshold = this.thresholds.get(key);
    if (threshold === undefined) {
      threshold = previousDayThreshold(this.market, this.members, this.day!);
      for (const kept of this.thresholds.keys()) if (!kept.endsWith(`|${this.day}`)) this.thresholds.delete(kept);
      this.thresholds.set(key, threshold);
    }
    return threshold;
  }

  /** For tests: the members' count and the threshold in force. */
  describe(): { day: string | null; stocks: number; threshold: number | null } {
    const threshold = this.rules.has('volume_burst') ? this.volumeThreshold() : null;
    return { day: this.day, stocks: this.members.length, threshold };
  }
}

/** The volume_burst threshold of a day: from every trade of the day before of the members. */
function previousDayThreshold(market: SimMarket, members: Member[], day: string): number {
  const previous = previousTradingDay(day);
  const values: number[] = [];
  for (const { stock } of members) {
    // One pass over the previous day, which must not evict today's tapes from the cache.
    const tape = market.figures.closedDayTape(market.listings.stockOn(stock.code, previous), previous);
    for (let k = 0; k < tape.times.length; k++) values.push(tape.prices[k]! * tape.volumes[k]! * tape.amountUnit);
  }
  return volumeBurstThreshold(values);
}

/**
 * Queues a stock's next trade, when its tape has one left; at the end of a partial tape, a visit just past its horizon
 * to draw it on.
 */
function queueNext(queue: TradeQueue, member: Member, index: number): void {
  const { tape, cursor } = member;
  if (cursor < tape.times.length) queue.push(tape.times[cursor]!, index, false);
  else if (horizonOf(tape) < Number.POSITIVE_INFINITY) queue.push(horizonOf(tape) * 1000 + 1, index, false);
}

/** Queues a stock's next trial match, when it has one left. */
function queueNextTrial(queue: TradeQueue, member: Member, index: number): void {
  const trial = member.trial;
  if (trial && member.trialCursor < trial.times.length) queue.push(trial.times[member.trialCursor]!, index, true);
}

export class SimScanner {
  private readonly subscribed = new Map<string, ScannerSubscription>();
  private readonly scans = new Map<ScannerExchange, ExchangeScan>();
  private readonly thresholds = new Map<string, number>();
  private readonly listeners = new Set<(event: MarketEvent) => void>();
  private readonly emit = (event: MarketEvent) => {
    for (const listener of this.listeners) listener(event);
  };

  constructor(
    private readonly market: SimMarket,
    private readonly clock: Clock,
  ) {}

  subscribe(subscription: ScannerSubscription): void {
    const key = scannerKey(subscription);
    if (this.subscribed.has(key)) return;
    const scan =
      this.scans.get(subscription.exchange) ??
      new ExchangeScan(subscription.exchange, this.market, this.emit, this.thresholds);
    // Held only once it scans: a subscribe that failed part-way must not look held to the next one.
    scan.activate(subscription.scanner, this.clock.now());
    this.scans.set(subscription.exchange, scan);
    this.subscribed.set(key, subscription);
  }

  unsubscribe(subscription: ScannerSubscription): void {
    const key = scannerKey(subscription);
    if (!this.subscribed.delete(key)) return;
    const scan = this.scans.get(subscription.exchange);
    scan?.deactivate(subscription.scanner);
    // An exchange nobody scans any more costs nothing: its tapes and cursors go.
    if (scan && !scan.active) this.scans.delete(subscription.exchange);
  }

  onMarketEvent(listener: (event: MarketEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Evaluates what traded up to now; the feed calls it on every step. */
  step(): void {
    const now = this.clock.now();
    for (const scan of this.scans.values()) scan.step(now);
  }

  /** The exchanges scanned now, with their stocks and volume_burst threshold (for tests and benches). */
  scanned(): Record<string, ReturnType<ExchangeScan['describe']>> {
    return Object.fromEntries([...this.scans].map(([exchange, scan]) => [exchange, scan.describe()]));
  }

  close(): void {
    this.scans.clear();
    this.subscribed.clear();
  }
}
