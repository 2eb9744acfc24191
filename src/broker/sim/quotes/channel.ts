// One quote source (a product's board lots or odd lots, an index, a futures combo) and the streams that read it.
// The source keeps the day's running state once for all its streams; each stream turns the feed's new trades into
// its events: a tick or a quote per trade, one book per step that changed it. Trial matches (simtrade) before the
// auctions reach the same streams, flagged, without counting as trades; the after-hours fixed-price match reaches
// them counted in fixed_trade_vol alone.

import type { ContractInfo } from '../../../domain/contracts.js';
import {
  INDEX_ANALYTICS_EVENTS,
  isIndexAnalytics,
  type MarketEvent,
  type MarketEventName,
  type ProductSubscription,
  type QuoteType,
} from '../../../domain/quotes.js';
import { type Book, bookAt } from '../market/book.js';
import type { FeedUpdate } from '../market/feed.js';
import type { SimMarket } from '../market/market.js';
import type { Tape } from '../market/tape.js';
import { horizonOf } from '../market/tape-cache.js';
import { showIndexAnalytics } from './analytics-stream.js';
import { contextOf, type QuoteContext, type QuoteFamily, type QuoteSource } from './day-context.js';
import { DayState } from './day-state.js';
import { KbarBuilder, kbarPayload, type MinuteBar } from './kbar-builder.js';
import {
  bidAskFop,
  bidAskStk,
  calculatedIndex,
  quoteFop,
  quoteIdx,
  quoteStk,
  sameBook,
  tickFop,
  tickStk,
} from './payloads.js';

export interface Stream {
  quoteType: QuoteType;
  /** The book this stream sent last (diff_*_vol are against it); null before its first book of the day. */
  lastBook: Book | null;
  /**
   * The subscriptions it serves: one stream per quote type of a source, so an alias (TXFR1) and its month (TXFL6)
   * subscribed together get each event once.
   */
  subscriptions: Set<string>;
  /** The index analytics streams: the ranking or projection each subscription asked for, by subscriptionKey. */
  views?: Map<string, ProductSubscription>;
}

const EVENT_NAMES: Record<QuoteFamily, Record<QuoteType, MarketEventName>> = {
  // Only a stock has a kbar stream and only an index a calculated_index one (the subscription rules refuse the rest).
  stk: {
    Tick: 'tick_stk',
    BidAsk: 'bidask_stk',
    Quote: 'quote_stk',
    KBar: 'kbar',
    CalculatedIndex: 'calculated_index',
    ...INDEX_ANALYTICS_EVENTS,
  },
  fop: {
    Tick: 'tick_fop',
    BidAsk: 'bidask_fop',
    Quote: 'quote_fop',
    KBar: 'kbar',
    CalculatedIndex: 'calculated_index',
    ...INDEX_ANALYTICS_EVENTS,
  },
  idx: {
    Tick: 'quote_idx',
    BidAsk: 'quote_idx',
    Quote: 'quote_idx',
    KBar: 'kbar',
    CalculatedIndex: 'calculated_index',
    ...INDEX_ANALYTICS_EVENTS,
  },
};

/** A trade to show: one of the tape's, or a trial match applied to a copy of the day's state. */
interface Shown {
  state: DayState;
  /** The book after it. */
  book: () => Book;
  simtrade: boolean;
}

export class Channel {
  /** By quote type. */
  readonly streams = new Map<QuoteType, Stream>();
  /** The feed keys this source is watched under (its trades, and its trial matches when it has them). */
  readonly feedKeys: string[] = [];
  private tape: Tape | null = null;
  private context: QuoteContext | null = null;
  private state: DayState | null = null;
  /** The bars of a KBar stream, built from the same trades. */
  private readonly kbars = new KbarBuilder();
  /** The index's member trades at the last index value shown (for Count), by tape index. */
  private memberTrades: { k: number; trades: number } | null = null;

  constructor(
    private readonly market: SimMarket,
    readonly source: QuoteSource,
    private readonly emit: (event: MarketEvent) => void,
  ) {}

  /**
   * The feed published trades from..to-1 of the source's tape, or the day's after-hours fixed-price match, which
   * comes after the day's trades and counts in fixed_trade_vol alone.
   */
  onTrades(update: FeedUpdate): void {
    const fixedPrice = update.kind === 'fixed' ? update.tape : null;
    const tape = fixedPrice ? this.market.tape(update.info, update.tape.day) : update.tape;
    const { from, to } = fixedPrice ? { from: tape.times.length, to: tape.times.length } : update;
    this.openDay(update.info, tape);
    let state = this.state!;
    // A state ahead of the feed (it cannot be, but a rebuild costs one pass) is run again from the day's start.
    if (state.count > from) state = this.state = DayState.over(tape, from);
    state.advanceTo(tape, from);
    if (this.streams.has('KBar')) this.showBars(tape, from, to);
    const perTrade = this.perTradeStreams();
    if (perTrade.length === 0) state.advanceTo(tape, to);
    for (let k = from; k < to && perTrade.length > 0; k++) {
      state.addTapeTrade(tape, k);
      this.show(perTrade, { state, book: memo(() => this.bookOf(tape, k + 1)), simtrade: false }, k);
    }
    for (let k = update.from; fixedPrice && k < update.to; k++) {
      state.addFixedPrice(fixedPrice.times[k]!, fixedPrice.prices[k]!, fixedPrice.volumes[k]!);
      this.show(perTrade, { state, book: memo(() => this.bookOf(tape, to)), simtrade: false }, k);
    }
    if (fixedPrice) return;
    this.showBook(() => this.bookOf(tape, to), tape.times[to - 1]!, false);
  }

  /** The feed published trial matches from..to-1 (simtrade): shown on top of the day so far, never counted. */
  onTrial(update: FeedUpdate): void {
    const { tape: trial, from, to } = update;
    this.openDay(update.info, this.market.tape(update.info, trial.day));
    const perTrade = this.perTradeStreams();
    for (let k = from; k < to && perTrade.length > 0; k++) {
      const state = this.state!.withTrial(trial.times[k]!, trial.prices[k]!, trial.volumes[k]!);
      this.show(perTrade, { state, book: memo(() => this.bookOf(trial, k + 1)), simtrade: true }, k);
    }
    this.showBook(() => this.bookOf(trial, to), trial.times[to - 1]!, true);
  }

  /** Opens the day of a tape: its context, and the running state from its first trade. */
  private openDay(info: ContractInfo, tape: Tape): void {
    if (this.tape === tape) return;
    if (this.tape && horizonOf(this.tape) < Number.POSITIVE_INFINITY && sameDay(this.tape, tape)) {
      // The open tape drawn on further (market.tape with an instant): the same day, whose trades so far are the same.
      this.tape = tape;
      return;
    }
    const lastBar = this.tape !== null && tape.day !== this.tape.day ? this.kbars.flush() : null;
    if (lastBar && this.context) this.emit({ name: 'kbar', data: kbarPayload(this.context.code, lastBar) });
    this.tape = tape;
    this.context = contextOf(this.market, this.source, info, tape);
    this.state = new DayState(tape.amountUnit);
    this.memberTrades = null;
    for (const stream of this.streams.values()) stream.lastBook = null;
  }

  private perTradeStreams(): Stream[] {
    const streams: Stream[] = [];
    for (const stream of this.streams.values()) {
      if (stream.quoteType === 'KBar') continue;
      if (stream.quoteType !== 'BidAsk' || this.source.family === 'idx') streams.push(stream);
    }
    return streams;
  }

  /** Drops the bar in progress: a kbar stream that starts again begins with the next whole bar. */
  restartBars(): void {
    this.kbars.flush();
  }

  /**
   * Each bar the trades from..to-1 complete, as a kbar event. A trade stamped on a minute's end (the 13:30 closing
   * auction) completes its bar at once, unless another trade shares its instant; so does the day's last trade.
   */
  private showBars(tape: Tape, from: number, to: number): void {
    const send = (bar: MinuteBar | null) => {
      if (bar) this.emit({ name: 'kbar', data: kbarPayload(this.context!.code, bar) });
    };
    for (let k = from; k < to; k++) {
      send(this.kbars.add(tape, k));
      if (endsItsMinute(tape, k)) send(this.kbars.flush());
    }
  }

  private bookOf(tape: Tape, count: number): Book {
    return bookAt(tape, count, this.context!.reference, this.context!.depth);
  }

  private show(streams: Stream[], shown: Shown, k: number): void {
    const context = this.context!;
    const family = this.source.family;
    const decomposition = memo(() => context.index!.members().decompositionAt(shown.state.last.timeUs / 1000));
    for (const stream of streams) {
      const name = EVENT_NAMES[family][stream.quoteType];
      if (isIndexAnalytics(stream.quoteType)) {
        showIndexAnalytics(this.emit, context, stream, decomposition, shown);
      } else if (stream.quoteType === 'CalculatedIndex') {
        this.emit({ name, data: calculatedIndex(context, shown.state, shown.simtrade) });
      } else if (family === 'idx') {
        this.emit({ name, data: this.indexQuote(shown.state, k) });
      } else if (stream.quoteType === 'Tick') {
        const data =
          family === 'stk'
            ? tickStk(context, shown.state, shown.simtrade)
            : tickFop(context, shown.state, shown.simtrade);
        this.emit({ name, data });
      } else {
        const book = shown.book();
        const quote = family === 'stk' ? quoteStk : quoteFop;
        this.emit({ name, data: quote(context, shown.state, book, stream.lastBook, shown.simtrade) });
        stream.lastBook = book;
      }
    }
  }

  /** BidAsk streams get the book once per step, when it differs from the one they sent last. */
  private showBook(bookNow: () => Book, epochUs: number, simtrade: boolean): void {
    if (this.source.family === 'idx') return;
    const context = this.context!;
    let book: Book | null = null;
    for (const stream of this.streams.values()) {
      if (stream.quoteType !== 'BidAsk') continue;
      book ??= bookNow();
      if (sameBook(book, stream.lastBook)) continue;
      const name = EVENT_NAMES[this.source.family][stream.quoteType];
      const bidAsk = this.source.family === 'stk' ? bidAskStk : bidAskFop;
      this.emit({ name, data: bidAsk(context, epochUs, book, stream.lastBook, simtrade) });
      stream.lastBook = book;
    }
  }

  private indexQuote(state: DayState, k: number) {
    const { breadth } = this.context!.index!;
    const tape = this.tape!;
    const now = breadth.at(tape.times[k]! / 1000);
    const before =
      this.memberTrades?.k === k - 1
        ? this.memberTrades.trades
        : k > 0
          ? breadth.tradesAt(tape.times[k - 1]! / 1000)
          : 0;
    this.memberTrades = { k, trades: now.trades };
    return quoteIdx(this.context!, state, now, now.trades - before);
  }
}

function memo<T>(compute: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= compute();
    return value;
  };
}

/** Whether trade k is the last of its minute: stamped on the minute's end with no trade after it at that instant. */
function endsItsMinute(tape: Tape, k: number): boolean {
  const time = tape.times[k]!;
  if (k + 1 === tape.times.length) return true;
  return time % 60_000_000 === 0 && tape.times[k + 1] !== time;
}

const sameDay = (a: Tape, b: Tape): boolean => a.code === b.code && a.day === b.day;
