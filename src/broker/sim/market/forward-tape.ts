// A day's tape drawn forward in time, so that its first trades can be built without the rest: the trades up to an
// instant are exactly the first trades of the whole day's tape. Each random part has its own stream and is drawn one
// trade at a time: the sizes (counted once to know the day's trades), the times (sorted uniforms drawn as successive
// order statistics), the own noise (a Brownian bridge sampled forward toward its end point), the prices and the
// sweeps. A ForwardDraw keeps every stream where it stopped, so a later instant costs only the trades in between.
// Used for stocks on the always-open clock, whose day is long.

import type { QuoteShape } from '../exchange/spread-model.js';
import { forwardTimesByRate, type RateBins, sizeStream } from './activity.js';
import { Rng } from './rng.js';
import { MOST_SWEEP_LEVELS, sweepFrom, sweepStream } from './sweeps.js';
import { type PriceRules, publishedCount, type Tape, TradePricer } from './tape.js';

export interface ForwardDay {
  code: string;
  day: string;
  /** What the day's random streams are keyed by (seed, clock mode, code, day). */
  keys: (string | number)[];
  /** Continuous trading: the lots it trades, the mean trade, and how busy it is over the session (rateBins). */
  volume: number;
  meanTrade: number;
  bins: RateBins;
  /** The day's last print: when (epoch ms, after every continuous trade), its lots and price (the close). */
  closeAtMs: number;
  closingVolume: number;
  closePrice: number;
  /** The share of the day's variance accrued by an instant (epoch ms): the own noise's clock. */
  shareAt: (epochMs: number) => number;
  /** The log fair value at an instant without the own noise, given the share accrued. */
  trendAt: (epochMs: number, share: number) => number;
  /** Standard deviation of the own noise over the whole day, in logs. */
  volatility: number;
  rules: PriceRules;
  amountUnit: number;
  quoteShape: (trades: number) => QuoteShape;
}

/** The trades of a day's tape up to an instant (epoch ms; Infinity for the whole day); `trades` is countTrades(day). */
export function forwardTape(day: ForwardDay, trades: number, untilMs: number): Tape {
  return new ForwardDraw(day, trades).until(untilMs);
}

/** The day's continuous trades: how many sizes its volume is drawn in. */
export function countTrades(day: ForwardDay): number {
  const next = sizeStream(day.volume, day.meanTrade, new Rng(...day.keys, 'sizes'));
  let trades = 0;
  while (next() > 0) trades++;
  return trades;
}

const FIRST_CAPACITY = 256;
const BYTES_PER_TRADE = 6 * 8 + 2 * 4 + 1;

/**
 * A day's tape drawn as far as it has been asked for, ready to be drawn further. Trades are drawn (time, size, fair
 * value, price) in order; a sweep starting at a trade is decided once the trades it could take are drawn. Trades
 * before `decided` are final: every sweep that could take them has been laid. The arrays grow by doubling.
 *
 * Ownership: until() gives views (subarrays) of the arrays over final trades only. Later draws write only past
 * `decided`, or into new, larger arrays, so a tape given out is never changed afterwards; it keeps alive the arrays
 * it views, which hold up to twice its trades.
 */
export class ForwardDraw {
  private readonly nextTime: () => number;
  private readonly nextSize: () => number;
  private readonly ownRng: Rng;
  private readonly pricer: TradePricer;
  private sweepRng: Rng | null = null;
  private tape: Tape;
  /** Trades drawn and priced: continuous ones, then the close once it is due. */
  private drawn = 0;
  /** Continuous trades whose sweep has been decided (the next one to decide on). */
  private decided = 0;
  /** The own noise and the share of the day's variance at the last trade drawn. */
  private own = 0;
  private accrued = 0;
  /** The first trade's fair value, which the sweeps' stream is keyed by. */
  private fairAtStart = 0;

  constructor(
    private readonly day: ForwardDay,
    /** The day's continuous trades; the close is trade number `trades`. */
    readonly trades: number,
  ) {
    const stream = (name: string) => new Rng(...day.keys, name);
    this.nextTime = forwardTimesByRate(day.bins, trades, stream('times'));
    this.nextSize = sizeStream(day.volume, day.meanTrade, stream('sizes'));
    this.ownRng = stream('own');
    this.pricer = new TradePricer({
      code: day.code,
      day: day.day,
      rules: day.rules,
      amountUnit: day.amountUnit,
      auctionFrom: trades,
      rng: stream('prices'),
      typicalVolume: (day.volume + day.closingVolume) / (trades + 1),
      ...day.quoteShape(trades),
    });
    this.tape = emptyTape(day, Math.min(trades + 1, FIRST_CAPACITY));
  }

  /** Bytes of the arrays drawn into. */
  get bytes(): number {
    return this.tape.times.length * BYTES_PER_TRADE;
  }

  /** True once the day's close is drawn: nothing is left to draw. */
  get complete(): boolean {
    return this.drawn > this.trades;
  }

  /** The trades up to an instant (epoch ms; Infinity for the whole day), drawing as far as needed. */
  until(untilMs: number): Tape {
    const limitUs = untilMs * 1000;
    const lastStart = this.trades - 1;
    while (this.decided < lastStart && this.timeOf(this.decided) <= limitUs) this.decide();
    // The last continuous trade starts no sweep: once every sweep is decided, every trade drawn is final.
    if (this.decided >= lastStart) this.drawUpTo(this.trades);
    if (this.day.closeAtMs <= untilMs && !this.complete) this.drawClose();
    // Trades from `decided` on are as drawn, in order, and after the instant: the count stops before them.
    return viewOf(this.tape, publishedCount({ times: this.tape.times.subarray(0, this.drawn) }, untilMs));
  }

  /** The time of a continuous trade (microseconds), drawing up to it. */
  private timeOf(k: number): number {
    this.drawUpTo(k + 1);
    return this.tape.times[k]!;
  }

  /** Decides the sweep at the next trade, once every trade it could take is drawn. */
  private decide(): void {
    this.drawUpTo(Math.min(this.trades, this.decided + MOST_SWEEP_LEVELS));
    this.sweepRng ??= sweepStream(this.tape, this.trades, this.fairAtStart);
    this.decided = sweepFrom(this.tape, this.decided, this.sweepRng, this.trades, [this.trades]);
  }

  private drawUpTo(count: number): void {
    const lastUs = this.day.closeAtMs * 1000 - 1;
    while (this.drawn < count) {
      const us = Math.min(this.nextTime(), lastUs);
      const fair = this.fairAt(us);
      if (this.drawn === 0) this.fairAtStart = fair;
      this.append(us, this.nextSize(), fair, false);
    }
  }

  private drawClose(): void {
    this.drawUpTo(this.trades);
    this.append(this.day.closeAtMs * 1000, this.day.closingVolume, this.day.closePrice, true);
  }

  private append(us: number, volume: number, fair: number, auction: boolean): void {
    if (this.drawn === this.tape.times.length) this.tape = grown(this.tape, this.drawn, this.trades + 1);
    const k = this.drawn++;
    this.tape.times[k] = us;
    this.tape.volumes[k] = volume;
    this.pricer.price(this.tape, k, fair, auction);
  }

  /** The fair value at a time: the trend plus the own noise, a bridge to zero at the day's end drawn forward. */
  private fairAt(us: number): number {
    const ms = us / 1000;
    const share = this.day.shareAt(ms);
    if (share >= 1) this.own = 0;
    else if (share > this.accrued) {
      const step = share - this.accrued;
      const rest = 1 - this.accrued;
      const spread = this.day.volatility * Math.sqrt((step * (1 - share)) / rest);
      this.own += -this.own * (step / rest) + spread * this.ownRng.normal();
      this.accrued = share;
    }
    return Math.exp(this.day.trendAt(ms, share) + this.own);
  }
}

const ARRAYS = ['times', 'prices', 'volumes', 'bidPrices', 'bidVolumes', 'askPrices', 'askVolumes', 'tickTypes'];

function emptyTape(like: Pick<Tape, 'code' | 'day' | 'amountUnit' | 'rules'>, capacity: number): Tape {
  return {
    code: like.code,
    day: like.day,
    times: new Float64Array(capacity),
    prices: new Float64Array(capacity),
    volumes: new Float64Array(capacity),
    bidPrices: new Float64Array(capacity),
    bidVolumes: new Uint32Array(capacity),
    askPrices: new Float64Array(capacity),
    askVolumes: new Uint32Array(capacity),
    tickTypes: new Uint8Array(capacity),
    amountUnit: like.amountUnit,
    rules: like.rules,
  };
}

/** The same tape in arrays twice as long (at most `most`), its first `count` trades copied. */
function grown(tape: Tape, count: number, most: number): Tape {
  const larger = emptyTape(tape, Math.min(most, Math.max(1, tape.times.length * 2)));
  for (const name of ARRAYS) {
    const key = name as keyof Tape;
    (larger[key] as Float64Array).set((tape[key] as Float64Array).subarray(0, count));
  }
  return larger;
}

/** A tape of the first `count` trades, viewing the same arrays. */
function viewOf(tape: Tape, count: number): Tape {
  const view = { ...tape };
  for (const name of ARRAYS) {
    const key = name as keyof Tape;
    (view as unknown as Record<string, Float64Array>)[name] = (tape[key] as Float64Array).subarray(0, count);
  }
  return view;
}
