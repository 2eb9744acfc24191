// Call auctions around the board-lot tape: the intraday and after-hours odd-lot auctions (volumes in shares) and
// the trial matches (試撮, simtrade) the exchange shows before an opening or closing auction. Both are derived
// from the board-lot tape, so odd lots trade where board lots do and trials converge to the auction's price.

import type { Interval } from '../../../domain/sessions.js';
import type { Rng } from './rng.js';
import { publishedCount, quoteAround, splitVolume, type Tape } from './tape.js';

const TRIAL_STEP_MS = 5000;

function emptyLike(board: Tape, n: number, amountUnit: number): Tape {
  return {
    code: board.code,
    day: board.day,
    times: new Float64Array(n),
    prices: new Float64Array(n),
    volumes: new Float64Array(n),
    bidPrices: new Float64Array(n),
    bidVolumes: new Uint32Array(n),
    askPrices: new Float64Array(n),
    askVolumes: new Uint32Array(n),
    tickTypes: new Uint8Array(n),
    amountUnit,
    rules: board.rules,
  };
}

/**
 * The odd-lot trades of a stock day: a share of the auction slots match, at the board lot's bid or ask of the
 * moment, with the day's odd-lot shares split over them. Volumes are shares; the book shows shares too.
 */
export function oddLotTape(board: Tape, slots: number[], totalShares: number, rng: Rng): Tape {
  const matching = slots.filter((t) => publishedCount(board, t) > 0);
  const chance = Math.min(1, totalShares / 400 / Math.max(1, matching.length));
  const matched = matching.filter(() => rng.next() < chance);
  const tape = emptyLike(board, matched.length, 1);
  const volumes = splitVolume(Math.max(totalShares, matched.length), matched.length, rng);
  matched.forEach((t, k) => {
    const last = publishedCount(board, t) - 1;
    const bid = board.bidPrices[last]!;
    const ask = board.askPrices[last]!;
    tape.times[k] = t * 1000;
    tape.prices[k] = ask === 0 || (bid !== 0 && rng.next() < 0.5) ? bid : ask;
    tape.volumes[k] = volumes[k]!;
    tape.bidPrices[k] = bid;
    tape.askPrices[k] = ask;
    tape.bidVolumes[k] = bid === 0 ? 0 : 100 + Math.floor(rng.next() * 4900);
    tape.askVolumes[k] = ask === 0 ? 0 : 100 + Math.floor(rng.next() * 4900);
  });
  return tape;
}

/**
 * Trial matches in the windows before auctions, every 5 s: the indicated price walks from the last trade before
 * the window (or the reference) to the price the auction then matches at, and the indicated volume grows toward
 * the auction's volume. They are not trades: they never enter ticks, kbars or the day's statistics.
 */
export function trialTape(board: Tape, windows: Interval[], reference: number, rng: Rng): Tape {
  const rules = board.rules;
  const steps = windows.flatMap((window) => {
    const auction = publishedCount(board, window.end - 1);
    if (!rules || auction >= board.times.length) return [];
    const before = publishedCount(board, window.start - 1);
    const from = before === 0 ? reference : board.prices[before - 1]!;
    const count = Math.floor((window.end - window.start) / TRIAL_STEP_MS);
    return Array.from({ length: count }, (_, k) => ({ t: window.start + k * TRIAL_STEP_MS, k, count, from, auction }));
  });
  const tape = emptyLike(board, steps.length, board.amountUnit);
  steps.forEach(({ t, k, count, from, auction }, i) => {
    const progress = (k + 1) / count;
    const to = board.prices[auction]!;
    const noise = (1 - progress) * 0.004 * to * rng.normal();
    const quote = quoteAround(from + progress * (to - from) + noise, rules!);
    tape.times[i] = t * 1000;
    tape.prices[i] = quote.fairOnGrid;
    tape.volumes[i] = Math.max(1, Math.round(board.volumes[auction]! * progress));
    tape.bidPrices[i] = quote.bid;
    tape.askPrices[i] = quote.ask;
    tape.bidVolumes[i] = quote.bid === 0 ? 0 : Math.max(1, Math.round(board.volumes[auction]! * (0.2 + rng.next())));
    tape.askVolumes[i] = quote.ask === 0 ? 0 : Math.max(1, Math.round(board.volumes[auction]! * (0.2 + rng.next())));
  });
  return tape;
}

/**
 * The after-hours fixed-price match (盤後定價) at `atMs`: one trade of its own volume at the day's close (the board
 * tape's last print), or none when no lots traded (volume 0) or the day has no such session.
 */
export function fixedPriceTape(board: Tape, atMs: number | undefined, volume: number): Tape {
  const close = board.times.length - 1;
  if (atMs === undefined || volume <= 0 || close < 0) return emptyLike(board, 0, board.amountUnit);
  const tape = emptyLike(board, 1, board.amountUnit);
  tape.times[0] = atMs * 1000;
  tape.prices[0] = board.prices[close]!;
  tape.volumes[0] = volume;
  tape.bidPrices[0] = board.bidPrices[close]!;
  tape.bidVolumes[0] = board.bidVolumes[close]!;
  tape.askPrices[0] = board.askPrices[close]!;
  tape.askVolumes[0] = board.askVolumes[close]!;
  return tape;
}
