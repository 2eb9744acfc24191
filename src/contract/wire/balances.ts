import type { AccountQuery } from './accounts.js';

/** `{}` (or no body) means the default account of the type; broker_id and account_id (flat or under `account`) name another */
export type StockAccountRequest = AccountQuery<'S'>;

export interface AccountBalance {
  /** the bank balance of the settlement account, NT$ */
  acc_balance: number;
  /** 'YYYY-MM-DD HH:MM:SS.ffffff', Taiwan time */
  date: string;
  /** empty when fine */
  errmsg: string;
}

/** `{}` (or no body) means the default account of the type; broker_id and account_id (flat or under `account`) name another */
export type FuturesAccountRequest = AccountQuery<'F'>;

/** NT$ amounts of a futures account; every field a number */
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

export interface Settlement {
  /** YYYY-MM-DD */
  date: string;
  /** NT$ to receive (positive) or to pay (negative) */
  amount: number;
  /** trading days after the trade: 0, 1 or 2 */
  T: number;
}

/** NT$ amounts */
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
