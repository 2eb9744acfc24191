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
import { type PriceRules, publishedCount, TAPE_ARRAYS, type Tape, TradePricer } from './tape.js';
import type { TradeStats } from './tape-digest.js';

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

const FIRST_CAPACITY = 16;
/** A draw made for figures folds its final trades once it holds this many. */
const FOLD_EVERY = 1024;
const BYTES_PER_TRADE = 6 * 8 + 2 * 4 + 1;

/** A day's figures so far, as snapshots show them: the trades' statistics and the last trade's quote. */
export interface FiguresSoFar extends TradeStats {
  /** The last trade's time (epoch µs), volume and the best bid and ask it met; zeros before the first trade. */
  lastAtUs: number;
  lastVolume: number;
  bid: number;
  ask: number;
  bidVolume: number;
  askVolume: number;
}

/**
 * A day's tape drawn as far as it has been asked for, ready to be drawn further. Trades are drawn (time, size, fair
 * value, price) in order; a sweep starting at a trade is decided once the trades it could take are drawn. Trades
 * before `decided` are final: every sweep that could take them has been laid. The arrays grow by doubling.
 *
 * Ownership: until() gives views (subarrays) of the arrays over final trades only. Later draws write only past
 * `decided`, or into new, larger arrays, so a tape given out is never changed afterwards; it keeps alive the arrays
 * it views, which hold up to twice its trades.
 *
 * A draw made for figures only (`keepTrades` false) folds its final trades into running figures (figuresUntil) and
 * keeps only the few drawn past the instant: a few hundred bytes whatever the day's length, for instants in order.
 */
export class ForwardDraw {
  private readonly next: { time: () => number; size: () => number; fair: (us: number) => number };
  private readonly pricer: TradePricer;
  private sweepRng: Rng | null = null;
  private tape: Tape;
  /** The index in the day of the arrays' first trade: trades folded into `figures` are dropped from the arrays. */
  private base = 0;
  /** Trades drawn and priced: continuous ones, then the close once it is due. */
  private drawn = 0;
  /** Continuous trades whose sweep has been decided (the next one to decide on). */
  private decided = 0;
  /** The first trade's fair value, which the sweeps' stream is keyed by. */
  private fairAtStart = 0;
  private figures: FiguresSoFar | null = null;

  constructor(
    private readonly day: ForwardDay,
    /** The day's continuous trades; the close is trade number `trades`. */
    readonly trades: number,
    keepTrades = true,
  ) {
    const stream = (name: string) => new Rng(...day.keys, name);
    const time = forwardTimesByRate(day.bins, trades, stream('times'));
    this.next = {
      time,
      size: sizeStream(day.volume, day.meanTrade, stream('sizes')),
      fair: ownNoise(day, stream('own')),
    };
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
    if (!keepTrades) this.figures = noFigures();
  }

  /** Bytes of the arrays drawn into. */
  get bytes(): number {
    return this.tape.times.length * BYTES_PER_TRADE;
  }

  /** The trades up to an instant (epoch ms; Infinity for the whole day), drawing as far as needed. */
  until(untilMs: number): Tape {
    if (this.figures) throw new Error('a draw made for figures keeps no trades');
    const count = this.advance(untilMs);
    return viewOf(this.tape, count);
  }

  /** The day's figures up to an instant, no earlier than the last asked for (a draw made without keepTrades). */
  figuresUntil(untilMs: number): FiguresSoFar {
    const figures = this.figures;
    if (!figures) throw new Error('a draw that keeps its trades gives them (until)');
    this.fold(figures, this.advance(untilMs));
    return { ...figures };
  }

  /** Adds the arrays' first `count` trades (final) to the figures and drops them from the arrays. */
  private fold(figures: FiguresSoFar, count: number): void {
    for (let k = 0; k < count; k++) addTrade(figures, this.tape, k);
    for (const name of TAPE_ARRAYS) this.tape[name].copyWithin(0, count, this.drawn - this.base);
    this.base += count;
  }

  /** Draws and lays sweeps up to an instant; returns how many trades of the arrays are at or before it. */
  private advance(untilMs: number): number {
    const limitUs = untilMs * 1000;
    const lastStart = this.trades - 1;
    while (this.decided < lastStart && this.timeOf(this.decided) <= limitUs) {
      this.decide();
      // Drawn for figures only: the decided trades up to the instant are final and folded as the draw goes.
      const decided = this.decided - this.base;
      if (this.figures && decided >= FOLD_EVERY)
        this.fold(this.figures, publishedCount(firstTimes(this.tape, decided), untilMs));
    }
    // The last continuous trade starts no sweep: once every sweep is decided, every trade drawn is final.
    if (this.decided >= lastStart) this.drawUpTo(this.trades);
    if (this.day.closeAtMs <= untilMs && this.drawn <= this.trades) {
      this.drawUpTo(this.trades);
      this.append(this.day.closeAtMs * 1000, this.day.closingVolume, this.day.closePrice, true);
    }
    // Trades from `decided` on are as drawn, in order, and after the instant: the count stops before them.
    return publishedCount(firstTimes(this.tape, this.drawn - this.base), untilMs);
  }

  /** The time of a continuous trade of the day (microseconds), drawing up to it. */
  private timeOf(k: number): number {
    this.drawUpTo(k + 1);
    return this.tape.times[k - this.base]!;
  }

  /** Decides the sweep at the next trade, once every trade it could take is drawn. */
  private decide(): void {
    this.drawUpTo(Math.min(this.trades, this.decided + MOST_SWEEP_LEVELS));
    this.sweepRng ??= sweepStream(this.tape, this.trades, this.fairAtStart);
    const end = this.trades - this.base;
    this.decided = this.base + sweepFrom(this.tape, this.decided - this.base, this.sweepRng, end, [end]);
  }

  private drawUpTo(count: number): void {
    const lastUs = this.day.closeAtMs * 1000 - 1;
    while (this.drawn < count) {
      const us = Math.min(this.next.time(), lastUs);
      const fair = this.next.fair(us);
      if (this.drawn === 0) this.fairAtStart = fair;
      this.append(us, this.next.size(), fair, false);
    }
  }

  private append(us: number, volume: number, fair: number, auction: boolean): void {
    const k = this.drawn - this.base;
    if (k === this.tape.times.length) this.tape = grown(this.tape, k, this.trades + 1 - this.base);
    this.drawn++;
    this.tape.times[k] = us;
    this.tape.volumes[k] = volume;
    this.pricer.price(this.tape, k, fair, auction);
  }
}

/** The fair value at each time drawn: the trend plus the own noise, a bridge to zero at the day's end drawn forward. */
function ownNoise(day: ForwardDay, rng: Rng): (us: number) => number {
  let own = 0;
  let accrued = 0;
  return (us) => {
    const ms = us / 1000;
    const share = day.shareAt(ms);
    if (share >= 1) own = 0;
    else if (share > accrued) {
      const step = share - accrued;
      const rest = 1 - accrued;
      own += -own * (step / rest) + day.volatility * Math.sqrt((step * (1 - share)) / rest) * rng.normal();
      accrued = share;
    }
    return Math.exp(day.trendAt(ms, share) + own);
  };
}

const firstTimes = (tape: Tape, count: number) => ({ times: tape.times.subarray(0, count) });

function noFigures(): FiguresSoFar {
  const zeros = { open: 0, high: 0, low: 0, close: 0, volume: 0, amount: 0, count: 0, lastAtUs: 0, lastVolume: 0 };
  return { ...zeros, bid: 0, ask: 0, bidVolume: 0, askVolume: 0 };
}

/** Adds trade k of a tape to the figures so far, as tradeStats counts them. */
function addTrade(figures: FiguresSoFar, tape: Tape, k: number): void {
  const price = tape.prices[k]!;
  const volume = tape.volumes[k]!;
  if (figures.count === 0) {
    figures.open = price;
    figures.high = price;
    figures.low = price;
  }
  figures.count++;
  if (price > figures.high) figures.high = price;
  if (price < figures.low) figures.low = price;
  figures.close = price;
  figures.volume += volume;
  figures.amount += price * volume * tape.amountUnit;
  figures.lastAtUs = tape.times[k]!;
  figures.lastVolume = volume;
  figures.bid = tape.bidPrices[k]!;
  figures.ask = tape.askPrices[k]!;
  figures.bidVolume = tape.bidVolumes[k]!;
  figures.askVolume = tape.askVolumes[k]!;
}

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
  for (const name of TAPE_ARRAYS) {
    const key = name as keyof Tape;
    (larger[key] as Float64Array).set((tape[key] as Float64Array).subarray(0, count));
  }
  return larger;
}

/** A tape of the first `count` trades, viewing the same arrays. */
function viewOf(tape: Tape, count: number): Tape {
  const view = { ...tape };
  for (const name of TAPE_ARRAYS) {
    const key = name as keyof Tape;
    (view as unknown as Record<string, Float64Array>)[name] = (tape[key] as Float64Array).subarray(0, count);
  }
  return view;
}
