// What the index analytics streams of 1.7.x can be asked for: the four contribution rankings of the
// index_contribution stream, and the projections of the index_components stream (a ranking of the index's
// components or of its industry groups, or one metric of every group). SinoPac serves only some pairings of a
// metric with an order and a limit; any other is refused with the list of the ones served.

import { InvalidRequestError } from './errors.js';

export const CONTRIBUTION_RANKINGS = ['top10', 'abs10', 'positive25', 'negative25'] as const;
export type ContributionRanking = (typeof CONTRIBUTION_RANKINGS)[number];

export const COMPONENT_METRICS = ['contribution', 'pct_chg', 'weight', 'amount', 'amount_share'] as const;
export type ComponentMetric = (typeof COMPONENT_METRICS)[number];

export const GROUP_METRICS = [
  'contribution',
  'equal_weight_performance',
  'weighted_performance',
  'weight',
  'amount',
  'amount_share',
  'breadth',
] as const;
export type GroupMetric = (typeof GROUP_METRICS)[number];

export const RANKING_ORDERS = ['desc', 'asc', 'abs_desc', 'positive_desc', 'negative_asc'] as const;
export type RankingOrder = (typeof RANKING_ORDERS)[number];

export const PROJECTION_KINDS = ['ranking', 'group_metric'] as const;
export type ProjectionKind = (typeof PROJECTION_KINDS)[number];

/** A projection as a subscribe body names it; the fields a kind does not use may be left out or null. */
export interface ProjectionRequest {
  kind: ProjectionKind;
  target?: 'component' | 'group' | null | undefined;
  metric: string;
  order?: RankingOrder | null | undefined;
  limit?: number | null | undefined;
  group?: string | null | undefined;
}

/** A projection SinoPac serves, every field present (null where its kind has none). */
export interface IndexProjection {
  kind: ProjectionKind;
  target: 'component' | 'group' | null;
  metric: ComponentMetric | GroupMetric;
  order: RankingOrder | null;
  limit: number | null;
  group: string | null;
}

/** A contribution ranking is a component ranking of points: which order and how many. */
export const RANKING_OF_CONTRIBUTION: Record<ContributionRanking, { order: RankingOrder; limit: number }> = {
  top10: { order: 'desc', limit: 10 },
  abs10: { order: 'abs_desc', limit: 10 },
  positive25: { order: 'positive_desc', limit: 25 },
  negative25: { order: 'negative_asc', limit: 25 },
};

type Pairs = Partial<Record<string, readonly (readonly [RankingOrder, number])[]>>;

const SIGNED_PAIRS = [
  ['desc', 10],
  ['abs_desc', 10],
  ['positive_desc', 25],
  ['negative_asc', 25],
] as const;
const TOP_TEN = [['desc', 10]] as const;
const ABS_TEN = [['abs_desc', 10]] as const;

/** The order/limit pairs served, by metric: components of the whole index, components of one group, groups. */
const COMPONENT_PAIRS: Pairs = { contribution: SIGNED_PAIRS, pct_chg: SIGNED_PAIRS, weight: TOP_TEN, amount: TOP_TEN };
const COMPONENT_IN_GROUP_PAIRS: Pairs = { contribution: ABS_TEN, amount: TOP_TEN };
const GROUP_PAIRS: Pairs = {
  contribution: ABS_TEN,
  equal_weight_performance: ABS_TEN,
  weighted_performance: ABS_TEN,
  breadth: ABS_TEN,
  weight: TOP_TEN,
  amount: TOP_TEN,
};

/** Every projection served, in words: what a refusal lists. */
export const ALLOWED_PROJECTIONS =
  'kind ranking, target component: contribution or pct_chg with order/limit desc/10, abs_desc/10, ' +
  'positive_desc/25 or negative_asc/25; weight or amount with desc/10; within one group (group set): contribution ' +
  'with abs_desc/10, amount with desc/10. kind ranking, target group: contribution, equal_weight_performance, ' +
  'weighted_performance or breadth with abs_desc/10; weight or amount with desc/10. kind group_metric: any of ' +
  `${GROUP_METRICS.join(', ')}, without order, limit or group. amount_share is served as a group_metric only`;

const GROUP_NAME = /^[A-Za-z0-9_-]{1,32}$/;

const refuse = (why: string): never => {
  throw new InvalidRequestError(`unsupported index_components projection: ${why}; supported: ${ALLOWED_PROJECTIONS}`);
};

/** The projection a request names, or InvalidRequestError listing the projections served. */
export function checkProjection(request: ProjectionRequest): IndexProjection {
  const { kind, metric } = request;
  const order = request.order ?? null;
  const limit = request.limit ?? null;
  const group = request.group ?? null;
  if (kind === 'group_metric') {
    if (!(GROUP_METRICS as readonly string[]).includes(metric)) refuse(`${metric} is not a group metric`);
    if (request.target === 'component') refuse('a group_metric is of the groups, not of components');
    if (order !== null || limit !== null || group !== null) refuse('a group_metric takes no order, limit or group');
    return { kind, target: null, metric: metric as GroupMetric, order: null, limit: null, group: null };
  }
  const target = request.target ?? null;
  if (target === null) refuse('a ranking names its target, component or group');
  if (order === null || limit === null) refuse('a ranking names its order and limit');
  if (group !== null && !GROUP_NAME.test(group)) refuse(`group ${JSON.stringify(group)} is not an industry code`);
  if (group !== null && target === 'group') refuse('a ranking of groups takes no group');
  const table = target === 'group' ? GROUP_PAIRS : group !== null ? COMPONENT_IN_GROUP_PAIRS : COMPONENT_PAIRS;
  const pairs = table[metric] ?? [];
  if (!pairs.some(([o, l]) => o === order && l === limit)) {
    const scope = target === 'group' ? 'groups' : group !== null ? `components of group ${group}` : 'components';
    refuse(`${metric} ${order}/${limit} is not served for ${scope}`);
  }
  return { kind, target, metric: metric as ComponentMetric | GroupMetric, order, limit, group };
}

/** The projection's name as SinoPac writes it: `rank/component/contribution/desc/10[/group/24]`, `groups/breadth`. */
export function projectionValue(projection: IndexProjection): string {
  if (projection.kind === 'group_metric') return `groups/${projection.metric}`;
  const { target, metric, order, limit, group } = projection;
  return `rank/${target}/${metric}/${order}/${limit}${group === null ? '' : `/group/${group}`}`;
}

/** The unit a group projection's values are in. */
export type IndexComponentsUnit = 'points' | 'percent' | 'weight' | 'currency_amount' | 'amount_share' | 'breadth';

export const UNIT_OF_GROUP_METRIC: Record<GroupMetric, IndexComponentsUnit> = {
  contribution: 'points',
  equal_weight_performance: 'percent',
  weighted_performance: 'percent',
  weight: 'weight',
  amount: 'currency_amount',
  amount_share: 'amount_share',
  breadth: 'breadth',
};

/** The first `limit` of values ranked by an order; ties keep the given order (the caller sorts by code first). */
export function rankBy<T>(items: readonly T[], value: (item: T) => number, order: RankingOrder, limit: number): T[] {
  const kept =
    order === 'positive_desc'
      ? items.filter((item) => value(item) > 0)
      : order === 'negative_asc'
        ? items.filter((item) => value(item) < 0)
        : [...items];
  const key =
    order === 'asc' || order === 'negative_asc'
      ? (item: T) => value(item)
      : order === 'abs_desc'
        ? (item: T) => -Math.abs(value(item))
        : (item: T) => -value(item);
  return kept
    .map((item, i) => ({ item, i, k: key(item) }))
    .sort((a, b) => a.k - b.k || a.i - b.i)
    .slice(0, limit)
    .map(({ item }) => item);
}
