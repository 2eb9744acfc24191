// The live market: on every step of the clock, what each watched instrument traded since the last step. Tapes are
// pure functions of (seed, code, day), so "live" means publishing them up to now; a trade appears on the feed at
// the same instant it appears in the ticks history, never earlier or later.

import type { ComboContract, ContractInfo, StockInfo } from '../../../domain/contracts.js';
import type { MarketKind } from '../../../domain/sessions.js';
import type { Clock } from '../../../domain/time.js';
import { targetOf } from './listings.js';
import { comboCodeOf, marketOf, type SimMarket } from './market.js';
import { publishedCount, type Tape } from './tape.js';

/**
 * Board-lot trades, odd-lot auctions (shares), trial matches before auctions (simtrade, not trades), a stock's
 * after-hours fixed-price match, or a futures combo's own trades (net prices).
 */
export type MarketFeedKind = 'board' | 'odd' | 'trial' | 'fixed' | 'combo';

export interface FeedUpdate {
  /** The watched key, e.g. 'board:2330'. */
  key: string;
  kind: MarketFeedKind;
  /**
   * The contract as listed on the tape's day (a continuous code resolves to the month it stands for); for a combo,
   * its first (near) leg.
   */
  info: ContractInfo;
  /** The combo whose own tape this is; null for a single product. */
  combo: ComboContract | null;
  tape: Tape;
  /** The new trades are tape indices from..to-1. */
  from: number;
  to: number;
}

interface Watched {
  key: string;
  code: string;
  kind: MarketFeedKind;
  market: MarketKind;
  combo: ComboContract | null;
  day: string | null;
  info: ContractInfo | null;
  tape: Tape | null;
  published: number;
}

/** The longest wait between two steps: a new day, a stalled clock and the step listeners are seen this often. */
export const FEED_STEP_MS = 100;
/**
 * The shortest time between the starts of two steps. A step is due at the next watched trade, so a trade reaches the
 * listeners within this of its time; in a busy market steps come at most this often, not one timer per trade.
 */
export const FEED_MIN_STEP_MS = 5;

export class MarketFeed {
  private readonly watched = new Map<string, Watched>();
  private readonly listeners = new Set<(update: FeedUpdate) => void>();
  private readonly stepListeners = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;
  /** Epoch µs of the next trade of a watched tape (Infinity when none is left today). */
  private nextTradeUs = Number.POSITIVE_INFINITY;
  /** Clock ms when the timer is due, and when the last step ran. */
  private dueAt = Number.POSITIVE_INFINITY;
  private lastStepAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly market: SimMarket,
    private readonly clock: Clock,
  ) {}

  /** Starts publishing a code's trades from now on; watching again is a no-op. Returns the key. */
  watch(code: string, kind: MarketFeedKind): string {
    const key = `${kind}:${code}`;
    if (this.watched.has(key)) return key;
    const info = this.market.listings.infoOn(code, this.market.dayAt('stock', this.clock.now()));
    const market = info ? marketOf(info) : 'futures';
    const entry: Watched = { key, code, kind, market, combo: null, day: null, info: null, tape: null, published: 0 };
    this.watched.set(key, entry);
    this.advance(entry, this.clock.now(), false);
    this.expect(entry);
    return key;
  }

  /** Starts publishing a combo's own trades from now on (market.comboTape); watching again is a no-op. */
  watchCombo(combo: ComboContract): string {
    const code = comboCodeOf(combo);
    const key = `combo:${code}:${combo.combo_type}`;
    if (this.watched.has(key)) return key;
    const entry: Watched = {
      key,
      code,
      kind: 'combo',
      market: 'futures',
      combo,
      day: null,
      info: null,
      tape: null,
      published: 0,
    };
    this.watched.set(key, entry);
    this.advance(entry, this.clock.now(), false);
    this.expect(entry);
    return key;
  }

  unwatch(key: string): void {
    this.watched.delete(key);
  }

  get size(): number {
    return this.watched.size;
  }

  onUpdate(listener: (update: FeedUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls the listener after every step (the market scanner reads the whole market at the feed's pace). */
  onStep(listener: () => void): () => void {
    this.stepListeners.add(listener);
    return () => this.stepListeners.delete(listener);
  }

  /** Publishes everything traded up to now. Called by the timer; tests call it after moving a manual clock. */
  step(): void {
    const now = this.clock.now();
    this.lastStepAt = now;
    const days = { stock: this.market.dayAt('stock', now), futures: this.market.dayAt('futures', now) };
    this.nextTradeUs = Number.POSITIVE_INFINITY;
    for (const entry of this.watched.values()) {
      if (entry.day !== days[entry.market]) this.openDay(entry, days[entry.market]);
      this.advance(entry, now, true);
      this.nextTradeUs = Math.min(this.nextTradeUs, nextTradeOf(entry));
    }
    for (const listener of this.stepListeners) listener();
  }

  /** Steps on a timer due at the next watched trade, at most every FEED_MIN_STEP_MS and at least every FEED_STEP_MS. */
  start(): void {
    if (this.timer) return;
    this.schedule();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.dueAt = Number.POSITIVE_INFINITY;
  }

  /** Epoch ms at which the next step is due, by the clock: the next watched trade within the step bounds. */
  nextStepAt(): number {
    const now = this.clock.now();
    const trade = Math.ceil(this.nextTradeUs / 1000);
    return Math.min(now + FEED_STEP_MS, Math.max(trade, this.lastStepAt + FEED_MIN_STEP_MS, now));
  }

  private readonly onTimer = (): void => {
    this.timer = null;
    this.step();
    this.schedule();
  };

  private schedule(): void {
    this.dueAt = this.nextStepAt();
    this.timer = setTimeout(this.onTimer, Math.max(1, this.dueAt - this.clock.now()));
    this.timer.unref();
  }

  /** A newly watched tape whose next trade comes before the step now due brings the step forward. */
  private expect(entry: Watched): void {
    this.nextTradeUs = Math.min(this.nextTradeUs, nextTradeOf(entry));
    if (this.timer === null || this.nextStepAt() >= this.dueAt) return;
    clearTimeout(this.timer);
    this.schedule();
  }

  private openDay(entry: Watched, day: string): void {
    entry.day = day;
    entry.published = 0;
    if (entry.combo) {
      // A combo trades while its legs are listed; after the near leg expires its tape is gone.
      entry.info = this.market.listings.infoOn(entry.combo.legs[0].code, day) ?? null;
      entry.tape = entry.info ? this.market.comboTape(entry.combo, day) : null;
      return;
    }
    const listed = this.market.listings.infoOn(entry.code, day);
    entry.info = listed ? targetOf(listed) : null;
    entry.tape = entry.info ? this.tapeOf(entry.info, entry.kind, day) : null;
  }

  private tapeOf(info: ContractInfo, kind: MarketFeedKind, day: string): Tape | null {
    if (kind === 'odd') return info.security_type === 'STK' ? this.market.oddLotTape(info as StockInfo, day) : null;
    if (kind === 'trial') return this.market.trialTape(info, day);
    if (kind === 'fixed')
      return info.security_type === 'STK' ? this.market.fixedPriceTape(info as StockInfo, day) : null;
    return this.market.tape(info, day);
  }

  private advance(entry: Watched, now: number, publish: boolean): void {
    if (!entry.day) this.openDay(entry, this.market.dayAt(entry.market, now));
    const { tape, info } = entry;
    if (!tape || !info) return;
    const count = publishedCount(tape, now);
    if (count <= entry.published) return;
    const update = {
      key: entry.key,
      kind: entry.kind,
      info,
      combo: entry.combo,
      tape,
      from: entry.published,
      to: count,
    };
    entry.published = count;
    if (publish) for (const listener of this.listeners) listener(update);
  }
}

/** Epoch µs of the entry's next unpublished trade; Infinity when its tape has none left. */
function nextTradeOf(entry: Watched): number {
  const times = entry.tape?.times;
  return times && entry.published < times.length ? times[entry.published]! : Number.POSITIVE_INFINITY;
}
