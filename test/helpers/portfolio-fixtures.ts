// Portfolio payloads as a broker reports them, shared by the gateway and CLI tests: realistic values, integers where
// the spec says int, and values that tell the columns apart (a position id that is not its row, an entry date before
// the cover date, short limits unlike the margin limits). Checked with `satisfies` rather than annotated, so that they
// keep plain object types: the CLI's formatters take rows as Record<string, unknown>, which an interface is not.

import type {
  AccountBalance,
  FuturePosition,
  FuturePositionDetail,
  FutureProfitDetail,
  FutureProfitLoss,
  Margin,
  ProfitLossSummary,
  Settlement,
  StockPosition,
  StockPositionDetail,
  StockProfitDetail,
  StockProfitLoss,
  TradingLimits,
} from '../../src/domain/portfolio.js';

export const BALANCE = {
  acc_balance: 9_487_262.5,
  date: '2026-11-23 10:00:00.000000',
  errmsg: '',
} satisfies AccountBalance;

export const MARGIN = {
  yesterday_balance: 2_000_000,
  today_balance: 2_003_550,
  deposit_withdrawal: 0,
  fee: 60,
  tax: 90.5,
  initial_margin: 322_000,
  maintenance_margin: 247_000,
  margin_call: 0,
  risk_indicator: 622.1,
  royalty_revenue_expenditure: 0,
  equity: 2_003_550,
  equity_amount: 2_003_550,
  option_openbuy_market_value: 0,
  option_opensell_market_value: 0,
  option_open_position: 0,
  option_settle_profitloss: 0,
  future_open_position: 3_000,
  today_future_open_position: 3_000,
  future_settle_profitloss: 700,
  available_margin: 1_681_550,
  plus_margin: 0,
  plus_margin_indicator: 0,
  security_collateral_amount: 0,
  order_margin_premium: 0,
  collateral_amount: 0,
} satisfies Margin;

export const STOCK_POSITION = {
  id: 0,
  code: '2330',
  direction: 'Buy',
  quantity: 2,
  price: 1012.5,
  last_price: 1025,
  pnl: 24_137.25,
  yd_quantity: 2,
  cond: 'Cash',
  margin_purchase_amount: 0,
  collateral: 0,
  short_sale_margin: 0,
  interest: 0,
} satisfies StockPosition;
export const STOCK_POSITION_SHARES = { ...STOCK_POSITION, quantity: 2_050, yd_quantity: 2_000 } satisfies StockPosition;

export const FUTURE_POSITION = {
  id: 3,
  code: 'TXFL6',
  direction: 'Sell',
  quantity: 1,
  price: 22_810,
  last_price: 22_795,
  pnl: 3_000,
} satisfies FuturePosition;

export const STOCK_POSITION_DETAIL = {
  date: '2026-11-20',
  code: '2330',
  quantity: 2,
  price: 2_025_000,
  last_price: 2_050_000,
  dseq: 'WA371',
  direction: 'Buy',
  pnl: 24_137.25,
  currency: 'TWD',
  fee: 2_885.5,
  cond: 'Cash',
  ex_dividends: 0,
  interest: 0,
  margintrading_amt: 0,
  collateral: 0,
} satisfies StockPositionDetail;

export const FUTURE_POSITION_DETAIL = {
  date: '2026-11-23',
  code: 'TXFL6',
  quantity: 1,
  price: 22_810,
  last_price: 22_795,
  dseq: 'tA0A7',
  direction: 'Sell',
  pnl: 3_000,
  currency: 'TWD',
  fee: 60,
  entry_quantity: 1,
} satisfies FuturePositionDetail;

export const STOCK_PROFIT_LOSS = {
  id: 0,
  code: '2317',
  quantity: 3,
  pnl: 4_711.75,
  date: '2026-11-23',
  dseq: 'WA372',
  price: 212.5,
  pr_ratio: 0.74,
  cond: 'Cash',
  seqno: '100003',
} satisfies StockProfitLoss;

export const FUTURE_PROFIT_LOSS = {
  id: 0,
  code: 'MXFL6',
  quantity: 2,
  pnl: 1_400,
  date: '2026-11-23',
  entry_price: 22_780,
  cover_price: 22_815,
  tax: 92,
  fee: 80,
  direction: 'Buy',
} satisfies FutureProfitLoss;

export const STOCK_PROFIT_DETAIL = {
  date: '2026-11-19',
  code: '2317',
  quantity: 3,
  dseq: 'WA110',
  fee: 898,
  tax: 0,
  currency: 'TWD',
  price: 210,
  cost: 630_898,
  rep_margintrading_amt: 0,
  rep_collateral: 0,
  rep_margin: 0,
  shortselling_fee: 0,
  ex_dividend_amt: 0,
  interest: 0,
  trade_type: 'Common',
  cond: 'Cash',
} satisfies StockProfitDetail;

export const FUTURE_PROFIT_DETAIL = {
  date: '2026-11-23',
  code: 'MXFL6',
  quantity: 2,
  dseq: 'tA0B1',
  fee: 40,
  tax: 45.5,
  currency: 'TWD',
  direction: 'Buy',
  entry_date: '2026-11-20',
  entry_quantity: 2,
  entry_seqno: '100007',
  entry_price: 22_780,
  cover_price: 22_815,
  pnl: 1_400,
} satisfies FutureProfitDetail;

export const STOCK_SUMMARY = {
  profitloss_sum: [
    {
      code: '2317',
      quantity: 3,
      entry_price: 210,
      cover_price: 212.5,
      pnl: 4_711.75,
      currency: 'TWD',
      entry_cost: 630_000,
      cover_cost: 637_500,
      buy_cost: 630_898,
      sell_cost: 635_680,
      pr_ratio: 0.74,
      cond: 'Cash',
    },
  ],
  total: {
    entry_amount: 630_000,
    cover_amount: 637_500,
    quantity: 3,
    buy_cost: 630_898,
    sell_cost: 635_680,
    pnl: 4_711.75,
    pr_ratio: 0.74,
  },
} satisfies ProfitLossSummary;

export const FUTURE_SUMMARY = {
  profitloss_sum: [
    {
      code: 'MXFL6',
      quantity: 2,
      entry_price: 22_780,
      cover_price: 22_815,
      pnl: 1_400,
      currency: 'TWD',
      direction: 'Buy',
      tax: 92,
      fee: 80,
    },
  ],
  total: {
    entry_amount: 9_112_000,
    cover_amount: 9_126_000,
    quantity: 2,
    buy_cost: 9_112_040,
    sell_cost: 9_125_868,
    pnl: 1_400,
    pr_ratio: 0.15,
  },
} satisfies ProfitLossSummary;

export const SETTLEMENTS = [
  { date: '2026-11-23', amount: 0, T: 0 },
  { date: '2026-11-24', amount: -2_027_885.5, T: 1 },
  { date: '2026-11-25', amount: 636_782, T: 2 },
] satisfies Settlement[];

export const TRADING_LIMITS = {
  trading_limit: 10_000_000,
  trading_used: 2_027_886,
  trading_available: 7_972_114,
  margin_limit: 5_000_000,
  margin_used: 0,
  margin_available: 5_000_000,
  short_limit: 4_000_000,
  short_used: 12_000,
  short_available: 3_988_000,
} satisfies TradingLimits;
