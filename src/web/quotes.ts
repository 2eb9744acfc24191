// Live quotes of the watched codes, kept outside React: every trade and bid/ask updates a quote at once, and React
// hears about it at most every 50 ms, so a storm of ticks at the open costs one render per batch.

import { decimal } from './format';
import type { EventStream } from './stream';
import type { Snapshot } from './types';

export interface Quote {
  last: number | null;
  change: number | null;
  changePercent: number | null;
  bid: number | null;
  ask: number | null;
  volume: number | null;
  /** Taiwan wall time of the last trade, HH:MM:SS. */
  time: string | null;
  /** Trades seen on the stream since the page opened. */
  ticks: number;
  /** The simulated trading day the quote belongs to, YYYY-MM-DD. */
  date: string | null;
}

const EMPTY: Quote = {
  last: null,
  change: null,
  changePercent: null,
  bid: null,
  ask: null,
  volume: null,
  time: null,
  ticks: 0,
  date: null,
};
const BATCH_MS = 50;

/** One trade (or index value) of the stream, whatever its family. */
export interface LiveTrade {
  /** The code on the event: the real month of a continuous future (TXFL6 for TXFR1). */
  eventCode: string;
  date: string;
  time: string;
  price: number;
  volume: number;
  change: number | null;
  changePercent: number | null;
  totalVolume: number | null;
}

export const TRADE_FAMILIES = ['tick_stk', 'tick_fop', 'quote_idx'] as const;
const BIDASK_FAMILIES = ['bidask_stk', 'bidask_fop'] as const;

interface TickPayload {
  code: string;
  date: string;
  time: string;
  close: string;
  volume: number;
  price_chg: string;
  pct_chg: string;
  total_volume: number;
  simtrade?: boolean;
  intraday_odd?: boolean;
}

/** quote_idx keeps the upstream PascalCase names. */
interface IndexPayload {
  code: string;
  Date: string;
  Time: string;
  Close: string;
  Reference: string;
  Volume: number;
}

interface BidAskPayload {
  code: string;
  bid_price: string[];
  ask_price: string[];
  simtrade?: boolean;
  intraday_odd?: boolean;
}

/** The trade an event reports; null for trial matches and odd lots, which are not board-lot trades. */
export function tradeOf(family: (typeof TRADE_FAMILIES)[number], data: unknown): LiveTrade | null {
  if (family === 'quote_idx') {
    const index = data as IndexPayload;
    const price = decimal(index.Close);
    const reference = decimal(index.Reference);
    if (price === null) return null;
    const change = reference === null ? null : price - reference;
    return {
      eventCode: index.code,
      date: index.Date,
      time: index.Time,
      price,
      volume: index.Volume ?? 0,
      change,
      changePercent: change === null || !reference ? null : (change / reference) * 100,
      totalVolume: null,
    };
  }
  const tick = data as TickPayload;
  const price = decimal(tick.close);
  if (tick.simtrade || tick.intraday_odd || price === null) return null;
  return {
    eventCode: tick.code,
    date: tick.date,
    time: tick.time,
    price,
    volume: tick.volume,
    change: decimal(tick.price_chg),
    changePercent: decimal(tick.pct_chg),
    totalVolume: tick.total_volume,
  };
}

class QuoteBook {
  /** Bumped once per batch: React re-renders when it changes. */
  version = 0;
  private readonly quotes = new Map<string, Quote>();
  /** The code events carry (TXFL6) to the code watched (TXFR1). */
  private readonly watchedCodeOf = new Map<string, string>();
  private readonly listeners = new Set<() => void>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = () => this.version;

  get(code: string): Quote {
    return this.quotes.get(code) ?? EMPTY;
  }

  /** Events about `eventCode` (the real month of a continuous future) update the quote of `code`. */
  watch(code: string, eventCode: string): void {
    this.watchedCodeOf.set(eventCode, code);
    this.watchedCodeOf.set(code, code);
  }

  watchedCode(eventCode: string): string | undefined {
    return this.watchedCodeOf.get(eventCode);
  }

  applySnapshot(code: string, snapshot: Snapshot): void {
    this.update(code, {
      last: snapshot.close,
      change: snapshot.change_price,
      changePercent: snapshot.change_rate,
      bid: snapshot.buy_price || null,
      ask: snapshot.sell_price || null,
      volume: snapshot.total_volume,
      time: snapshot.datetime.slice(11, 19),
      date: snapshot.datetime.slice(0, 10),
    });
  }

  applyTrade(trade: LiveTrade): void {
    const code = this.watchedCodeOf.get(trade.eventCode);
    if (code === undefined) return;
    this.update(code, {
      last: trade.price,
      change: trade.change,
      changePercent: trade.changePercent,
      volume: trade.totalVolume,
      time: trade.time.slice(0, 8),
      date: trade.date,
      ticks: this.get(code).ticks + 1,
    });
  }

  applyBidAsk(data: unknown): void {
    const quote = data as BidAskPayload;
    const code = this.watchedCodeOf.get(quote.code);
    if (code === undefined || quote.simtrade || quote.intraday_odd) return;
    // A price of 0 means nobody bids (or asks): the book is locked at a limit.
    this.update(code, { bid: decimal(quote.bid_price[0]) || null, ask: decimal(quote.ask_price[0]) || null });
  }

  private update(code: string, change: Partial<Quote>): void {
    this.quotes.set(code, { ...this.get(code), ...change });
    this.flushTimer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  private flush(): void {
    this.flushTimer = undefined;
    this.version++;
    for (const listener of this.listeners) listener();
  }
}

export const quoteBook = new QuoteBook();

/** Feeds the quote book from the stream; returns the disconnect. */
export function connectQuoteBook(stream: EventStream): () => void {
  const stops = [
    ...TRADE_FAMILIES.map((family) =>
      stream.on(family, (data) => {
        const trade = tradeOf(family, data);
        if (trade) quoteBook.applyTrade(trade);
      }),
    ),
    ...BIDASK_FAMILIES.map((family) => stream.on(family, (data) => quoteBook.applyBidAsk(data))),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
