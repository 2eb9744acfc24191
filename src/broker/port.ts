// The Broker port: everything the HTTP layer and the CLI may ask of a backend.
// The simulator (broker/sim) and the production bridge (broker/shioaji) both implement it.

import type { Account, AccountSelector, AccountType } from '../domain/accounts.js';
import type {
  ComboContract,
  ComboType,
  Contract,
  ContractEvent,
  ContractInfo,
  FuturesInfo,
  OptionInfo,
  OptionRight,
  Region,
  RootName,
  SecurityType,
  TickBandRule,
  WarrantInfo,
  WarrantUnderlying,
} from '../domain/contracts.js';
import type {
  ComboRef,
  ContractRef,
  CreditEnquire,
  DailyQuotes,
  InstrumentRef,
  Kbars,
  KbarsQuery,
  Notice,
  Punish,
  ScannerItem,
  ScannerQuery,
  ShortStockSource,
  Snapshot,
  Ticks,
  TicksQuery,
} from '../domain/market-data.js';
import type { Action, ComboTrade, FuturesOrderInput, OrderEvent, StockOrderInput, Trade } from '../domain/orders.js';
import type {
  AccountBalance,
  DateRange,
  FuturePosition,
  FuturePositionDetail,
  FutureProfitDetail,
  FutureProfitLoss,
  Margin,
  PositionUnit,
  ProfitLossSummary,
  Settlement,
  StockPosition,
  StockPositionDetail,
  StockProfitDetail,
  StockProfitLoss,
  TradingLimits,
} from '../domain/portfolio.js';
import type { MarketEvent, QuoteSubscription, QuoteType } from '../domain/quotes.js';
import type { ClockMode } from '../domain/sessions.js';
import type { Clock } from '../domain/time.js';

export interface ContractQuery {
  securityType?: SecurityType | undefined;
  region?: Region | undefined;
}

export interface FuturesQuery {
  root?: string | undefined;
  underlyingCode?: string | undefined;
  deliveryMonth?: string | undefined;
  region?: Region | undefined;
}

export interface OptionsQuery {
  root: string;
  deliveryMonth?: string | undefined;
  optionRight?: OptionRight | undefined;
  strikeMin?: number | undefined;
  strikeMax?: number | undefined;
  expiryWeekday?: string | undefined;
  region?: Region | undefined;
}

export interface WarrantsQuery {
  underlyingCode: string;
  code?: string | undefined;
  callPut?: OptionRight | undefined;
  strikeMin?: number | undefined;
  strikeMax?: number | undefined;
  expiryFrom?: string | undefined;
  expiryTo?: string | undefined;
  region?: Region | undefined;
}

export interface ComboLegRequest {
  security_type: SecurityType;
  exchange?: string | undefined;
  code: string;
  action?: unknown;
}

export interface ContractsPort {
  /** Throws NotFoundError for an unknown or expired code. */
  get(code: string, query?: ContractQuery): Contract;
  info(code: string, query?: ContractQuery): ContractInfo;
  list(securityType: SecurityType, region?: Region): Contract[];
  futuresRoots(region?: Region): RootName[];
  futures(query: FuturesQuery): FuturesInfo[];
  optionRoots(region?: Region): RootName[];
  options(query: OptionsQuery): OptionInfo[];
  warrants(query: WarrantsQuery): WarrantInfo[];
  warrantUnderlyings(region?: Region): WarrantUnderlying[];
  /** Throws InvalidRequestError with the Shioaji message for every construction rule. */
  createCombo(legs: ComboLegRequest[], comboType?: ComboType): ComboContract;
  futuresCombos(root: string, region?: Region): ComboContract[];
  tickBandRule(rule: string, securityType: 'FUT' | 'OPT', region?: Region): TickBandRule;
  /** How many contracts are loaded now. */
  count(): number;
  /** Calls the listener after every scheduled refresh; returns the function that stops it. */
  onContractEvent(listener: (event: ContractEvent) => void): () => void;
}

export interface Usage {
  connections: number;
  bytes: number;
  limit_bytes: number;
  remaining_bytes: number;
}

export interface MarketDataPort {
  /** Throws InvalidRequestError naming a missing field (time_start/time_end, last_cnt). */
  ticks(query: TicksQuery): Ticks;
  /** Throws InvalidRequestError when the range is reversed or longer than 30 days. */
  kbars(query: KbarsQuery): Kbars;
  snapshots(instruments: InstrumentRef[]): Snapshot[];
  scanner(query: ScannerQuery): ScannerItem[];
  creditEnquire(contracts: ContractRef[]): CreditEnquire[];
  shortStockSources(contracts: ContractRef[]): ShortStockSource[];
  punish(): Punish;
  notice(): Notice;
  dailyQuotes(date: string | undefined, excludeWarrants: boolean): DailyQuotes;
}

export interface AccountsPort {
  list(): Account[];
  /** The account a selector names, or the default of its type; throws NotFoundError. */
  resolve(selector: AccountSelector): Account;
  defaultAccount(type: AccountType): Account;
  setDefault(selector: AccountSelector): Account;
  usage(): Usage;
  /** Counts bytes of a ticks, kbars or snapshots response against the daily traffic limit. */
  recordTraffic(bytes: number): void;
  /** True once today's traffic reached the limit: those queries then answer empty values. */
  trafficExhausted(): boolean;
}

export interface PlaceOrderInput {
  /** `{code}` alone is enough: the security type and exchange are resolved from the catalog. */
  contract: ContractRef;
  /** Exactly one of the two, as the body's `stock_order` or `futures_order`. */
  stockOrder?: StockOrderInput | undefined;
  futuresOrder?: FuturesOrderInput | undefined;
  /** false for `timeout: 0`: the Trade comes back at once as Inactive without ids; the ids arrive by event. */
  wait: boolean;
  /** A retried place with the same key returns the first Trade instead of placing a second order. */
  idempotencyKey?: string | undefined;
}

export interface ComboLegInput extends ComboLegRequest {
  /** The legacy form names each leg's action; the newest form leaves it out and derives it from the order. */
  action?: Action | undefined;
}

export interface PlaceComboInput {
  legs: ComboLegInput[];
  comboType?: ComboType | undefined;
  /** price is the combo's net price, as its quotes show it (far minus near for a spread). */
  order: FuturesOrderInput;
  wait: boolean;
}

export interface JournaledOrderEvent {
  /** Strictly increasing, never reused, also across restarts: the SSE `id:`. */
  seq: number;
  /** `broker_id-account_id` of the account the event belongs to. */
  accountKey: string;
  event: OrderEvent;
}

export interface OrdersPort {
  /**
   * Places an order. A request that breaks an exchange or broker rule comes back as a Trade with status Failed and
   * the Shioaji message in status.msg (HTTP 200). Throws InvalidRequestError for a malformed request (both or neither
   * order object, a stock order for a futures contract, a bad custom_field) and NotFoundError for an unknown code.
   */
  place(input: PlaceOrderInput): Trade;
  /** Any order of any account, placed before or after a restart. Throws NotFoundError for an unknown trade id. */
  cancel(tradeId: string): Trade;
  updatePrice(tradeId: string, price: number): Trade;
  /** Reduces the order by `quantity` (how many to cancel, as the official server reads it); it keeps its price and queue position. */
  updateQty(tradeId: string, quantity: number): Trade;
  /** The trades of one account, or of every account when no selector is given; oldest first. */
  trades(account?: AccountSelector): Trade[];
  /** Places a combo; rule breaks come back as a Failed ComboTrade, malformed legs as InvalidRequestError. */
  placeCombo(input: PlaceComboInput): ComboTrade;
  cancelCombo(tradeId: string): ComboTrade;
  comboTrades(account?: AccountSelector): ComboTrade[];
  /**
   * Resolves once every change made so far is durable in the journal. Answer a change only after it: changes are
   * written together (group commit) at the end of the event loop's turn.
   */
  durable(): Promise<void>;
  /** Order and deal events after a sequence number (0 = from the start), oldest first. */
  eventsAfter(seq: number, limit?: number): JournaledOrderEvent[];
  /** The sequence of the newest order or deal event journaled (0 before the first). */
  lastEventSeq(): number;
  /** Calls the listener for every order and deal event after it is journaled; returns the function that stops it. */
  onOrderEvent(listener: (event: JournaledOrderEvent) => void): () => void;
}

/**
 * Account queries. Each takes the request's account selector; ids omitted mean the default account of the
 * selector's account_type (S when absent, F for margin). Throws NotFoundError for an unknown account,
 * InvalidRequestError for an account of the wrong type (margin of a stock account) or a reversed date range,
 * and NotFoundError for an unknown detail_id.
 */
export interface PortfolioPort {
  accountBalance(account: AccountSelector): AccountBalance;
  margin(account: AccountSelector): Margin;
  positions(account: AccountSelector, unit: PositionUnit): StockPosition[] | FuturePosition[];
  positionDetail(account: AccountSelector, detailId: number): StockPositionDetail[] | FuturePositionDetail[];
  profitLoss(account: AccountSelector, range: DateRange, unit: PositionUnit): StockProfitLoss[] | FutureProfitLoss[];
  profitLossDetail(
    account: AccountSelector,
    detailId: number,
    unit: PositionUnit,
  ): StockProfitDetail[] | FutureProfitDetail[];
  profitLossSummary(account: AccountSelector, range: DateRange): ProfitLossSummary;
  settlements(account: AccountSelector): Settlement[];
  tradingLimits(account: AccountSelector): TradingLimits;
}

export interface SubscribeInput {
  /** A product (`{code}` is enough; security_type and exchange narrow it) or a futures combo by its two legs. */
  contract: ContractRef | ComboRef;
  quoteType: QuoteType;
  intradayOdd: boolean;
}

/**
 * Live quotes. The gateway keeps the list of subscriptions (the limit, persistence, restore); the backend resolves
 * requests and delivers the events of what is subscribed.
 */
export interface QuotesPort {
  /**
   * The subscription a request names, resolved against the contracts (R1/R2 carry their target_code). Starts
   * nothing. Throws NotFoundError for an unknown code and InvalidRequestError with a message naming the rule for
   * what the exchange has no stream of: Tick or BidAsk of an index, an option combo, intraday_odd other than a
   * stock's Tick or BidAsk.
   */
  resolve(input: SubscribeInput): QuoteSubscription;
  /** Starts delivering the subscription's events; a no-op when it is already delivered. */
  subscribe(subscription: QuoteSubscription): void;
  unsubscribe(subscription: QuoteSubscription): void;
  /** Calls the listener for every market-data event of every subscription; returns the function that stops it. */
  onMarketEvent(listener: (event: MarketEvent) => void): () => void;
}

export interface Broker {
  readonly simulation: boolean;
  /** A short description of the clock that drives the backend, e.g. 'always-open'. */
  readonly clockMode: ClockMode;
  /** The backend's time: the simulated clock, or the wall clock in production. */
  readonly clock: Clock;
  readonly contracts: ContractsPort;
  readonly accounts: AccountsPort;
  readonly marketData: MarketDataPort;
  readonly orders: OrdersPort;
  readonly portfolio: PortfolioPort;
  readonly quotes: QuotesPort;
  close(): Promise<void>;
}
