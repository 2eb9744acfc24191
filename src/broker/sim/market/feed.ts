// The live market: on every step of the clock, what each watched instrument traded since the last step. Tapes are
// pure functions of (seed, code, day), so "live" means publishing them up to now; a trade appears on the feed at
// the same instant it appears in the ticks history, never earlier or later. The feed steps at the next watched trade
// (feed-timer.ts) and each step visits only the tapes that traded (due-trades.ts).

import type { ComboContract, ContractInfo, StockInfo } from '../../../domain/contracts.js';
import type { MarketKind } from '../../../domain/sessions.js';
import type { Clock } from '../../../domain/time.js';
import { DueTrades } from './due-trades.js';
import { nextStepAt, StepTimer } from './feed-timer.js';
import { targetOf } from './listings.js';
import { comboCodeOf, marketOf, type SimMarket } from './market.js';
import { publishedCount, type Tape } from './tape.js';
import { horizonOf } from './tape-cache.js';

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
  /** Epoch µs of its tape's next trade after those published; Infinity when none is left (or it is unwatched). */
  nextTradeUs: number;
}

export { FEED_MIN_STEP_MS, FEED_STEP_MS } from './feed-timer.js';

export class MarketFeed {
  private readonly watched = new Map<string, Watched>();
  private readonly listeners = new Set<(update: FeedUpdate) => void>();
  private readonly stepListeners = new Set<() => void>();
  private readonly due = new DueTrades<Watched>();
  private readonly timer: StepTimer;
  /** Clock ms of the last step. */
  private lastStepAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly market: SimMarket,
    private readonly clock: Clock,
  ) {
    this.timer = new StepTimer(
      clock,
      () => this.nextStepAt(),
      () => this.step(),
    );
  }

  /** Starts publishing a code's trades from now on; watching again is a no-op. Returns the key. */
  watch(code: string, kind: MarketFeedKind): string {
    const key = `${kind}:${code}`;
    if (this.watched.has(key)) return key;
    const info = this.market.listings.infoOn(code, this.market.dayAt('stock', this.clock.now()));
    const market = info ? marketOf(info) : 'futures';
    return this.add({ key, code, kind, market, combo: null });
  }

  /** Starts publishing a combo's own trades from now on (market.comboTape); watching again is a no-op. */
  watchCombo(combo: ComboContract): string {
    const code = comboCodeOf(combo);
    const key = `combo:${code}:${combo.combo_type}`;
    if (this.watched.has(key)) return key;
    return this.add({ key, code, kind: 'combo', market: 'futures', combo });
  }

  unwatch(key: string): void {
    const entry = this.watched.get(key);
    if (entry) entry.nextTradeUs = Number.POSITIVE_INFINITY;
    this.watched.delete(key);
  }

  /** Watches from now on; a tape that trades before the step now due brings the step forward. */
  private add(watch: Pick<Watched, 'key' | 'code' | 'kind' | 'market' | 'combo'>): string {
    const entry: Watched = { ...watch, day: null, info: null, tape: null, published: 0, nextTradeUs: 0 };
    this.watched.set(entry.key, entry);
    this.advance(entry, this.clock.now(), false);
    this.due.push(entry);
    this.timer.reconsider();
    return entry.key;
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

  /**
   * Publishes everything traded up to now: the tapes that traded, or every tape when a market's day changed. Called by
   * the timer; tests call it after moving a manual clock.
   */
  step(): void {
    const now = this.clock.now();
    this.lastStepAt = now;
    const days = { stock: this.market.dayAt('stock', now), futures: this.market.dayAt('futures', now) };
    const daysKey = `${days.stock} ${days.futures}`;
    if (this.due.days !== daysKey) {
      this.due.clear();
      this.due.days = daysKey;
      for (const entry of this.watched.values()) {
        if (entry.day !== days[entry.market]) openDay(this.market, entry, days[entry.market], now);
        this.advance(entry, now, true);
        this.due.push(entry);
      }
    } else {
      for (let entry = this.due.popUpTo(now * 1000); entry !== null; entry = this.due.popUpTo(now * 1000)) {
        this.advance(entry, now, true);
        this.due.push(entry);
      }
    }
    for (const listener of this.stepListeners) listener();
  }

  /** Steps on a timer due at the next watched trade, at most every FEED_MIN_STEP_MS and at least every FEED_STEP_MS. */
  start(): void {
    this.timer.start();
  }

  stop(): void {
    this.timer.stop();
  }

  /** Epoch ms at which the next step is due, by the clock. */
  nextStepAt(): number {
    return nextStepAt(this.clock.now(), this.lastStepAt, this.due.nextUs);
  }

  private advance(entry: Watched, now: number, publish: boolean): void {
    if (!entry.day) openDay(this.market, entry, this.market.dayAt(entry.market, now), now);
    entry.nextTradeUs = Number.POSITIVE_INFINITY;
    if (!entry.tape || !entry.info) return;
    // A partial tape is drawn on once the clock passes its horizon; its trades so far stay the same.
    if (horizonOf(entry.tape) < now) entry.tape = this.market.tape(entry.info, entry.day!, now);
    const { tape, info } = entry;
    const count = publishedCount(tape, now);
    entry.nextTradeUs = count < tape.times.length ? tape.times[count]! : horizonOf(tape) * 1000 + 1;
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

/** Opens the entry's tape of a day (none when its contract is not listed that day). */
function openDay(market: SimMarket, entry: Watched, day: string, now: number): void {
  entry.day = day;
  entry.published = 0;
  if (entry.combo) {
    // A combo trades while its legs are listed; after the near leg expires its tape is gone.
    entry.info = market.listings.infoOn(entry.combo.legs[0].code, day) ?? null;
    entry.tape = entry.info ? market.comboTape(entry.combo, day) : null;
    return;
  }
  const listed = market.listings.infoOn(entry.code, day);
  entry.info = listed ? targetOf(listed) : null;
  entry.tape = entry.info ? tapeOf(market, entry.info, entry.kind, day, now) : null;
}

function tapeOf(market: SimMarket, info: ContractInfo, kind: MarketFeedKind, day: string, now: number): Tape | null {
  if (kind === 'odd') return info.security_type === 'STK' ? market.oddLotTape(info as StockInfo, day) : null;
  if (kind === 'trial') return market.trialTape(info, day);
  if (kind === 'fixed') return info.security_type === 'STK' ? market.fixedPriceTape(info as StockInfo, day) : null;
  return market.tape(info, day, now);
}
