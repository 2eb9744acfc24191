// What a quote stream reports as "so far today": open, high, low, volume, turnover and the split of volume between
// trades at the bid and at the ask, running over a day's tape from its first trade. A stream that starts mid-day
// first runs the state over the trades before it, so its first event already carries the whole day.

import type { Tape } from '../market/tape.js';

/** Volume and trades at the bid (tick_type 2, 內盤) and at the ask (tick_type 1, 外盤). */
export interface SideSplit {
  bidVolume: number;
  bidCount: number;
  askVolume: number;
  askCount: number;
}

/** The after-hours fixed-price match (盤後定價): amount is null until the day has had it. */
export interface FixedMatch {
  volume: number;
  amount: number | null;
}

/** The last trade counted. */
export interface LastTrade {
  timeUs: number;
  volume: number;
  amount: number;
  tickType: number;
}

export class DayState {
  /** Trades counted so far (tape indices 0..count-1 for a tape's state). */
  count = 0;
  open = 0;
  high = 0;
  low = 0;
  close = 0;
  volume = 0;
  amount = 0;
  sides: SideSplit = { bidVolume: 0, bidCount: 0, askVolume: 0, askCount: 0 };
  fixed: FixedMatch = { volume: 0, amount: null };
  last: LastTrade = { timeUs: 0, volume: 0, amount: 0, tickType: 0 };

  constructor(readonly amountUnit: number) {}

  /** The state after the first `count` trades of a tape. */
  static over(tape: Tape, count: number): DayState {
    const state = new DayState(tape.amountUnit);
    state.advanceTo(tape, count);
    return state;
  }

  /** Counts the tape's trades from `count` up to `upTo` (exclusive). */
  advanceTo(tape: Tape, upTo: number): void {
    for (let k = this.count; k < upTo; k++) this.addTapeTrade(tape, k);
  }

  addTapeTrade(tape: Tape, k: number): void {
    this.add(tape.times[k]!, tape.prices[k]!, tape.volumes[k]!, tape.tickTypes[k]!);
  }

  add(timeUs: number, price: number, volume: number, tickType: number): void {
    if (this.count === 0) {
      this.open = price;
      this.high = price;
      this.low = price;
    } else {
      if (price > this.high) this.high = price;
      if (price < this.low) this.low = price;
    }
    const amount = price * volume * this.amountUnit;
    this.count++;
    this.close = price;
    this.volume += volume;
    this.amount += amount;
    const { sides } = this;
    if (tickType === 1) {
      sides.askVolume += volume;
      sides.askCount++;
    } else if (tickType === 2) {
      sides.bidVolume += volume;
      sides.bidCount++;
    }
    this.last = { timeUs, volume, amount, tickType };
  }

  /**
   * The after-hours fixed-price match: counted in `fixed` only, never in the day's volume, turnover or prices (the
   * exchange reports it apart from the regular session); it is the last trade shown.
   */
  addFixedPrice(timeUs: number, price: number, volume: number): void {
    const amount = price * volume * this.amountUnit;
    this.fixed = { volume: this.fixed.volume + volume, amount: (this.fixed.amount ?? 0) + amount };
    this.last = { timeUs, volume, amount, tickType: 0 };
  }

  /**
   * The day as a trial match (試撮) shows it: the indicated price as the last price (and as open, high and low
   * before the first trade), the indicated volume as the last volume, and nothing added to the day's volume,
   * turnover or trade counts.
   */
  withTrial(timeUs: number, price: number, volume: number): DayState {
    const shown = this.clone();
    if (shown.count === 0) {
      shown.open = price;
      shown.high = price;
      shown.low = price;
    }
    shown.close = price;
    shown.last = { timeUs, volume, amount: price * volume * this.amountUnit, tickType: 0 };
    return shown;
  }

  /** Average traded price so far; 0 before the first trade. */
  get averagePrice(): number {
    return this.volume === 0 ? 0 : this.amount / (this.volume * this.amountUnit);
  }

  clone(): DayState {
    const copy = Object.assign(new DayState(this.amountUnit), this);
    copy.sides = { ...this.sides };
    copy.fixed = { ...this.fixed };
    copy.last = { ...this.last };
    return copy;
  }
}
