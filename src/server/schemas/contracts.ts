// Schemas of the contracts API: request parameters and every response shape (the OpenAPI document comes from these).

import Type, { type Static } from 'typebox';
import {
  COMBO_TYPES,
  type ComboContract,
  type Contract,
  type FuturesInfo,
  type IndexInfo,
  type OptionInfo,
  REGIONS,
  SECURITY_TYPES,
  type StockInfo,
  type TickBandRule,
  type WarrantInfo,
} from '../../domain/contracts.js';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const DateText = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const YearMonth = Type.String({ pattern: '^\\d{6}$', description: 'YYYYMM' });

export const SecurityTypeSchema = Type.Enum([...SECURITY_TYPES]);
export const RegionSchema = Type.Enum([...REGIONS], { default: 'TW' });
const Exchange = Type.String({ description: 'TSE, OTC, OES or TAIFEX' });

const identityFields = {
  region: Type.String(),
  exchange: Exchange,
  code: Type.String(),
  target_code: Nullable(Type.String({ description: 'the real contract of a continuous-month alias (R1/R2)' })),
};

const contractFields = { security_type: SecurityTypeSchema, ...identityFields };
const infoFields = <T extends string>(securityType: T) => ({
  security_type: Type.Literal(securityType),
  ...identityFields,
});

export const ContractSchema = Type.Object(contractFields, { title: 'Contract' });

export const StockInfoSchema = Type.Object(
  {
    ...infoFields('STK'),
    name: Type.String(),
    category: Type.String(),
    currency: Type.String(),
    unit: Type.Number(),
    day_trade: Type.Enum(['Yes', 'OnlyBuy', 'No']),
    reference: Type.Number(),
    limit_up: Type.Number(),
    limit_down: Type.Number(),
    margin_trading_balance: Type.Integer(),
    short_selling_balance: Type.Integer(),
    trading_suspended: Type.Boolean(),
    margin_loan_ratio: Type.Number(),
    margin_quota_lots: Type.Integer(),
    short_margin_ratio: Type.Number(),
    short_quota_lots: Type.Integer(),
    margin_shortable: Type.Boolean(),
    sbl_shortable: Type.Boolean(),
    below_ref_shortable: Type.Boolean(),
    disposition_level: Type.Integer(),
    attention_flag: Type.Boolean(),
    etf_constituent: Type.Boolean(),
    settlement_type: Type.String(),
    disposition_match_interval_min: Nullable(Type.Integer()),
    disposition_max_lots_single_order: Nullable(Type.Integer()),
    disposition_max_lots_total_orders: Nullable(Type.Integer()),
    disposition_prepay_ratio: Nullable(Type.Number()),
    update_date: DateText,
  },
  { title: 'StockInfo' },
);

const derivativeFields = {
  ...identityFields,
  name: Type.String(),
  root: Type.String(),
  delivery_month: YearMonth,
  delivery_date: DateText,
  last_trading_date: DateText,
  begin_date: DateText,
  underlying_kind: Type.Enum(['S', 'I', 'E', 'C']),
  underlying_code: Type.String(),
  multiplier: Type.Number(),
  contract_size: Type.Number(),
  size_unit: Type.String(),
  quote_ccy: Type.String(),
  tick_basis: Type.Enum(['fixed', 'price', 'premium']),
  tick_rule: Nullable(Type.String()),
  tick: Type.Number(),
  tick_value: Type.Number(),
  decimal_locator: Type.Integer(),
  dynamic_banding: Type.Boolean(),
  flow_group: Type.String(),
  reference: Type.Number(),
  limit_up: Type.Number(),
  limit_down: Type.Number(),
  limit_up_2: Type.Number(),
  limit_down_2: Type.Number(),
  limit_up_3: Type.Number(),
  limit_down_3: Type.Number(),
  update_date: DateText,
};

export const FuturesInfoSchema = Type.Object(
  {
    ...infoFields('FUT'),
    ...derivativeFields,
    spec_kind: Type.Enum(['index_fut', 'stock_fut', 'etf_fut', 'commodity', 'fx', 'unknown']),
  },
  { title: 'FuturesInfo' },
);

export const OptionInfoSchema = Type.Object(
  {
    ...infoFields('OPT'),
    ...derivativeFields,
    spec_kind: Type.Enum(['index_opt', 'stock_opt', 'etf_opt', 'commodity_opt', 'unknown']),
    strike_price: Type.Number(),
    option_right: Type.Enum(['C', 'P']),
    expiry_weekday: Type.String(),
    week_of_month: Type.Integer(),
    strike_decimal_locator: Type.Integer(),
  },
  { title: 'OptionInfo' },
);

export const IndexInfoSchema = Type.Object(
  {
    ...infoFields('IND'),
    name: Type.String(),
    reference: Type.Number(),
    open_time: Type.String(),
    close_time: Type.String(),
    update_date: DateText,
  },
  { title: 'IndexInfo' },
);

export const WarrantInfoSchema = Type.Object(
  {
    ...infoFields('WRT'),
    name: Type.String(),
    underlying_code: Type.String(),
    underlying_type: Type.String(),
    call_put: Type.Enum(['C', 'P']),
    financial: Type.String(),
    strike_price: Type.Number(),
    expiry_date: DateText,
    last_trading_date: DateText,
    exercise_ratio: Type.Number(),
    exercise_style: Type.Enum(['American', 'European']),
    listing_date: DateText,
    delisting_date: DateText,
    exercise_start_date: DateText,
    exercise_end_date: DateText,
    barrier_upper: Nullable(Type.Number()),
    barrier_lower: Nullable(Type.Number()),
    residual_value: Nullable(Type.Number()),
    settlement_method: Type.String(),
    investor_restriction: Type.String(),
    issue_size: Type.Integer(),
    reference: Type.Number(),
    limit_up: Type.Number(),
    limit_down: Type.Number(),
    update_date: DateText,
  },
  { title: 'WarrantInfo' },
);

// 1.7.9 clients tell the info records apart by `dataset`, `<region>/<security type>` (TW/STK, TW/FUT, TW/OPT, TW/IND,
// TW/WRT): the info and listing routes answer these records, the domain's Info with it added.
const infoRecordSchema = <P extends Type.TProperties>(info: Type.TObject<P>, example: string, title: string) =>
  Type.Object(
    {
      ...info.properties,
      dataset: Type.String({ description: `'${example}': the region and security type, by which 1.7.9 reads it` }),
    },
    { title },
  );
export const StockInfoRecordSchema = infoRecordSchema(StockInfoSchema, 'TW/STK', 'StockInfoRecord');
export const FuturesInfoRecordSchema = infoRecordSchema(FuturesInfoSchema, 'TW/FUT', 'FuturesInfoRecord');
export const OptionInfoRecordSchema = infoRecordSchema(OptionInfoSchema, 'TW/OPT', 'OptionInfoRecord');
export const IndexInfoRecordSchema = infoRecordSchema(IndexInfoSchema, 'TW/IND', 'IndexInfoRecord');
export const WarrantInfoRecordSchema = infoRecordSchema(WarrantInfoSchema, 'TW/WRT', 'WarrantInfoRecord');

/** An Info as the contracts API answers it: with its dataset. */
export function infoRecordOf<T extends { region: string; security_type: string }>(info: T): T & { dataset: string } {
  return { ...info, dataset: `${info.region}/${info.security_type}` };
}

export const ComboTypeSchema = Type.Enum([...COMBO_TYPES]);

export const ComboContractSchema = Type.Object(
  {
    code: Nullable(Type.String({ description: 'exchange combo code; option combos have none' })),
    legs: Type.Array(ContractSchema),
    region: Type.String(),
    exchange: Exchange,
    combo_type: ComboTypeSchema,
    managed: Type.Boolean(),
  },
  { title: 'ComboContract' },
);

export const TickBandRuleSchema = Type.Object(
  {
    region: Type.String(),
    security_type: Type.Enum(['FUT', 'OPT']),
    rule: Type.String(),
    basis: Type.Enum(['price', 'premium']),
    bands: Type.Array(Type.Object({ min: Type.Number(), max: Nullable(Type.Number()), tick: Type.Number() })),
  },
  { title: 'TickBandRule' },
);

export const RootNameSchema = Type.Object({ root: Type.String(), name: Type.String() });

export const WarrantUnderlyingSchema = Type.Object({
  underlying_code: Type.String(),
  name: Type.Optional(Type.String()),
  warrant_count: Type.Integer(),
});

export const ContractListSchema = Type.Object({
  contracts: Type.Array(ContractSchema),
  security_type: SecurityTypeSchema,
  region: Type.String(),
  total: Type.Integer(),
  page: Type.Optional(Type.Integer()),
  page_size: Type.Optional(Type.Integer()),
  max_page: Type.Optional(Type.Integer()),
});

const ComboLegSchema = Type.Object(
  {
    security_type: SecurityTypeSchema,
    exchange: Type.Optional(Type.String()),
    code: Type.String({ minLength: 1, maxLength: 32 }),
    region: Type.Optional(RegionSchema),
    target_code: Type.Optional(Nullable(Type.String())),
    action: Type.Optional(Type.Unknown({ description: 'not allowed: a combo has no direction (400)' })),
  },
  { additionalProperties: false },
);

export const ComboRequestSchema = Type.Object(
  {
    legs: Type.Array(ComboLegSchema, { maxItems: 8 }),
    combo_type: Type.Optional(
      Type.Union([ComboTypeSchema, Type.Null()], { description: 'null: derived from the legs' }),
    ),
    region: Type.Optional(RegionSchema),
  },
  { additionalProperties: false },
);

// Compile-time proof that the response schemas and the domain types describe the same JSON.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const proofs: [
  Same<Static<typeof StockInfoSchema>, Omit<StockInfo, 'region' | 'exchange'> & { region: string; exchange: string }>,
  Same<
    Static<typeof FuturesInfoSchema>,
    Omit<FuturesInfo, 'region' | 'exchange'> & { region: string; exchange: string }
  >,
  Same<Static<typeof OptionInfoSchema>, Omit<OptionInfo, 'region' | 'exchange'> & { region: string; exchange: string }>,
  Same<Static<typeof IndexInfoSchema>, Omit<IndexInfo, 'region' | 'exchange'> & { region: string; exchange: string }>,
  Same<
    Static<typeof WarrantInfoSchema>,
    Omit<WarrantInfo, 'region' | 'exchange'> & { region: string; exchange: string }
  >,
  Same<Static<typeof ContractSchema>, Omit<Contract, 'region' | 'exchange'> & { region: string; exchange: string }>,
  Same<Static<typeof TickBandRuleSchema>['bands'], TickBandRule['bands']>,
  Same<Static<typeof ComboContractSchema>['combo_type'], ComboContract['combo_type']>,
] = [true, true, true, true, true, true, true, true];
void proofs;
