// Tapes turned into the columnar records of the market-data API: ticks as published, and one-minute bars
// aggregated from exactly those ticks.

import type { Kbars, Ticks } from '../../../domain/market-data.js';
import { TAIPEI_OFFSET_MS } from '../../../domain/time.js';
import type { Tape } from './tape.js';

/** 'YYYY-MM-DDTHH:MM:SS.ffffff' on the Taiwan wall clock, from epoch microseconds. */
export function taipeiDateTime(epochUs: number): string {
  const ms = Math.floor(epochUs / 1000);
  const micros = String(Math.floor(epochUs) % 1_000_000).padStart(6, '0');
  return `${new Date(ms + TAIPEI_OFFSET_MS).toISOString().slice(0, 19)}.${micros}`;
}

/** 'YYYY-MM-DDTHH:MM:SS' on the Taiwan wall clock, from epoch milliseconds. */
export function taipeiSeconds(epochMs: number): string {
  return new Date(epochMs + TAIPEI_OFFSET_MS).toISOString().slice(0, 19);
}

/** The ticks of a tape with index in [from, to). */
export function ticksOf(tape: Tape, from: number, to: number): Ticks {
  const slice = (values: Float64Array | Uint32Array | Uint8Array) => Array.from(values.subarray(from, to));
  const datetime = new Array<string>(Math.max(0, to - from));
  for (let k = from; k < to; k++) datetime[k - from] = taipeiDateTime(tape.times[k]!);
  return {
    datetime,
    close: slice(tape.prices),
    volume: slice(tape.volumes),
    bid_price: slice(tape.bidPrices),
    bid_volume: slice(tape.bidVolumes),
    ask_price: slice(tape.askPrices),
    ask_volume: slice(tape.askVolumes),
    tick_type: slice(tape.tickTypes),
  };
}

const MINUTE_US = 60_000_000;
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * One-minute bars of a tape's first count trades, right-labelled: the 09:01 bar holds the trades after 09:00:00 up
 * to 09:01:00 inclusive, so the 13:30:00 closing auction is in the 13:30 bar. Minutes without trades have no bar.
 */
export function kbarsOf(tape: Tape, count: number, kbars: Kbars): Kbars {
  const offsetUs = TAIPEI_OFFSET_MS * 1000;
  let label = -1;
  for (let k = 0; k < count; k++) {
    // Whole microseconds on the Taiwan wall clock, as the ticks' datetime shows them.
    const us = Math.floor(tape.times[k]!) + offsetUs;
    const minute = Math.ceil(us / MINUTE_US) * MINUTE_US;
    const price = tape.prices[k]!;
    const volume = tape.volumes[k]!;
    if (minute !== label) {
      label = minute;
      kbars.datetime.push(taipeiSeconds(minute / 1000 - TAIPEI_OFFSET_MS));
      kbars.Open.push(price);
      kbars.High.push(price);
      kbars.Low.push(price);
      kbars.Close.push(price);
      kbars.Volume.push(0);
      kbars.Amount.push(0);
    }
    const last = kbars.datetime.length - 1;
    kbars.High[last] = Math.max(kbars.High[last]!, price);
    kbars.Low[last] = Math.min(kbars.Low[last]!, price);
    kbars.Close[last] = price;
    kbars.Volume[last] = kbars.Volume[last]! + volume;
    kbars.Amount[last] = round4(kbars.Amount[last]! + price * volume * tape.amountUnit);
  }
  return kbars;
}
