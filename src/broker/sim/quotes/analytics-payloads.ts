// The wire payloads of the index analytics families (index_contribution, industry_contribution, index_components),
// from one decomposition of the index. Prices, points and values are JSON numbers, as the official server sends these
// derived families (its clients compute with them); the contributions write `date` YYYY/MM/DD as calculated_index
// does, index_components its ISO dates; `time` is HH:MM:SS.ffffff on the Taiwan wall clock.

import {
  contributionRanking,
  type IndexComponentEntry,
  type IndexDecomposition,
  industryPoints,
  type MarketPhase,
  project,
} from '../../../domain/index-components.js';
import {
  type ContributionRanking,
  type GroupMetric,
  type IndexProjection,
  UNIT_OF_GROUP_METRIC,
} from '../../../domain/index-projections.js';
import { taipeiIso } from '../../../domain/time.js';
import { taipeiDateTime } from '../market/history.js';
import { rounded, slashedDate } from './payloads.js';

type Payload = Record<string, unknown>;

/** When and of what an event is: the index, the instant of the index update it comes with. */
export interface AnalyticsMoment {
  code: string;
  exchange: string;
  epochUs: number;
  referenceDate: string;
  phase: MarketPhase;
  simtrade: boolean;
}

const points = (value: number) => rounded(value, 2);

function dateAndTime(epochUs: number) {
  const datetime = taipeiDateTime(epochUs);
  return { date: datetime.slice(0, 10), time: datetime.slice(11) };
}

const priceFields = (entry: IndexComponentEntry) => ({
  price: rounded(entry.price, 4),
  reference: rounded(entry.reference, 4),
  price_chg: rounded(entry.price_chg, 4),
  pct_chg: rounded(entry.pct_chg, 2),
});

/** The contributions' date and time: YYYY/MM/DD, as calculated_index. */
function slashedDateAndTime(epochUs: number) {
  const { date, time } = dateAndTime(epochUs);
  return { date: slashedDate(date), time };
}

export function indexContribution(
  moment: AnalyticsMoment,
  decomposition: IndexDecomposition,
  ranking: ContributionRanking,
): Payload {
  return {
    ranking,
    code: moment.code,
    ...slashedDateAndTime(moment.epochUs),
    entries: contributionRanking(decomposition.entries, ranking).map((entry) => ({
      code: entry.contract.code,
      ...priceFields(entry),
      points: points(entry.points),
    })),
    simtrade: moment.simtrade,
  };
}

export function industryContribution(moment: AnalyticsMoment, decomposition: IndexDecomposition): Payload {
  return {
    code: moment.code,
    ...slashedDateAndTime(moment.epochUs),
    entries: industryPoints(decomposition.groups).map((group) => ({
      category: group.category,
      points: points(group.points),
    })),
    simtrade: moment.simtrade,
    index_close: points(decomposition.close),
    index_price_chg: points(decomposition.priceChg),
  };
}

/** A value of a projection in its unit: points and percents to the hundredth, the rest whole. */
const projectedValue = (metric: string, value: number) =>
  metric === 'contribution' || metric.endsWith('performance') || metric === 'pct_chg'
    ? rounded(value, 2)
    : Math.round(value);

export function indexComponents(
  moment: AnalyticsMoment,
  decomposition: IndexDecomposition,
  projection: IndexProjection,
): Payload {
  const header = {
    contract: { security_type: 'IND', region: 'TW', exchange: moment.exchange, code: moment.code, target_code: null },
    projection,
    ...dateAndTime(moment.epochUs),
    calculated_at: taipeiIso(Math.floor(moment.epochUs / 1000)),
    reference_date: moment.referenceDate,
    market_phase: moment.phase,
    simtrade: moment.simtrade,
  };
  const projected = project(decomposition, projection);
  if (projected.target === 'component') {
    return {
      ...header,
      entries: projected.entries.map(({ entry, value }) => ({
        code: entry.contract.code,
        category: entry.category,
        ...priceFields(entry),
        value: projectedValue(projection.metric, value),
        reference_weight_ppm: entry.reference_weight_ppm,
        price_source: entry.price_source,
        trading_status: entry.trading_status,
        data_status: entry.data_status,
      })),
    };
  }
  return {
    ...header,
    unit: UNIT_OF_GROUP_METRIC[projection.metric as GroupMetric],
    groups: projected.groups.map(({ group, value }) => ({
      category: group.category,
      name: group.name,
      item_count: group.item_count,
      value: projectedValue(projection.metric, value),
    })),
  };
}
