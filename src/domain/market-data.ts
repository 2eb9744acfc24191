// Market-data records as Shioaji returns them over HTTP: columnar ticks and bars, snapshots, rankings,
// credit and short-sale sources, and the regulatory lists.

import type { SecurityType } from './contracts.js';

/** The most contracts and combos one snapshots request may name (as upstream). */
export const MAX_SNAPSHOTS = 500;

export const TICKS_QUERY_TYPES = ['AllDay', 'RangeTime', 'LastCount'] as const;
export type TicksQueryType = (typeof TICKS_QUERY_TYPES)[number];

export const SCANNER_TYPES = [
  'ChangePercentRank',
  'ChangePriceRank',
  'DayRangeRank',
  'VolumeRank',
  'AmountRank',
  'TickCountRank',
] as const;
export type ScannerType = (typeof SCANNER_TYPES)[number];

export const CHANGE_TYPES = ['LimitUp', 'Up', 'Unchanged', 'Down', 'LimitDown'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** The numbers quotes carry for a change type (chg_type): 1 limit-up, 2 up, 3 flat, 4 down, 5 limit-down. */
export const CHANGE_TYPE_NUMBERS: Record<ChangeType, number> = {
  LimitUp: 1,
  Up: 2,
  Unchanged: 3,
  Down: 4,
  LimitDown: 5,
};

/** How a price stands against the reference and the day's limits (null: no limits, e.g. a combo). */
export function changeTypeOf(
  close: number,
  reference: number,
  limits: { up: number; down: number } | null,
): ChangeType {
  if (limits && close >= limits.up) return 'LimitUp';
  if (limits && close <= limits.down) return 'LimitDown';
  return close > reference ? 'Up' : close < reference ? 'Down' : 'Unchanged';
}

/** A contract named by a client: exchange and security type may be left for the catalog to resolve. */
export interface ContractRef {
  security_type?: SecurityType | undefined;
  exchange?: string | undefined;
  code: string;
}

/** A combo named by its two legs; combo_type is derived when omitted or null. */
export interface ComboRef {
  legs: ContractRef[];
  combo_type?: string | null | undefined;
}

export type InstrumentRef = ContractRef | ComboRef;

export const isComboRef = (ref: InstrumentRef): ref is ComboRef => 'legs' in ref;

export interface TicksQuery {
  contract: InstrumentRef;
  /** YYYY-MM-DD; the latest trading day when omitted. */
  date?: string | undefined;
  query_type?: TicksQueryType | undefined;
  time_start?: string | undefined;
  time_end?: string | undefined;
  last_cnt?: number | undefined;
}

export interface Ticks {
  datetime: string[];
  close: number[];
  volume: number[];
  bid_price: number[];
  bid_volume: number[];
  ask_price: number[];
  ask_volume: number[];
  /** 1 outer (buy side), 2 inner (sell side), 0 undetermined. */
  tick_type: number[];
}

export interface KbarsQuery {
  contract: InstrumentRef;
  /** YYYY-MM-DD; today's trading day when omitted (as the SDK's defaults). */
  start?: string | undefined;
  end?: string | undefined;
}

export interface Kbars {
  datetime: string[];
  Open: number[];
  High: number[];
  Low: number[];
  Close: number[];
  Volume: number[];
  Amount: number[];
}

export interface Snapshot {
  datetime: string;
  code: string;
  exchange: string;
  open: number;
  high: number;
  low: number;
  close: number;
  tick_type: 'None' | 'Buy' | 'Sell';
  change_price: number;
  change_rate: number;
  change_type: ChangeType;
  average_price: number;
  volume: number;
  total_volume: number;
  amount: number;
  total_amount: number;
  yesterday_volume: number;
  buy_price: number;
  buy_volume: number;
  sell_price: number;
  sell_volume: number;
  volume_ratio: number;
}

export interface ScannerQuery {
  scanner_type: ScannerType;
  date?: string | undefined;
  /** As the spec: true = largest first. */
  ascending?: boolean | undefined;
  count?: number | undefined;
}

export interface ScannerItem {
  date: string;
  code: string;
  name: string;
  datetime: string;
  open: number;
  high: number;
  low: number;
  close: number;
  price_range: number;
  /** 1 inner, 2 outer, 0 undetermined (the scanner's own, opposite convention). */
  tick_type: number;
  change_price: number;
  /** 1 LimitUp, 2 Up, 3 Unchanged, 4 Down, 5 LimitDown. */
  change_type: number;
  average_price: number;
  volume: number;
  total_volume: number;
  amount: number;
  total_amount: number;
  yesterday_volume: number;
  volume_ratio: number;
  buy_price: number;
  buy_volume: number;
  sell_price: number;
  sell_volume: number;
  bid_orders: number;
  bid_volumes: number;
  ask_orders: number;
  ask_volumes: number;
  rank_value: number;
}

export interface CreditEnquire {
  update_time: string;
  system: string;
  stock_id: string;
  margin_unit: number;
  short_unit: number;
  margin_loan_ratio: number;
  short_margin_ratio: number;
}

export interface ShortStockSource {
  code: string;
  short_stock_source: number;
  datetime: string;
}

export interface Punish {
  code: string[];
  start_date: string[];
  end_date: string[];
  updated_at: string[];
  interval: string[];
  unit_limit: (number | null)[];
  total_limit: (number | null)[];
  description: string[];
  announced_date: string[];
}

export interface Notice {
  code: string[];
  updated_at: string[];
  close: number[];
  reason: string[];
  announced_date: string[];
}

export interface DailyQuotes {
  Date: string[];
  Code: string[];
  Open: number[];
  High: number[];
  Low: number[];
  Close: number[];
  Volume: number[];
  Transaction: number[];
  Amount: number[];
}

export const emptyTicks = (): Ticks => ({
  datetime: [],
  close: [],
  volume: [],
  bid_price: [],
  bid_volume: [],
  ask_price: [],
  ask_volume: [],
  tick_type: [],
});

export const emptyKbars = (): Kbars => ({
  datetime: [],
  Open: [],
  High: [],
  Low: [],
  Close: [],
  Volume: [],
  Amount: [],
});
