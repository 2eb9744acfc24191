// The kbar stream (1.7.1): a stock's completed one-minute bars, built from the same trades as the kbars history and
// cut the same way (a bar holds the trades after its start up to its end inclusive), so each bar the stream sends is
// the bar GET /data/kbars answers for that minute. A bar is complete when the first trade of a later minute comes,
// or at once when a trade stamped on its end closes it (the 13:30 closing auction), and the day's last bar with the
// day's last trade.

import { TAIPEI_OFFSET_MS } from '../../../domain/time.js';
import type { Tape } from '../market/tape.js';
import type { Ohlcv } from '../market/tape-digest.js';
import { rounded, slashedDate } from './payloads.js';

const MINUTE_US = 60_000_000;
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

export interface MinuteBar extends Ohlcv {
  /** Epoch microseconds of the bar's end (the history's label); it starts a minute before. */
  end: number;
  ticks: number;
}

export class KbarBuilder {
  private bar: MinuteBar | null = null;

  /** Adds trade k of a tape; returns the bar it completed, when it is the first trade of a later minute. */
  add(tape: Tape, k: number): MinuteBar | null {
    if (this.bar === null) this.seed(tape, k);
    const end = endOf(tape.times[k]!);
    let completed: MinuteBar | null = null;
    if (this.bar !== null && this.bar.end !== end) {
      completed = this.bar;
      this.bar = null;
    }
    this.include(tape, k, end);
    return completed;
  }

  /** Ends the bar in progress (the day is over): returns it, if there is one. */
  flush(): MinuteBar | null {
    const bar = this.bar;
    this.bar = null;
    return bar;
  }

  /** Subscribed mid-minute: the minute's earlier trades come first, so the first bar is whole. */
  private seed(tape: Tape, k: number): void {
    const end = endOf(tape.times[k]!);
    let first = k;
    while (first > 0 && endOf(tape.times[first - 1]!) === end) first--;
    for (let j = first; j < k; j++) this.include(tape, j, end);
  }

  private include(tape: Tape, k: number, end: number): void {
    const price = tape.prices[k]!;
    const volume = tape.volumes[k]!;
    this.bar ??= { end, open: price, high: price, low: price, close: price, volume: 0, amount: 0, ticks: 0 };
    const bar = this.bar;
    bar.high = Math.max(bar.high, price);
    bar.low = Math.min(bar.low, price);
    bar.close = price;
    bar.volume += volume;
    bar.amount = round4(bar.amount + price * volume * tape.amountUnit);
    bar.ticks++;
  }
}

const endOf = (epochUs: number) => Math.ceil(epochUs / MINUTE_US) * MINUTE_US;

/** The kbar event: `time` is the bar's start, `date` YYYY/MM/DD, prices and amount as numbers. */
export function kbarPayload(code: string, bar: MinuteBar): Record<string, unknown> {
  const start = new Date((bar.end - MINUTE_US) / 1000 + TAIPEI_OFFSET_MS).toISOString();
  return {
    code,
    date: slashedDate(start.slice(0, 10)),
    time: `${start.slice(11, 19)}.000000`,
    open: rounded(bar.open, 4),
    high: rounded(bar.high, 4),
    low: rounded(bar.low, 4),
    close: rounded(bar.close, 4),
    volume: bar.volume,
    amount: Math.round(bar.amount),
    tick_count: bar.ticks,
  };
}
