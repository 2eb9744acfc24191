import type { AccountQuery } from './accounts.js';

/** `{}` (or no body) means the default account of the type; broker_id and account_id (flat or under `account`) name another */
export interface PositionsRequest extends AccountQuery<'S' | 'F'> {
  /** Common (default): quantities in lots of 1,000 shares; Share: in shares, odd lots included */
  unit?: 'Common' | 'Share';
}

export interface StockPosition {
  /** the position id: detail_id of position_detail */
  id: number;
  code: string;
  /** Buy (long) or Sell (short) */
  direction: 'Buy' | 'Sell';
  /** lots for unit Common, shares for unit Share */
  quantity: number;
  /** average cost price */
  price: number;
  last_price: number;
  /** unrealized profit and loss, NT$ */
  pnl: number;
  /** held at the end of the previous trading day */
  yd_quantity: number;
  /** Cash, Netting, MarginTrading, ShortSelling or Emerging */
  cond: 'Cash' | 'Netting' | 'MarginTrading' | 'ShortSelling' | 'SBLShort' | 'SBLShortPriceExempt' | 'Emerging';
  margin_purchase_amount: number;
  collateral: number;
  short_sale_margin: number;
  interest: number;
}

export interface FuturePosition {
  /** the position id: detail_id of position_detail */
  id: number;
  code: string;
  /** Buy (long) or Sell (short) */
  direction: 'Buy' | 'Sell';
  /** contracts */
  quantity: number;
  /** average cost price */
  price: number;
  last_price: number;
  /** unrealized profit and loss, NT$ */
  pnl: number;
}

/** `{}` (or no body) means the default account of the type; broker_id and account_id (flat or under `account`) name another */
export interface PositionDetailRequest extends AccountQuery<'S' | 'F'> {
  /** the id of a row of position_unit */
  detail_id: number;
}

export interface StockPositionDetail {
  /** YYYY-MM-DD */
  date: string;
  code: string;
  quantity: number;
  /** cost price */
  price: number;
  last_price: number;
  /** the order book number */
  dseq: string;
  /** Buy (long) or Sell (short) */
  direction: 'Buy' | 'Sell';
  pnl: number;
  currency: 'TWD' | 'USD' | 'HKD' | 'EUR' | 'CAD' | 'BAS';
  fee: number;
  /** Cash, Netting, MarginTrading, ShortSelling or Emerging */
  cond: 'Cash' | 'Netting' | 'MarginTrading' | 'ShortSelling' | 'SBLShort' | 'SBLShortPriceExempt' | 'Emerging';
  ex_dividends: number;
  interest: number;
  margintrading_amt: number;
  collateral: number;
}

export interface FuturePositionDetail {
  /** YYYY-MM-DD */
  date: string;
  code: string;
  quantity: number;
  /** cost price */
  price: number;
  last_price: number;
  /** the order book number */
  dseq: string;
  /** Buy (long) or Sell (short) */
  direction: 'Buy' | 'Sell';
  pnl: number;
  currency: 'TWD' | 'USD' | 'HKD' | 'EUR' | 'CAD' | 'BAS';
  fee: number;
  /** the quantity opened */
  entry_quantity: number;
}

/** `{}` (or no body) means the default account of the type; broker_id and account_id (flat or under `account`) name another */
export interface ProfitLossRequest extends AccountQuery<'S' | 'F'> {
  /** YYYY-MM-DD; first day of the range; today when omitted */
  begin_date?: string;
  /** YYYY-MM-DD; last day of the range, inclusive; today when omitted */
  end_date?: string;
  /** Common (default): quantities in lots of 1,000 shares; Share: in shares, odd lots included */
  unit?: 'Common' | 'Share';
}

export interface StockProfitLoss {
  /** detail_id of profit_loss_detail */
  id: number;
  code: string;
  quantity: number;
  /** realized profit and loss, NT$ */
  pnl: number;
  /** YYYY-MM-DD */
  date: string;
  dseq: string;
  price: number;
  /** profit ratio, % */
  pr_ratio: number;
  /** Cash, Netting, MarginTrading, ShortSelling or Emerging */
  cond: 'Cash' | 'Netting' | 'MarginTrading' | 'ShortSelling' | 'SBLShort' | 'SBLShortPriceExempt' | 'Emerging';
  seqno: string;
}

export interface FutureProfitLoss {
  /** detail_id of profit_loss_detail */
  id: number;
  code: string;
  quantity: number;
  /** realized profit and loss, NT$ */
  pnl: number;
  /** YYYY-MM-DD */
  date: string;
  entry_price: number;
  cover_price: number;
  tax: number;
  fee: number;
  /** Buy (long) or Sell (short) */
  direction: 'Buy' | 'Sell';
}

/** `{}` (or no body) means the default account of the type; broker_id and account_id (flat or under `account`) name another */
export interface ProfitLossDetailRequest extends AccountQuery<'S' | 'F'> {
  /** the id of a row of profit_loss */
  detail_id: number;
  /** Common (default): quantities in lots of 1,000 shares; Share: in shares, odd lots included */
  unit?: 'Common' | 'Share';
}

export interface StockProfitDetail {
  /** YYYY-MM-DD */
  date: string;
  code: string;
  quantity: number;
  dseq: string;
  currency: 'TWD' | 'USD' | 'HKD' | 'EUR' | 'CAD' | 'BAS';
  fee: number;
  tax: number;
  price: number;
  cost: number;
  rep_margintrading_amt: number;
  rep_collateral: number;
  rep_margin: number;
  shortselling_fee: number;
  ex_dividend_amt: number;
  interest: number;
  trade_type: 'Common' | 'DayTrade';
  /** Cash, Netting, MarginTrading, ShortSelling or Emerging */
  cond: 'Cash' | 'Netting' | 'MarginTrading' | 'ShortSelling' | 'SBLShort' | 'SBLShortPriceExempt' | 'Emerging';
}

export interface FutureProfitDetail {
  /** YYYY-MM-DD */
  date: string;
  code: string;
  quantity: number;
  dseq: string;
  currency: 'TWD' | 'USD' | 'HKD' | 'EUR' | 'CAD' | 'BAS';
  fee: number;
  tax: number;
  /** Buy (long) or Sell (short) */
  direction: 'Buy' | 'Sell';
  /** YYYY-MM-DD */
  entry_date: string;
  entry_quantity: number;
  entry_seqno: string;
  entry_price: number;
  cover_price: number;
  pnl: number;
}

/** `{}` (or no body) means the default account of the type; broker_id and account_id (flat or under `account`) name another */
export interface ProfitLossSummaryRequest extends AccountQuery<'S' | 'F'> {
  /** YYYY-MM-DD; first day of the range; today when omitted */
  begin_date?: string;
  /** YYYY-MM-DD; last day of the range, inclusive; today when omitted */
  end_date?: string;
}

export interface StockProfitLossSummary {
  code: string;
  quantity: number;
  entry_price: number;
  cover_price: number;
  pnl: number;
  currency: 'TWD' | 'USD' | 'HKD' | 'EUR' | 'CAD' | 'BAS';
  /** excluding fee and tax */
  entry_cost: number;
  cover_cost: number;
  buy_cost: number;
  sell_cost: number;
  pr_ratio: number;
  /** Cash, Netting, MarginTrading, ShortSelling or Emerging */
  cond: 'Cash' | 'Netting' | 'MarginTrading' | 'ShortSelling' | 'SBLShort' | 'SBLShortPriceExempt' | 'Emerging';
}

export interface FutureProfitLossSummary {
  code: string;
  quantity: number;
  entry_price: number;
  cover_price: number;
  pnl: number;
  currency: 'TWD' | 'USD' | 'HKD' | 'EUR' | 'CAD' | 'BAS';
  /** Buy (long) or Sell (short) */
  direction: 'Buy' | 'Sell';
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
  /** one row per code (and direction for futures) */
  profitloss_sum: StockProfitLossSummary[] | FutureProfitLossSummary[];
  total: ProfitLossTotal;
}
