import type { Account, AccountSelector } from './accounts.js';
import type { ContractRef } from './market-data.js';

/** What a stock order and a futures order share. */
interface OrderCommon {
  /** Buy or Sell */
  action: 'Buy' | 'Sell';
  /** limit price; 0 for MKT and MKP */
  price: number;
  /** a memo echoed in order and deal reports: up to 6 letters or digits */
  custom_field?: string;
  account?: AccountSelector;
  /** the signature the 1.7.9 SDK sends (empty); ignored: sjgate signs */
  ca?: string;
}

export interface StockOrder extends OrderCommon {
  /** lots (1,000 shares) for Common, Fixing and BlockTrade; shares for Odd and IntradayOdd */
  quantity: number;
  /** LMT, MKT or MKP */
  price_type: 'LMT' | 'MKT' | 'MKP';
  /** ROD, IOC or FOK (1.7.9 name) */
  time_in_force?: 'ROD' | 'IOC' | 'FOK';
  /** ROD, IOC or FOK; the legacy name of time_in_force */
  order_type?: 'ROD' | 'IOC' | 'FOK';
  order_lot?: 'Common' | 'BlockTrade' | 'Fixing' | 'Odd' | 'IntradayOdd';
  order_cond?: 'Cash' | 'Netting' | 'MarginTrading' | 'ShortSelling' | 'SBLShort' | 'SBLShortPriceExempt' | 'Emerging';
  /** sell first, buy back the same day; default false */
  daytrade_short?: boolean;
}

export interface FuturesOrder extends OrderCommon {
  /** contracts */
  quantity: number;
  /** LMT, MKT or MKP (range market) */
  price_type: 'LMT' | 'MKT' | 'MKP';
  /** ROD, IOC or FOK; TAIFEX refuses MKT with ROD (1.7.9 name) */
  time_in_force?: 'ROD' | 'IOC' | 'FOK';
  /** ROD, IOC or FOK; TAIFEX refuses MKT with ROD; the legacy name of time_in_force */
  order_type?: 'ROD' | 'IOC' | 'FOK';
  /** Auto (default), New (also NewPosition), Cover or DayTrade */
  octype?: 'Auto' | 'New' | 'Cover' | 'DayTrade' | 'NewPosition';
}

/** exactly one of stock_order (stocks) and futures_order (futures and options); the other absent or null */
export interface PlaceOrderRequest {
  contract: ContractRef;
  stock_order?: StockOrder;
  futures_order?: FuturesOrder;
  /** milliseconds; 0 returns at once with status Inactive and empty ids (they arrive in the order events) */
  timeout?: number;
}

export interface TradeContract {
  security_type: 'STK' | 'IND' | 'FUT' | 'OPT' | 'WRT';
  exchange: 'TSE' | 'OTC' | 'OES' | 'TAIFEX';
  /** the code as ordered (e.g. TXFR1) */
  code: string;
  /** the real contract of a continuous-month alias (TXFR1 → TXFL6); else null */
  target_code: string | null;
}

export interface StockTradeOrder {
  /** the trade id: cancel and update name the trade by it; empty until submitted */
  id: string;
  seqno: string;
  /** the exchange order number; empty until submitted */
  ordno: string;
  action: 'Buy' | 'Sell';
  price: number;
  quantity: number;
  /** ROD, IOC or FOK (1.7.9 name); equal to order_type */
  time_in_force: 'ROD' | 'IOC' | 'FOK';
  /** the legacy name of time_in_force */
  order_type: 'ROD' | 'IOC' | 'FOK';
  custom_field: string;
  account: Account;
  /** signature; empty in simulation */
  ca: string;
  price_type: 'LMT' | 'MKT' | 'MKP';
  order_cond: 'Cash' | 'Netting' | 'MarginTrading' | 'ShortSelling' | 'SBLShort' | 'SBLShortPriceExempt' | 'Emerging';
  order_lot: 'Common' | 'BlockTrade' | 'Fixing' | 'Odd' | 'IntradayOdd';
}

export interface Deal {
  /** '000001', '000002', ... per order */
  seq: string;
  price: number;
  quantity: number;
  /** epoch seconds */
  ts: number;
}

export interface RuleViolation {
  /** the rule's name, e.g. priceOnTickGrid */
  rule: string;
  /** op_code of the order event, had this rule been the first */
  op_code: string;
  /** Shioaji's message for the rule, or English where it has none */
  msg: string;
}

export interface TradeStatus {
  /** same as order.id */
  id: string;
  status:
    | 'PendingSubmit'
    | 'PreSubmitted'
    | 'Submitted'
    | 'Failed'
    | 'Cancelled'
    | 'Filled'
    | 'PartFilled'
    | 'Inactive';
  status_code: string;
  web_id: string;
  /** epoch seconds (float) */
  order_ts: number;
  /** the reason when Failed; the answer of the last operation otherwise */
  msg: string;
  /** epoch seconds of the last change; 0 before acknowledgement */
  modified_ts: number;
  modified_price: number;
  /** the live quantity: ordered less cancelled; 0 until acknowledged */
  order_quantity: number;
  deal_quantity: number;
  /** cumulative: update_qty reductions and the cancelled remainder */
  cancel_quantity: number;
  deals: Deal[];
  violations?: RuleViolation[];
}

export interface StockTrade {
  contract: TradeContract;
  order: StockTradeOrder;
  status: TradeStatus;
}

export interface FuturesTradeOrder {
  /** the trade id: cancel and update name the trade by it; empty until submitted */
  id: string;
  seqno: string;
  /** the exchange order number; empty until submitted */
  ordno: string;
  action: 'Buy' | 'Sell';
  price: number;
  quantity: number;
  /** ROD, IOC or FOK (1.7.9 name); equal to order_type */
  time_in_force: 'ROD' | 'IOC' | 'FOK';
  /** the legacy name of time_in_force */
  order_type: 'ROD' | 'IOC' | 'FOK';
  custom_field: string;
  account: Account;
  /** signature; empty in simulation */
  ca: string;
  price_type: 'LMT' | 'MKT' | 'MKP';
  octype: 'Auto' | 'New' | 'Cover' | 'DayTrade';
}

export interface FuturesTrade {
  contract: TradeContract;
  order: FuturesTradeOrder;
  status: TradeStatus;
}

/** order has order_cond and order_lot for stocks, octype for futures and options */
export type Trade = StockTrade | FuturesTrade;

export interface TradeIdRequest {
  /** the id of the trade (order.id of the Trade that place_order returned) */
  trade_id: string;
}

export interface UpdatePriceRequest {
  /** the id of the trade (order.id of the Trade that place_order returned) */
  trade_id: string;
  /** the new limit price */
  price: number;
}

export interface UpdateQtyRequest {
  /** the id of the trade (order.id of the Trade that place_order returned) */
  trade_id: string;
  /** how many to cancel (reduce by); the order keeps its price and queue position */
  quantity: number;
}

export interface ComboOrderLeg {
  /** FUT or OPT */
  security_type: 'STK' | 'IND' | 'FUT' | 'OPT' | 'WRT';
  /** TSE, OTC, OES or TAIFEX; may be omitted */
  exchange?: 'TSE' | 'OTC' | 'OES' | 'TAIFEX' | '';
  /** product code, e.g. 2330, TXFR1, IX0001 */
  code: string;
  /** ignored (Contract field) */
  target_code?: string | null;
  /** TW; the only market served */
  region?: 'TW';
  /** legacy form: every leg has one, or none has */
  action?: 'Buy' | 'Sell';
  /** ignored (Contract field) */
  symbol?: string;
  /** ignored (Contract field) */
  category?: string;
  /** ignored (Contract field) */
  delivery_month?: string;
  /** ignored (Contract field) */
  strike_price?: number;
  /** ignored (Contract field) */
  option_right?: string;
}

export interface ComboOrderContract {
  /** exactly 2 TAIFEX legs; another count is a 400 */
  legs: ComboOrderLeg[];
  combo_type?:
    | 'PriceSpread'
    | 'TimeSpread'
    | 'Straddle'
    | 'Strangle'
    | 'ConversionReversal'
    | 'WeeklyTimeSpread'
    | null;
  /** ignored (ComboContract field) */
  code?: string | null;
  /** ignored (ComboContract field) */
  region?: 'TW';
  /** ignored (ComboContract field) */
  exchange?: 'TAIFEX' | '';
  /** ignored (ComboContract field) */
  managed?: boolean;
}

export interface ComboOrder extends FuturesOrder {
  /** the combo's net price as its quotes show it (far minus near for a spread; may be negative) */
  price: number;
  combo_type?:
    | 'PriceSpread'
    | 'TimeSpread'
    | 'Straddle'
    | 'Strangle'
    | 'ConversionReversal'
    | 'WeeklyTimeSpread'
    | null;
}

export interface PlaceComboOrderRequest {
  combo_contract: ComboOrderContract;
  order: ComboOrder;
  /** milliseconds; 0 answers at once (Inactive) */
  timeout?: number;
}

export interface ComboTradeLeg {
  security_type: 'STK' | 'IND' | 'FUT' | 'OPT' | 'WRT';
  exchange: 'TSE' | 'OTC' | 'OES' | 'TAIFEX';
  /** the code as ordered (e.g. TXFR1) */
  code: string;
  /** the real contract of a continuous-month alias (TXFR1 → TXFL6); else null */
  target_code: string | null;
  action: 'Buy' | 'Sell';
}

export interface ComboTradeOrder {
  /** the trade id: cancel and update name the trade by it; empty until submitted */
  id: string;
  seqno: string;
  /** the exchange order number; empty until submitted */
  ordno: string;
  action: 'Buy' | 'Sell';
  /** the net price */
  price: number;
  quantity: number;
  /** ROD, IOC or FOK (1.7.9 name); equal to order_type */
  time_in_force: 'ROD' | 'IOC' | 'FOK';
  /** the legacy name of time_in_force */
  order_type: 'ROD' | 'IOC' | 'FOK';
  price_type: 'LMT' | 'MKT' | 'MKP';
  octype: 'Auto' | 'New' | 'Cover' | 'DayTrade';
  account: Account;
  combo_type: 'PriceSpread' | 'TimeSpread' | 'Straddle' | 'Strangle' | 'ConversionReversal' | 'WeeklyTimeSpread';
}

export interface ComboTradeStatus extends Omit<TradeStatus, 'deals'> {
  /** deals per leg code; {} before any */
  deals: Record<string, Deal[]>;
}

export interface ComboTrade {
  contract: {
    legs: [ComboTradeLeg, ComboTradeLeg];
  };
  order: ComboTradeOrder;
  status: ComboTradeStatus;
}

/** `{}` lists the trades of every account; `{account_type}` those of one type; `{broker_id, account_id}` (flat or under `account`) those of one account */
export interface TradesRequest {
  /** S, F or H; null means not given */
  account_type?: 'S' | 'F' | 'H' | null;
  /** the broker of the account; null means not given */
  broker_id?: string | null;
  /** the account; null means not given */
  account_id?: string | null;
  /** the person; "" is not given too; null means not given */
  person_id?: string | null;
  /** ignored; accepted so an Account object can be sent as is */
  signed?: boolean;
  /** ignored; accepted so an Account object can be sent as is */
  username?: string;
  account?: AccountSelector;
}

/** `{}` lists the trades of every account; `{account_type}` those of one type; `{broker_id, account_id}` (flat or under `account`) those of one account. Any of limit, cursor, begin_date and end_date pages through the history instead of listing today */
export interface TradesPageRequest {
  /** S, F or H; null means not given */
  account_type?: 'S' | 'F' | 'H' | null;
  /** the broker of the account; null means not given */
  broker_id?: string | null;
  /** the account; null means not given */
  account_id?: string | null;
  /** the person; "" is not given too; null means not given */
  person_id?: string | null;
  /** ignored; accepted so an Account object can be sent as is */
  signed?: boolean;
  /** ignored; accepted so an Account object can be sent as is */
  username?: string;
  account?: AccountSelector;
  /** paging: at most this many trades (1 to 1000; 500 when paging without it) */
  limit?: number;
  /** paging: the X-Next-Cursor header of the previous page, as it came; the first page without it */
  cursor?: string;
  /** YYYY-MM-DD, Taiwan time; paging: orders placed on or after this day (all history when omitted) */
  begin_date?: string;
  /** YYYY-MM-DD, Taiwan time; paging: orders placed on or before this day (up to now when omitted) */
  end_date?: string;
}
