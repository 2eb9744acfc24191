// Portfolio payloads as Shioaji reports them (spec: "Portfolio"; docs/official-behaviour.md). Field names are the wire's.

import type { Action, StockOrderCond } from './orders.js';

export type PositionUnit = 'Common' | 'Share';
export type Currency = 'TWD' | 'USD' | 'HKD' | 'EUR' | 'CAD' | 'BAS';

export interface AccountBalance {
  acc_balance: number;
  /** 'YYYY-MM-DD HH:MM:SS.ffffff', Taipei time. */
  date: string;
  errmsg: string;
}

export interface Margin {
  yesterday_balance: number;
  today_balance: number;
  deposit_withdrawal: number;
  fee: number;
  tax: number;
  initial_margin: number;
  maintenance_margin: number;
  margin_call: number;
  risk_indicator: number;
  royalty_revenue_expenditure: number;
  equity: number;
  equity_amount: number;
  option_openbuy_market_value: number;
  option_opensell_market_value: number;
  option_open_position: number;
  option_settle_profitloss: number;
  future_open_position: number;
  today_future_open_position: number;
  future_settle_profitloss: number;
  available_margin: number;
  plus_margin: number;
  plus_margin_indicator: number;
  security_collateral_amount: number;
  order_margin_premium: number;
  collateral_amount: number;
}

export interface StockPosition {
  id: number;
  code: string;
  direction: Action;
  /** Lots for unit Common, shares for unit Share. */
  quantity: number;
  price: number;
  last_price: number;
  pnl: number;
  /** Held at the end of the previous trading day, in the same unit as quantity. */
  yd_quantity: number;
  cond: StockOrderCond;
  margin_purchase_amount: number;
  collateral: number;
  short_sale_margin: number;
  interest: number;
}

export interface FuturePosition {
  id: number;
  code: string;
  direction: Action;
  quantity: number;
  price: number;
  last_price: number;
  pnl: number;
}

export interface StockPositionDetail {
  date: string;
  code: string;
  quantity: number;
  price: number;
  last_price: number;
  dseq: string;
  direction: Action;
  pnl: number;
  currency: Currency;
  fee: number;
  cond: StockOrderCond;
  ex_dividends: number;
  interest: number;
  margintrading_amt: number;
  collateral: number;
}

export interface FuturePositionDetail {
  date: string;
  code: string;
  quantity: number;
  price: number;
  last_price: number;
  dseq: string;
  direction: Action;
  pnl: number;
  currency: Currency;
  fee: number;
  entry_quantity: number;
}

export interface StockProfitLoss {
  id: number;
  code: string;
  quantity: number;
  pnl: number;
  date: string;
  dseq: string;
  price: number;
  pr_ratio: number;
  cond: StockOrderCond;
  seqno: string;
}

export interface FutureProfitLoss {
  id: number;
  code: string;
  quantity: number;
  pnl: number;
  date: string;
  entry_price: number;
  cover_price: number;
  tax: number;
  fee: number;
  direction: Action;
}

export interface StockProfitDetail {
  date: string;
  code: string;
  quantity: number;
  dseq: string;
  fee: number;
  tax: number;
  currency: Currency;
  price: number;
  cost: number;
  rep_margintrading_amt: number;
  rep_collateral: number;
  rep_margin: number;
  shortselling_fee: number;
  ex_dividend_amt: number;
  interest: number;
  trade_type: 'Common' | 'DayTrade';
  cond: StockOrderCond;
}

export interface FutureProfitDetail {
  date: string;
  code: string;
  quantity: number;
  dseq: string;
  fee: number;
  tax: number;
  currency: Currency;
  direction: Action;
  entry_date: string;
  entry_quantity: number;
  entry_seqno: string;
  entry_price: number;
  cover_price: number;
  pnl: number;
}

export interface StockProfitLossSummary {
  code: string;
  quantity: number;
  entry_price: number;
  cover_price: number;
  pnl: number;
  currency: Currency;
  entry_cost: number;
  cover_cost: number;
  buy_cost: number;
  sell_cost: number;
  pr_ratio: number;
  cond: StockOrderCond;
}

export interface FutureProfitLossSummary {
  code: string;
  quantity: number;
  entry_price: number;
  cover_price: number;
  pnl: number;
  currency: Currency;
  direction: Action;
  tax: number;
  fee: number;
}

export interface ProfitLossTotal {
  entry_amount: number;
  cover_amount: number;
  quantity: number;
  buy_cost: number;
  sell_cost: number;
  pnl: number;
  pr_ratio: number;
}

export interface ProfitLossSummary {
  profitloss_sum: StockProfitLossSummary[] | FutureProfitLossSummary[];
  total: ProfitLossTotal;
}

export interface Settlement {
  /** 'YYYY-MM-DD' */
  date: string;
  amount: number;
  /** Trading days after the trade: 0, 1 or 2. */
  T: number;
}

export interface TradingLimits {
  trading_limit: number;
  trading_used: number;
  trading_available: number;
  margin_limit: number;
  margin_used: number;
  margin_available: number;
  short_limit: number;
  short_used: number;
  short_available: number;
}

export interface DateRange {
  /** 'YYYY-MM-DD'; both default to today. */
  begin_date?: string | undefined;
  end_date?: string | undefined;
}
