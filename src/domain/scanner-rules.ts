// The market scanner stream (1.7.1): market-wide signals over one exchange's stocks, subscribed by rule and
// exchange rather than by contract. A preset rule fires on one stock's trade or book change (a limit approached,
// touched or unlocked, a fast price move, one large trade); a state scanner passes on the quotes of stocks in a
// state (trial matches before an auction, a suspended stock). The rules here are pure: the simulator feeds them its
// tape, and docs/scanner-stream.md states them with their thresholds.

import { InvalidRequestError } from './errors.js';
import { stepTicks, type TickTable } from './ticks.js';

/** Best bid within this many ticks below limit-up (or best ask above limit-down) is "near" the limit. */
export const NEAR_LIMIT_TICKS = 2;

export const LIMIT_RULES = [
  'bid_near_limit_up',
  'bid_touch_limit_up',
  'limit_up_unlocked',
  'ask_near_limit_down',
  'ask_touch_limit_down',
  'limit_down_unlocked',
] as const;
export const PRICE_MOVE_RULES = ['trade_price_surge', 'trade_price_drop', 'bid_price_surge', 'ask_price_drop'] as const;
export const VOLUME_RULES = ['volume_burst'] as const;
/** Every preset rule, as the SDK's LimitScanner, PriceMoveScanner and VolumeScanner name them (their `id`). */
export const SCANNER_RULES = [...LIMIT_RULES, ...PRICE_MOVE_RULES, ...VOLUME_RULES] as const;
/** The state scanners (the SDK's StreamScanner): quotes of stocks in trial matching, or suspended. */
export const SCANNER_STATES = ['simtrade', 'suspend'] as const;
export const SCANNER_EXCHANGES = ['TSE', 'OTC'] as const;

export type LimitRule = (typeof LIMIT_RULES)[number];
export type PriceMoveRule = (typeof PRICE_MOVE_RULES)[number];
export type ScannerRule = (typeof SCANNER_RULES)[number];
export type ScannerState = (typeof SCANNER_STATES)[number];
export type ScannerId = ScannerRule | ScannerState;
export type ScannerExchange = (typeof SCANNER_EXCHANGES)[number];
export type ScannerFamily = 'limit' | 'price_move' | 'volume' | 'state';

/** One scanner subscription: a rule or state on one exchange's stocks. Region TW and stocks are the only ones. */
export interface ScannerSubscription {
  scanner: ScannerId;
  region: 'TW';
  security_type: 'STK';
  exchange: ScannerExchange;
}

export const isScannerRule = (id: string): id is ScannerRule => (SCANNER_RULES as readonly string[]).includes(id);
export const isScannerState = (id: string): id is ScannerState => (SCANNER_STATES as readonly string[]).includes(id);

export function scannerFamilyOf(id: ScannerId): ScannerFamily {
  if ((LIMIT_RULES as readonly string[]).includes(id)) return 'limit';
  if ((PRICE_MOVE_RULES as readonly string[]).includes(id)) return 'price_move';
  if ((VOLUME_RULES as readonly string[]).includes(id)) return 'volume';
  return 'state';
}

/** Refuses what is not a scanner subscription (a hand-edited subscriptions file, say), naming what is allowed. */
export function checkScannerSubscription(subscription: ScannerSubscription): void {
  const { scanner, region, security_type, exchange } = subscription;
  if (!isScannerRule(scanner) && !isScannerState(scanner)) {
    throw new InvalidRequestError(
      `unknown scanner "${scanner}": one of ${[...SCANNER_RULES, ...SCANNER_STATES].join(', ')}`,
    );
  }
  if (region !== 'TW' || security_type !== 'STK' || !(SCANNER_EXCHANGES as readonly string[]).includes(exchange)) {
    throw new InvalidRequestError(
      `a scanner covers region TW, security_type STK, exchange TSE or OTC; not ${region} ${security_type} ${exchange}`,
    );
  }
}

/** One key per distinct scanner subscription (subscribing twice is one subscription). */
export const scannerKey = (subscription: ScannerSubscription): string =>
  `scanner:${subscription.scanner}:${subscription.exchange}`;

/** The SDK's fixed presets (formula_version 1): the set is closed, a client cannot tune them. */
export const PRICE_MOVE_PRESET = {
  formula_version: 1,
  /** How far back the reference price is looked for. */
  window_ms: 1000,
  /** The least move, in percent of the reference price. */
  change_percent: 1,
  /** The least move, in ticks of the stock's grid. */
  minimum_tick_change: 3,
  /** After a signal, the same rule is quiet on the same stock this long. */
  cooldown_ms: 1000,
} as const;
export const VOLUME_BURST_PRESET = { formula_version: 1, cooldown_ms: 5000 } as const;
export const LIMIT_PRESET = { formula_version: 1 } as const;

/** What the preset of a rule carries besides its id, as the SDK's objects show it. */
export function presetOf(rule: ScannerRule): Record<string, number> {
  const family = scannerFamilyOf(rule);
  if (family === 'price_move') return { ...PRICE_MOVE_PRESET };
  if (family === 'volume') return { ...VOLUME_BURST_PRESET };
  return { ...LIMIT_PRESET };
}

/** The top of a book: 0 is an empty side (a locked limit has no ask at limit-up, no bid at limit-down). */
export interface BookTop {
  bid: number;
  ask: number;
}

export interface LimitPrices {
  limitUp: number;
  limitDown: number;
  ticks: TickTable;
}

export interface LimitSignal {
  rule: LimitRule;
  extra: { previous_best_price: number | null; trigger_price: number; limit_price: number };
}

/** How many ticks of the grid lie from `low` up to `high` (0 when high <= low); stops counting at `cap`. */
export function ticksBetween(ticks: TickTable, low: number, high: number, cap = 10_000): number {
  let count = 0;
  let price = low;
  while (price < high - 1e-9 && count < cap) {
    const next = stepTicks(ticks, price, 1);
    if (next <= price) break;
    price = next;
    count++;
  }
  return count;
}

const lockedUp = (top: BookTop, limits: LimitPrices) => top.bid === limits.limitUp && top.ask === 0;
const lockedDown = (top: BookTop, limits: LimitPrices) => top.ask === limits.limitDown && top.bid === 0;
const orNull = (price: number) => (price === 0 ? null : price);

/** A bid 1..NEAR_LIMIT_TICKS ticks below limit-up (an ask as far above limit-down). */
function nearUp(bid: number, limits: LimitPrices): boolean {
  if (bid === 0 || bid >= limits.limitUp) return false;
  return ticksBetween(limits.ticks, bid, limits.limitUp, NEAR_LIMIT_TICKS + 1) <= NEAR_LIMIT_TICKS;
}
function nearDown(ask: number, limits: LimitPrices): boolean {
  if (ask === 0 || ask <= limits.limitDown) return false;
  return ticksBetween(limits.ticks, limits.limitDown, ask, NEAR_LIMIT_TICKS + 1) <= NEAR_LIMIT_TICKS;
}

/**
 * The limit rules a change of the book top fires (each on the change only, never again while the book stays):
 * - bid_near_limit_up: the best bid rises into the band 1..NEAR_LIMIT_TICKS ticks below limit-up;
 * - bid_touch_limit_up: the best bid reaches limit-up;
 * - limit_up_unlocked: the book was locked at limit-up (bid at the limit, no ask) and an ask reappears;
 * - ask_near_limit_down, ask_touch_limit_down, limit_down_unlocked: the same, mirrored on the ask.
 * previous_best_price is the side's price before the change (null when the side was empty); trigger_price the one
 * after it (for an unlock, the reopened side's price).
 */
export function limitSignals(before: BookTop, after: BookTop, limits: LimitPrices): LimitSignal[] {
  const signals: LimitSignal[] = [];
  const up = limits.limitUp;
  const down = limits.limitDown;
  const risingBid = after.bid !== 0 && (before.bid === 0 || after.bid > before.bid);
  if (risingBid && nearUp(after.bid, limits) && !nearUp(before.bid, limits)) {
    signals.push(limitSignal('bid_near_limit_up', before.bid, after.bid, up));
  }
  if (after.bid === up && before.bid !== up) signals.push(limitSignal('bid_touch_limit_up', before.bid, after.bid, up));
  if (lockedUp(before, limits) && !lockedUp(after, limits)) {
    signals.push(limitSignal('limit_up_unlocked', before.ask, after.ask !== 0 ? after.ask : after.bid, up));
  }
  const fallingAsk = after.ask !== 0 && (before.ask === 0 || after.ask < before.ask);
  if (fallingAsk && nearDown(after.ask, limits) && !nearDown(before.ask, limits)) {
    signals.push(limitSignal('ask_near_limit_down', before.ask, after.ask, down));
  }
  if (after.ask === down && before.ask !== down) {
    signals.push(limitSignal('ask_touch_limit_down', before.ask, after.ask, down));
  }
  if (lockedDown(before, limits) && !lockedDown(after, limits)) {
    signals.push(limitSignal('limit_down_unlocked', before.bid, after.bid !== 0 ? after.bid : after.ask, down));
  }
  return signals;
}

function limitSignal(rule: LimitRule, previous: number, trigger: number, limit: number): LimitSignal {
  return { rule, extra: { previous_best_price: orNull(previous), trigger_price: trigger, limit_price: limit } };
}

/** A price seen at a time (epoch microseconds). */
export interface PricePoint {
  timeUs: number;
  price: number;
}

export interface PriceMove {
  reference: PricePoint;
  change_price: number;
  change_percent: number;
  tick_change: number;
  elapsed_ms: number;
}

/**
 * A fast move of a price series (trades, best bids or best asks): `now` is at least PRICE_MOVE_PRESET.change_percent
 * and PRICE_MOVE_PRESET.minimum_tick_change ticks beyond the extreme of the points in the window_ms before it (the
 * lowest for a rise, the highest for a drop; of equal extremes, the latest). `points` are in time order and may hold
 * older ones; they do not include `now`.
 */
export function priceMove(
  points: readonly PricePoint[],
  now: PricePoint,
  direction: 1 | -1,
  ticks: TickTable,
): PriceMove | null {
  const from = now.timeUs - PRICE_MOVE_PRESET.window_ms * 1000;
  let reference: PricePoint | null = null;
  for (const point of points) {
    if (point.timeUs < from || point.timeUs > now.timeUs || point.price <= 0) continue;
    if (reference === null || direction * (point.price - reference.price) <= 0) reference = point;
  }
  if (reference === null) return null;
  const change = now.price - reference.price;
  if (direction * change <= 0) return null;
  const percent = (change / reference.price) * 100;
  if (Math.abs(percent) < PRICE_MOVE_PRESET.change_percent - 1e-9) return null;
  const [low, high] = direction === 1 ? [reference.price, now.price] : [now.price, reference.price];
  const tickChange = ticksBetween(ticks, low, high);
  if (tickChange < PRICE_MOVE_PRESET.minimum_tick_change) return null;
  return {
    reference,
    change_price: Math.round(change * 10_000) / 10_000,
    change_percent: Math.round(percent * 100) / 100,
    tick_change: direction * tickChange,
    elapsed_ms: Math.round((now.timeUs - reference.timeUs) / 1000),
  };
}

/** The rule each price series and direction feeds. */
export const PRICE_MOVE_SERIES: Record<PriceMoveRule, { series: 'trade' | 'bid' | 'ask'; direction: 1 | -1 }> = {
  trade_price_surge: { series: 'trade', direction: 1 },
  trade_price_drop: { series: 'trade', direction: -1 },
  bid_price_surge: { series: 'bid', direction: 1 },
  ask_price_drop: { series: 'ask', direction: -1 },
};

/** volume_burst: one trade whose value (price x lots x shares a lot, in TWD) is at least the day's threshold. */
export const isVolumeBurst = (tradeValue: number, threshold: number): boolean => tradeValue >= threshold;

/** The day's volume_burst threshold: a quantile of the previous day's single-trade values, floored to NT$1 million. */
export const VOLUME_BURST_QUANTILE = 0.999;
export const VOLUME_BURST_MINIMUM = 10_000_000;
export function volumeBurstThreshold(tradeValues: Float64Array | number[]): number {
  if (tradeValues.length === 0) return VOLUME_BURST_MINIMUM;
  const sorted = Float64Array.from(tradeValues).sort();
  const value = sorted[Math.min(sorted.length - 1, Math.floor(VOLUME_BURST_QUANTILE * sorted.length))]!;
  return Math.max(VOLUME_BURST_MINIMUM, Math.floor(value / 1_000_000) * 1_000_000);
}

/** Whether a rule may fire again on a stock: its cooldown since the last signal of that rule there has passed. */
export function cooledDown(rule: ScannerRule, lastSignalUs: number | undefined, nowUs: number): boolean {
  if (lastSignalUs === undefined) return true;
  const family = scannerFamilyOf(rule);
  const cooldown =
    family === 'price_move' ? PRICE_MOVE_PRESET.cooldown_ms : family === 'volume' ? VOLUME_BURST_PRESET.cooldown_ms : 0;
  return nowUs - lastSignalUs >= cooldown * 1000;
}

/**
 * What a subscribe body's `scanner` may be: "simtrade" or "suspend" (the SDK's StreamScanner values), a preset as
 * the official server writes it, {kind: "preset_rule", id}, or a preset as the SDK's object shows it (its id with
 * formula_version and the preset's fixed parameters, e.g. window_ms). A bare rule id is taken too. The presets are
 * fixed: a parameter that differs from the preset's is refused, naming the preset's value.
 */
export type ScannerSelection = string | { kind?: string; id: string; [parameter: string]: unknown };

const ALLOWED = `one of "simtrade", "suspend" or {"kind": "preset_rule", "id": <${SCANNER_RULES.join(' | ')}>}`;

export function scannerIdOf(selection: ScannerSelection): ScannerId {
  if (typeof selection === 'string') {
    if (isScannerState(selection) || isScannerRule(selection)) return selection;
    throw new InvalidRequestError(`unknown scanner "${selection}": scanner must be ${ALLOWED}`);
  }
  const { kind, id, ...parameters } = selection;
  if (kind !== undefined && kind !== 'preset_rule') {
    throw new InvalidRequestError(`unknown scanner kind "${kind}": scanner must be ${ALLOWED}`);
  }
  if (!isScannerRule(id)) throw new InvalidRequestError(`unknown scanner rule "${id}": scanner must be ${ALLOWED}`);
  const preset = presetOf(id);
  for (const [name, value] of Object.entries(parameters)) {
    if (!(name in preset)) {
      throw new InvalidRequestError(
        `${id} takes no parameter "${name}"; its preset is fixed: ${JSON.stringify({ id, ...preset })}`,
      );
    }
    if (Number(value) !== preset[name]) {
      throw new InvalidRequestError(
        `${id} is a fixed preset: ${name} is ${preset[name]}, not ${JSON.stringify(value)} ` +
          `(the preset: ${JSON.stringify({ id, ...preset })})`,
      );
    }
  }
  return id;
}
