// Schemas of the index analytics: the subscribe bodies of index_contribution, industry_contribution and
// index_components, and the index_components snapshot (POST /data/index_components).

import Type from 'typebox';
import {
  COMPONENT_METRICS,
  CONTRIBUTION_RANKINGS,
  GROUP_METRICS,
  PROJECTION_KINDS,
  RANKING_ORDERS,
} from '../../domain/index-projections.js';
import { ContractRefSchema } from './market-data.js';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ContributionRankingSchema = Type.Enum([...CONTRIBUTION_RANKINGS], {
  description: 'top10 (largest points), abs10 (largest |points|), positive25, negative25',
});

const METRICS = [...new Set([...COMPONENT_METRICS, ...GROUP_METRICS])];

/** A projection as asked; the pairing of metric, order and limit is checked by the domain (400 listing the pairs). */
export const ProjectionSchema = Type.Object(
  {
    kind: Type.Enum([...PROJECTION_KINDS], { description: 'ranking, or group_metric (one value per group)' }),
    target: Type.Optional(Nullable(Type.Enum(['component', 'group'], { description: 'what a ranking ranks' }))),
    metric: Type.Enum(METRICS, { description: 'a component metric, or a group metric for groups' }),
    order: Type.Optional(Nullable(Type.Enum([...RANKING_ORDERS]))),
    limit: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 255 }))),
    group: Type.Optional(
      Nullable(Type.String({ minLength: 1, maxLength: 32, description: 'an industry code: rank within it' })),
    ),
  },
  { additionalProperties: false, title: 'IndexComponentsProjection' },
);

/** A projection as a held subscription and an event carry it: every field, null where its kind has none. */
export const HeldProjectionSchema = Type.Object(
  {
    kind: Type.String(),
    target: Nullable(Type.String()),
    metric: Type.String(),
    order: Nullable(Type.String()),
    limit: Nullable(Type.Integer()),
    group: Nullable(Type.String()),
  },
  { title: 'HeldIndexComponentsProjection' },
);

const index = ContractRefSchema;

export const IndexContributionBodySchema = Type.Object(
  { index, ranking: ContributionRankingSchema },
  { additionalProperties: false, title: 'IndexContributionSubscriptionRequest' },
);

export const IndustryContributionBodySchema = Type.Object(
  { index },
  { additionalProperties: false, title: 'IndustryContributionSubscriptionRequest' },
);

export const IndexComponentsBodySchema = Type.Object(
  { index, projection: ProjectionSchema },
  { additionalProperties: false, title: 'IndexComponentsSubscriptionRequest' },
);

export const IndexComponentsRequestSchema = Type.Object(
  { contract: ContractRefSchema },
  { additionalProperties: false, title: 'IndexComponentsRequest' },
);

const BaseContractSchema = Type.Object(
  {
    security_type: Type.String(),
    region: Type.String(),
    exchange: Type.String(),
    code: Type.String(),
    target_code: Nullable(Type.String()),
  },
  { title: 'BaseContract' },
);

const EntrySchema = Type.Object(
  {
    contract: BaseContractSchema,
    category: Type.String({ description: 'industry code' }),
    price: Type.Number(),
    reference: Type.Number(),
    price_chg: Type.Number(),
    pct_chg: Type.Number(),
    points: Type.Number({ description: "index points of the index's change this component makes" }),
    reference_weight_ppm: Type.Integer({ description: 'weight in the index at the references, parts per million' }),
    total_amount: Type.Integer(),
    amount_share_bps: Type.Integer({ description: "share of the index's turnover, basis points" }),
    price_source: Type.String({ description: 'regular, reference_fallback (no trade yet) or indicative' }),
    trading_status: Type.String({ description: 'active or suspended' }),
    data_status: Type.String({ description: 'live, stale or unavailable' }),
    source_at: Nullable(Type.String({ description: 'ISO 8601 of its last trade' })),
  },
  { title: 'IndexComponentEntry' },
);

const GroupSchema = Type.Object(
  {
    category: Type.String(),
    name: Type.String(),
    item_count: Type.Integer(),
    equal_weight_pct_chg: Type.Number(),
    weighted_pct_chg: Type.Number(),
    points: Type.Number(),
    reference_weight_ppm: Type.Integer(),
    total_amount: Type.Integer(),
    amount_share_bps: Type.Integer(),
    advance_count: Type.Integer(),
    decline_count: Type.Integer(),
    unchanged_count: Type.Integer(),
    breadth_bps: Type.Integer({ description: '(advances − declines) / members, basis points' }),
  },
  { title: 'IndexComponentGroup' },
);

export const IndexComponentsSchema = Type.Object(
  {
    refresh_state: Type.String({ description: 'ready, refreshing or degraded' }),
    contract: BaseContractSchema,
    currency: Type.String(),
    date: Type.String({ description: 'YYYY-MM-DD, Taiwan' }),
    time: Type.String({ description: 'HH:MM:SS.ffffff, Taiwan' }),
    calculated_at: Type.String({ description: 'ISO 8601' }),
    reference_date: Type.String({ description: 'the trading day whose closes are the references' }),
    market_phase: Type.String({ description: 'opening_auction, continuous_trading, closing_auction or closed' }),
    simtrade: Type.Boolean(),
    classification: Type.String(),
    weight_method: Type.String({ description: 'reference_market_cap' }),
    total_amount: Type.Integer(),
    entries: Type.Array(EntrySchema),
    groups: Type.Array(GroupSchema),
  },
  { title: 'IndexComponents' },
);
