// What a quote stream reports as "so far today": open, high, low, volume, turnover and the split of volume between
// trades at the bid and at the ask, running over a day's tape from its first trade. A stream that starts mid-day
// first runs the state over the trades before it, so its first event already carries the whole day.

import type { Tape } from '../market/tape.js';

export class DayState {
  /** Trades counted so far (tape indices 0..count-1 for a tape's state). */
  count = 0;
  open = 0;
  high = 0;
  low = 0;
  close = 0;
  volume = 0;
  amount = 0;
  /** Volume and trades at the bid (tick_type 2, 內盤) and at the ask (tick_type 1, 外盤). */
  bidSideVolume = 0;
  bidSideCount = 0;
  askSideVolume = 0;
  askSideCount = 0;
  /** The after-hours fixed-price match (盤後定價), when the day has had it. */
  fixedVolume = 0;
  fixedAmount: number | null = null;
  /** The last trade counted. */
  lastTimeUs = 0;
  lastVolume = 0;
  lastAmount = 0;
  lastTickType = 0;

  constructor(
    readonly amountUnit: number,
    /** Epoch microseconds of the day's fixed-price match, or null when the day has none. */
    private readonly fixedTradeUs: number | null,
  ) {}

  /** The state after the first `count` trades of a tape. */
  static over(tape: Tape, count: number, fixedTradeUs: number | null): DayState {
    const state = new DayState(tape.amountUnit, fixedTradeUs);
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
    if (tickType === 1) {
      this.askSideVolume += volume;
      this.askSideCount++;
    } else if (tickType === 2) {
      this.bidSideVolume += volume;
      this.bidSideCount++;
    }
    if (timeUs === this.fixedTradeUs) {
      this.fixedVolume += volume;
      this.fixedAmount = (this.fixedAmount ?? 0) + amount;
    }
    this.lastTimeUs = timeUs;
    this.lastVolume = volume;
    this.lastAmount = amount;
    this.lastTickType = tickType;
  }

  /** Average traded price so far; 0 before the first trade. */
  get averagePrice(): number {
    return this.volume === 0 ? 0 : this.amount / (this.volume * this.amountUnit);
  }

  clone(): DayState {
    return Object.assign(new DayState(this.amountUnit, this.fixedTradeUs), this);
  }
}
