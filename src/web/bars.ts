// One-minute bars per code: the history from /data/kbars once, then every trade of the stream folded into the
// current bar. Bars are right-labelled as the kbars API's (the 09:01 bar holds 09:00:00-09:01:00), and their times
// are Taiwan wall clock read as UTC, so the chart shows Taiwan time in any browser.

import { client } from './api';
import { taipeiWallMs } from './format';
import { type LiveTrade, quoteBook, TRADE_FAMILIES, tradeOf } from './quotes';
import type { EventStream } from './stream';
import type { Kbars } from './types';

export interface Bar {
  /** Seconds: the end of the minute, Taiwan wall clock as if UTC. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** Calendar days of history to load: a weekend plus a couple of trading days. */
const HISTORY_DAYS = 4;
/**
 * Calendar days past the quote's date that the range reaches. A futures trading day starts the evening before (the
 * night session of 15:00 belongs to the next trading day, after a weekend to Monday's), while its ticks carry the
 * calendar date: the range must reach that day. Days not yet traded come back empty.
 */
const SESSION_DAYS_AHEAD = 4;

const history = new Map<string, Bar[]>();
const barListeners = new Set<(code: string, bar: Bar) => void>();

function barsOf(kbars: Kbars): Bar[] {
  return kbars.datetime.map((datetime, i) => ({
    time: Date.parse(`${datetime}Z`) / 1000,
    open: kbars.Open[i]!,
    high: kbars.High[i]!,
    low: kbars.Low[i]!,
    close: kbars.Close[i]!,
    volume: kbars.Volume[i]!,
  }));
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86400_000).toISOString().slice(0, 10);
}

/**
 * The bars of a code, asked once per page: kbars count toward the day's query traffic and call limits.
 * `tradingDay` (YYYY-MM-DD, from the code's quote) sets the range; without it the gateway's today is used.
 */
export async function loadBars(code: string, tradingDay: string | null): Promise<Bar[]> {
  const known = history.get(code);
  if (known) return known;
  const range = tradingDay
    ? { start: addDays(tradingDay, -HISTORY_DAYS), end: addDays(tradingDay, SESSION_DAYS_AHEAD) }
    : {};
  const bars = barsOf(await client.data.kbars({ contract: { code }, ...range }));
  // Only a full range is kept; today's bars alone are asked again once the day is known.
  if (!tradingDay) return bars;
  if (!history.has(code)) history.set(code, bars);
  return history.get(code)!;
}

/** Calls `listener` with each bar a trade changed; returns the unsubscribe. */
export function onBar(listener: (code: string, bar: Bar) => void): () => void {
  barListeners.add(listener);
  return () => barListeners.delete(listener);
}

/** Folds the stream's trades into the loaded bars; returns the disconnect. */
export function connectBars(stream: EventStream): () => void {
  const stops = TRADE_FAMILIES.map((family) =>
    stream.on(family, (data) => {
      const trade = tradeOf(family, data);
      const code = trade && quoteBook.watchedCode(trade.eventCode);
      const bar = code && trade ? addTrade(code, trade) : null;
      if (code && bar) for (const listener of barListeners) listener(code, bar);
    }),
  );
  return () => {
    for (const stop of stops) stop();
  };
}

/** Folds a trade into the code's bars (if they are loaded) and returns the bar it changed. */
function addTrade(code: string, trade: LiveTrade): Bar | null {
  const bars = history.get(code);
  if (!bars) return null;
  const time = Math.ceil(taipeiWallMs(trade.date, trade.time) / 60_000) * 60;
  const last = bars.at(-1);
  if (last && time < last.time) return null;
  if (last && time === last.time) {
    last.high = Math.max(last.high, trade.price);
    last.low = Math.min(last.low, trade.price);
    last.close = trade.price;
    last.volume += trade.volume;
    return last;
  }
  const bar = {
    time,
    open: trade.price,
    high: trade.price,
    low: trade.price,
    close: trade.price,
    volume: trade.volume,
  };
  bars.push(bar);
  return bar;
}
