// How an index's move splits over its components and their industries (the index_components snapshot and the
// index_contribution, industry_contribution and index_components streams). The index is weighted by reference
// market capitalisation: each component weighs its reference price times its shares over the sum of all, and the
// index stands at reference × Σ weight × price / reference price. A component's points are then its weight-scaled
// change, reference × weight × (price − its reference) / its reference, and they add up to the index's change.
// Points are rounded to the hundredth so that their sum is the index's change rounded to the hundredth, exactly
// (largest remainders get the leftover hundredths), and so each industry's points add up to the index's change too.

import type { ContributionRanking } from './index-projections.js';
import { type GroupMetric, type IndexProjection, RANKING_OF_CONTRIBUTION, rankBy } from './index-projections.js';

/** One component at an instant, as the venue knows it. */
export interface ComponentQuote {
  code: string;
  exchange: string;
  /** Industry code ('24' semiconductors, '17' finance, ...). */
  category: string;
  reference: number;
  /** The last trade, or the reference when it has not traded yet. */
  price: number;
  traded: boolean;
  suspended: boolean;
  /** Shares issued: with the reference price, its weight. */
  shares: number;
  /** NT$ traded today so far. */
  amount: number;
  /** Epoch ms of its last trade, or null. */
  tradedAt: number | null;
}

export type PriceSource = 'regular' | 'reference_fallback' | 'indicative';
export type TradingStatus = 'active' | 'suspended';
export type DataStatus = 'live' | 'stale' | 'unavailable';
export type MarketPhase = 'opening_auction' | 'continuous_trading' | 'closing_auction' | 'closed';

export interface BaseContract {
  security_type: string;
  region: 'TW';
  exchange: string;
  code: string;
  target_code: string | null;
}

export interface IndexComponentEntry {
  contract: BaseContract;
  category: string;
  price: number;
  reference: number;
  price_chg: number;
  pct_chg: number;
  points: number;
  reference_weight_ppm: number;
  total_amount: number;
  amount_share_bps: number;
  price_source: PriceSource;
  trading_status: TradingStatus;
  data_status: DataStatus;
  source_at: string | null;
}

export interface IndexComponentGroup {
  category: string;
  name: string;
  item_count: number;
  equal_weight_pct_chg: number;
  weighted_pct_chg: number;
  points: number;
  reference_weight_ppm: number;
  total_amount: number;
  amount_share_bps: number;
  advance_count: number;
  decline_count: number;
  unchanged_count: number;
  breadth_bps: number;
}

/** POST /data/index_components: the whole decomposition of IX0001 or IX0043 at an instant. */
export interface IndexComponents {
  refresh_state: 'ready' | 'refreshing' | 'degraded';
  contract: BaseContract;
  currency: 'TWD';
  /** Taiwan wall clock: YYYY-MM-DD and HH:MM:SS.ffffff of the last component trade counted. */
  date: string;
  time: string;
  /** ISO 8601: when this was computed. */
  calculated_at: string;
  /** The trading day whose closes are the references (YYYY-MM-DD). */
  reference_date: string;
  market_phase: MarketPhase;
  simtrade: boolean;
  /** How components are grouped: the exchange's industry codes. */
  classification: string;
  weight_method: 'reference_market_cap';
  total_amount: number;
  entries: IndexComponentEntry[];
  groups: IndexComponentGroup[];
}

/** The index decomposed at an instant: its level and change, every component and every industry group. */
export interface IndexDecomposition {
  close: number;
  priceChg: number;
  totalAmount: number;
  entries: IndexComponentEntry[];
  groups: IndexComponentGroup[];
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const cents = (value: number) => Math.round(value * 100);

/**
 * Splits rounded hundredths so their sum is `total` exactly: each value rounded down, then one more hundredth to
 * the largest remainders (the earlier one first on a tie) until the sum is reached.
 */
export function splitHundredths(values: readonly number[], total: number): number[] {
  // A value that is not finite (a component without a reference price) would leave `missing` never reaching 0.
  if (!Number.isFinite(total) || !values.every(Number.isFinite)) {
    throw new RangeError(`cannot split ${total} into hundredths of ${values.length} values: one is not finite`);
  }
  const floors = values.map((value) => Math.floor(value * 100 + 1e-9));
  let missing = cents(total) - floors.reduce((a, b) => a + b, 0);
  const byRemainder = values
    .map((value, i) => ({ i, remainder: value * 100 - floors[i]! }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (let k = 0; missing !== 0 && byRemainder.length > 0; k = (k + 1) % byRemainder.length) {
    const step = Math.sign(missing);
    floors[byRemainder[step > 0 ? k : byRemainder.length - 1 - k]!.i]! += step;
    missing -= step;
  }
  return floors.map((hundredths) => hundredths / 100 || 0);
}

/** The index at an instant from its components; `names` gives each industry code's name. */
export function decomposeIndex(
  indexReference: number,
  components: readonly ComponentQuote[],
  names: (category: string) => string,
  isoOf: (epochMs: number) => string,
): IndexDecomposition {
  const sorted = [...components].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const caps = sorted.map((c) => c.reference * c.shares);
  const totalCap = caps.reduce((a, b) => a + b, 0) || 1;
  // A component without a reference price (not listed yesterday) contributes nothing rather than dividing by zero.
  const raw = sorted.map((c, i) =>
    c.reference > 0 ? (indexReference * caps[i]! * (c.price - c.reference)) / totalCap / c.reference : 0,
  );
  const change = raw.reduce((a, b) => a + b, 0);
  const priceChg = cents(change) / 100 || 0;
  const points = splitHundredths(raw, priceChg);
  const totalAmount = Math.round(sorted.reduce((sum, c) => sum + c.amount, 0));
  const ppm = splitUnits(
    caps.map((cap) => (cap / totalCap) * 1e6),
    1e6,
  );
  const entries = sorted.map((c, i): IndexComponentEntry => {
    const priceChange = round(c.price - c.reference, 4);
    return {
      contract: { security_type: 'STK', region: 'TW', exchange: c.exchange, code: c.code, target_code: null },
      category: c.category,
      price: c.price,
      reference: c.reference,
      price_chg: priceChange,
      pct_chg: round((priceChange / c.reference) * 100, 2),
      points: points[i]!,
      reference_weight_ppm: ppm[i]!,
      total_amount: Math.round(c.amount),
      amount_share_bps: totalAmount === 0 ? 0 : Math.round((c.amount / totalAmount) * 10_000),
      price_source: c.traded && !c.suspended ? 'regular' : 'reference_fallback',
      trading_status: c.suspended ? 'suspended' : 'active',
      data_status: 'live',
      source_at: c.tradedAt === null ? null : isoOf(c.tradedAt),
    };
  });
  return {
    close: round(indexReference + priceChg, 2),
    priceChg,
    totalAmount,
    entries,
    groups: groupsOf(entries, names, totalAmount),
  };
}

/** Whole units (ppm) that add up to `total`, by largest remainders. */
function splitUnits(values: readonly number[], total: number): number[] {
  return splitHundredths(
    values.map((v) => v / 100),
    total / 100,
  ).map((v) => Math.round(v * 100));
}

function groupsOf(entries: IndexComponentEntry[], names: (category: string) => string, totalAmount: number) {
  const byCategory = new Map<string, IndexComponentEntry[]>();
  for (const entry of entries) byCategory.set(entry.category, [...(byCategory.get(entry.category) ?? []), entry]);
  return [...byCategory.keys()].sort().map((category): IndexComponentGroup => {
    const members = byCategory.get(category)!;
    const sum = (f: (e: IndexComponentEntry) => number) => members.reduce((s, e) => s + f(e), 0);
    const weight = sum((e) => e.reference_weight_ppm);
    const advance = members.filter((e) => e.price_chg > 0).length;
    const decline = members.filter((e) => e.price_chg < 0).length;
    const amount = sum((e) => e.total_amount);
    return {
      category,
      name: names(category),
      item_count: members.length,
      equal_weight_pct_chg: round(sum((e) => e.pct_chg) / members.length, 2),
      weighted_pct_chg: weight === 0 ? 0 : round(sum((e) => e.pct_chg * e.reference_weight_ppm) / weight, 2),
      points: cents(sum((e) => e.points)) / 100,
      reference_weight_ppm: weight,
      total_amount: amount,
      amount_share_bps: totalAmount === 0 ? 0 : Math.round((amount / totalAmount) * 10_000),
      advance_count: advance,
      decline_count: decline,
      unchanged_count: members.length - advance - decline,
      breadth_bps: Math.round(((advance - decline) / members.length) * 10_000),
    };
  });
}

/** The components a contribution ranking shows, in its order. */
export function contributionRanking(entries: readonly IndexComponentEntry[], ranking: ContributionRanking) {
  const { order, limit } = RANKING_OF_CONTRIBUTION[ranking];
  return rankBy(entries, (entry) => entry.points, order, limit);
}

/** The points of each industry, largest first; they add up to the index's change. */
export function industryPoints(groups: readonly IndexComponentGroup[]): { category: string; points: number }[] {
  return rankBy(groups, (group) => group.points, 'desc', groups.length).map(({ category, points }) => ({
    category,
    points,
  }));
}

const COMPONENT_VALUE: Record<string, (entry: IndexComponentEntry) => number> = {
  contribution: (e) => e.points,
  pct_chg: (e) => e.pct_chg,
  weight: (e) => e.reference_weight_ppm,
  amount: (e) => e.total_amount,
  amount_share: (e) => e.amount_share_bps,
};

export const GROUP_VALUE: Record<GroupMetric, (group: IndexComponentGroup) => number> = {
  contribution: (g) => g.points,
  equal_weight_performance: (g) => g.equal_weight_pct_chg,
  weighted_performance: (g) => g.weighted_pct_chg,
  weight: (g) => g.reference_weight_ppm,
  amount: (g) => g.total_amount,
  amount_share: (g) => g.amount_share_bps,
  breadth: (g) => g.breadth_bps,
};

/** What a projection shows of a decomposition: ranked components with their value, or groups with theirs. */
export type Projected =
  | { target: 'component'; entries: { entry: IndexComponentEntry; value: number }[] }
  | { target: 'group'; groups: { group: IndexComponentGroup; value: number }[] };

export function project(decomposition: IndexDecomposition, projection: IndexProjection): Projected {
  if (projection.target === 'component') {
    const value = COMPONENT_VALUE[projection.metric]!;
    const pool =
      projection.group === null
        ? decomposition.entries
        : decomposition.entries.filter((entry) => entry.category === projection.group);
    const ranked = rankBy(pool, value, projection.order!, projection.limit!);
    return { target: 'component', entries: ranked.map((entry) => ({ entry, value: value(entry) })) };
  }
  const value = GROUP_VALUE[projection.metric as GroupMetric];
  const groups =
    projection.kind === 'group_metric'
      ? decomposition.groups
      : rankBy(decomposition.groups, value, projection.order!, projection.limit!);
  return { target: 'group', groups: groups.map((group) => ({ group, value: value(group) })) };
}
