// The venue port: what the gateway (src/gateway) asks of a trading venue, and what a venue reports back. The built-in
// simulator (broker/sim) implements it; the bridge to SinoPac's official SDK (broker/shioaji) is the next venue.
//
// Every query and command is asynchronous, so a venue may answer over the network. What every venue needs but no
// venue should write again lives in the gateway: the journal, idempotency, durability, the event sequence behind
// Last-Event-ID, subscriptions, traffic metering and rate limits. A venue only reports: each change of an order as
// an OrderUpdate, each quote as a MarketEvent, each contract refresh as a ContractEvent.

import type { Account, AccountSelector, AccountType } from '../domain/accounts.js';
import type {
  ComboLegRequest,
  ContractQuery,
  FuturesQuery,
  OptionsQuery,
  WarrantsQuery,
} from '../domain/contract-directory.js';
import type {
  ComboContract,
  ComboType,
  Contract,
  ContractEvent,
  ContractInfo,
  FuturesInfo,
  OptionInfo,
  Region,
  RootName,
  SecurityType,
  TickBandRule,
  WarrantInfo,
  WarrantUnderlying,
} from '../domain/contracts.js';
import type { IndexComponents } from '../domain/index-components.js';
import type { ContributionRanking, ProjectionRequest } from '../domain/index-projections.js';
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
import type {
  Action,
  ComboTrade,
  Deal,
  FuturesOrderInput,
  OrderEvent,
  OrderStatus,
  StockOrderInput,
  Trade,
} from '../domain/orders.js';
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
import type {
  EarmarkingResult,
  EarmarkStocksDetail,
  ReserveStockResult,
  ReserveStocksDetail,
  ReserveStocksSummary,
} from '../domain/reserve.js';
import type { ScannerSubscription } from '../domain/scanner-rules.js';
import type { ClockMode } from '../domain/sessions.js';
import type { Clock } from '../domain/time.js';

// The contract queries belong to the domain's contract directory, which answers them for any venue.
export type { ComboLegRequest, ContractQuery, FuturesQuery, OptionsQuery, WarrantsQuery };

export interface ContractsPort {
  /** Rejects with NotFoundError for an unknown or expired code. */
  get(code: string, query?: ContractQuery): Promise<Contract>;
  info(code: string, query?: ContractQuery): Promise<ContractInfo>;
  list(securityType: SecurityType, region?: Region): Promise<Contract[]>;
  futuresRoots(region?: Region): Promise<RootName[]>;
  futures(query: FuturesQuery): Promise<FuturesInfo[]>;
  optionRoots(region?: Region): Promise<RootName[]>;
  options(query: OptionsQuery): Promise<OptionInfo[]>;
  warrants(query: WarrantsQuery): Promise<WarrantInfo[]>;
  warrantUnderlyings(region?: Region): Promise<WarrantUnderlying[]>;
  /** Rejects with InvalidRequestError with the Shioaji message for every construction rule. */
  createCombo(legs: ComboLegRequest[], comboType?: ComboType): Promise<ComboContract>;
  futuresCombos(root: string, region?: Region): Promise<ComboContract[]>;
  tickBandRule(rule: string, securityType: 'FUT' | 'OPT', region?: Region): Promise<TickBandRule>;
  /** How many contracts are loaded now. */
  count(): Promise<number>;
  /** The current listing: a new object whenever get or info may answer otherwise (a cache key, never read). */
  listing(): object;
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
  /** Rejects with InvalidRequestError naming a missing field (time_start/time_end, last_cnt). */
  ticks(query: TicksQuery): Promise<Ticks>;
  /** Rejects with InvalidRequestError when the range is reversed or longer than 30 days. */
  kbars(query: KbarsQuery): Promise<Kbars>;
  snapshots(instruments: InstrumentRef[]): Promise<Snapshot[]>;
  scanner(query: ScannerQuery): Promise<ScannerItem[]>;
  creditEnquire(contracts: ContractRef[]): Promise<CreditEnquire[]>;
  shortStockSources(contracts: ContractRef[]): Promise<ShortStockSource[]>;
  punish(): Promise<Punish>;
  notice(): Promise<Notice>;
  dailyQuotes(date: string | undefined, excludeWarrants: boolean): Promise<DailyQuotes>;
  /**
   * The components of IX0001 or IX0043 now, with their weights, points and industry groups. Rejects with
   * InvalidRequestError for any other contract and NotFoundError for an unknown code.
   */
  indexComponents(index: ContractRef): Promise<IndexComponents>;
}

export interface AccountsPort {
  list(): Promise<Account[]>;
  /** The account a selector names, or the default of its type; rejects with NotFoundError. */
  resolve(selector: AccountSelector): Promise<Account>;
  defaultAccount(type: AccountType): Promise<Account>;
  setDefault(selector: AccountSelector): Promise<Account>;
  /** The venue's own count of today's query traffic, when it keeps one (SinoPac does); else the gateway meters it. */
  usage?(): Promise<Usage>;
  /** When the person's signing certificate expires (ISO 8601); NotFoundError for a person of no account. */
  caExpireTime(personId: string): Promise<string>;
}

export interface PlaceOrderInput {
  /** `{code}` alone is enough: the security type and exchange are resolved from the catalog. */
  contract: ContractRef;
  /** Exactly one of the two, as the body's `stock_order` or `futures_order`. */
  stockOrder?: StockOrderInput | undefined;
  futuresOrder?: FuturesOrderInput | undefined;
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
}

/** A deal of an order, as the venue reports it: one per leg and fill for a combo. */
export interface ReportedDeal {
  code: string;
  action: Action;
  deal: Deal;
}

/** The rows an order's deals added to a venue's own books (the simulator's ledger); kept for audit, never read back. */
export interface LedgerRows {
  cash: {
    accountKey: string;
    at: number;
    amount: number;
    reason: string;
    ref: string | null;
    settleDate: string | null;
  }[];
  positions: { accountKey: string; key: string; record: unknown }[];
}

/**
 * One change of one order or combo, as a venue reports it: the order as it is now, every deal so far, and the order
 * events the change made. The gateway journals the updates of one turn of the event loop together, then publishes
 * their events; an update is never lost once its command was acknowledged.
 */
export interface OrderUpdate {
  order: { id: string; accountKey: string; code: string; placedAt: number };
  status: { status: OrderStatus; msg: string };
  /** The venue's own state of the order, read when the update is written; handed back by `restore`. */
  record: () => unknown;
  deals: ReportedDeal[];
  events: OrderEvent[];
  ledger: LedgerRows[];
  /** The order is new: nothing of it was reported before. */
  placed: boolean;
  /** Epoch milliseconds of the venue's clock. */
  at: number;
  /** Small named values the venue keeps with its orders (the simulator's order counter); the last one wins. */
  state?: Record<string, string> | undefined;
}

/** A position a venue cash-settled when its contract expired (the simulator's ledger); journaled, never re-settled. */
export interface SettledPosition {
  accountKey: string;
  code: string;
  /** The last trading day, 'YYYY-MM-DD'. */
  day: string;
  /** Epoch ms the contract stopped trading. */
  at: number;
  /** Epoch ms of the venue's clock when it settled: the deals it had booked by then came before it. */
  bookedAt: number;
  /** The final settlement price of the underlying. */
  finalPrice: number;
  /** What each contract closed at: the final price (futures), the intrinsic value (options; 0 out of the money). */
  coverPrice: number;
  quantity: number;
  direction: Action;
  securityType: 'FUT' | 'OPT';
  /** NT$ added to the account's balance, after fee and tax. */
  amount: number;
  profitLossId: number;
}

/**
 * Positions settled at expiry as a venue reports them, with the ledger rows they booked and the named values it keeps
 * (SavedOrders.state hands them back: how a venue knows what it settled before a restart); journaled like an order.
 */
export interface SettlementUpdate {
  settlements: SettledPosition[];
  ledger: LedgerRows[];
  state: Record<string, string>;
  /** Epoch milliseconds of the venue's clock. */
  at: number;
}

/** One order as the journal keeps it: the venue's record and its deals, oldest first. */
export interface SavedOrder {
  record: unknown;
  deals: { seq: number; record: unknown }[];
}

/** What the gateway kept of a venue's orders, handed back at start and after a write that failed. */
export interface SavedOrders {
  orders: { id: string; status: string; record: unknown }[];
  /** `covered`: the checkpoint handed back holds the deal already (booked before it was taken). */
  deals: { orderId: string; seq: number; code: string; record: unknown; covered?: boolean }[];
  state: (name: string) => string | undefined;
  /** One order with its deals (oldest first), read back by id when asked; undefined for an id the journal lacks. */
  order?: (id: string) => SavedOrder | undefined;
  /** Orders by id (of an account, when given) with their deals, in the journal's order; ids it lacks are left out. */
  ordersById?: (ids: readonly string[], accountKey?: string) => SavedOrder[];
  /** Whether the journal holds an order of this id (written already), without reading it. */
  holds?: (id: string) => boolean;
  /**
   * The venue's state derived from the deals before it (`before`: epoch ms after the last one's), as `orders.checkpoint`
   * last gave it, when the journal still holds those deals. A venue that uses it books only deals not `covered`.
   */
  checkpoint?:
    | {
        before: number;
        state: string;
        /** Every order with deals and every deal (only those needed past it are handed back with it). */
        everything: () => SavedOrders;
      }
    | undefined;
  /** Rows of derived history a venue moved out of its memory at its checkpoints, read back per query. */
  archive?: ArchiveReader | undefined;
  /** A position's open lots as the last checkpoint kept them (CheckpointLots): the bodies, oldest lots first. */
  lots?: ((accountKey: string, positionId: number) => string[]) | undefined;
}

/** A row of derived history a venue moved out of memory: opaque text, numbered per account in time order. */
export type ArchivedRow = { accountKey: string; id: number; date: string; body: string };

/** An account's archived rows with ids up to `through` (rows beyond it were never kept): by date range, or by id. */
export interface ArchiveReader {
  within(accountKey: string, begin: string, end: string, through: number): string[];
  byId(accountKey: string, id: number, through: number): string | undefined;
}

/** Open lots to keep with a checkpoint: the positions open, and lots from `firstLot` on (0 replaces them all). */
export type CheckpointLots = {
  accountKey: string;
  openPositionIds: number[];
  written: { positionId: number; firstLot: number; body: string }[];
};

/** A checkpoint's state, with rows to archive and lots to keep in its transaction; `kept` once all are committed. */
export type VenueCheckpoint = { state: string; archive: ArchivedRow[]; lots?: CheckpointLots[]; kept(): void };

export interface OrdersPort {
  /**
   * Places an order. A request that breaks an exchange or broker rule comes back as a Trade with status Failed and
   * the Shioaji message in status.msg. Rejects with InvalidRequestError for a malformed request (both or neither
   * order object, a stock order for a futures contract, a bad custom_field) and NotFoundError for an unknown code.
   */
  place(input: PlaceOrderInput): Promise<Trade>;
  /** Any order of any account, placed before or after a restart. Rejects with NotFoundError for an unknown trade id. */
  cancel(tradeId: string): Promise<Trade>;
  updatePrice(tradeId: string, price: number): Promise<Trade>;
  /** Reduces the order by `quantity` (how many to cancel, as the official server reads it); it keeps its price and queue position. */
  updateQty(tradeId: string, quantity: number): Promise<Trade>;
  /** One order as it is now; undefined for an id the venue does not know. */
  trade(tradeId: string): Promise<Trade | undefined>;
  /** The trades of one account, or of every account when no selector is given; oldest first. */
  trades(account?: AccountSelector): Promise<Trade[]>;
  /** Changes when trades() may list otherwise (an order's change, a new day, a restore); syncs as trades() does. */
  tradesVersion?(): number;
  /** Reads the orders back from the exchange (update_status); a venue always current (the simulator) has none. */
  refresh?(): Promise<void>;
  /** Places a combo; rule breaks come back as a Failed ComboTrade, malformed legs as InvalidRequestError. */
  placeCombo(input: PlaceComboInput): Promise<ComboTrade>;
  cancelCombo(tradeId: string): Promise<ComboTrade>;
  comboTrades(account?: AccountSelector): Promise<ComboTrade[]>;
  /**
   * Calls the listener for every change of an order, synchronously while the command or the market move that made
   * it runs, so an update always reaches the gateway before the command's answer. Returns the function that stops it.
   */
  onOrderUpdate(listener: (update: OrderUpdate) => void): () => void;
  /**
   * Puts back the orders the gateway kept: at start, and after a write failed (`rollback`), when every change since
   * the last good write did not happen. A venue that keeps no state of its own reconciles or ignores them.
   */
  restore(saved: SavedOrders, options: { rollback: boolean; log: (line: string) => void }): void;
  /**
   * The Trade one of this venue's journaled orders holds, with its deals; undefined for a combo (listed by
   * comboTrades) or a record it cannot read. The gateway pages older trades out of the journal with it.
   */
  savedTrade(saved: SavedOrder): Trade | undefined;
  /**
   * The venue's state derived from every deal it booked (opaque text), which the gateway keeps in the journal after
   * the start's restore and at close, after the last commit, and hands back in SavedOrders.checkpoint so that a
   * restart books only the deals after it; its rows to archive come back in SavedOrders.archive. Optional.
   */
  checkpoint?(): VenueCheckpoint;
  /** Since when (epoch ms) a finished order without later deals is handed back at start; 21 days before by default. */
  neededSince?(now: number): number;
}

/**
 * Account queries. Each takes the request's account selector; ids omitted mean the default account of the selector's
 * account_type (S when absent, F for margin). Rejects with NotFoundError for an unknown account or detail_id, and
 * InvalidRequestError for an account of the wrong type (margin of a stock account) or a reversed date range.
 */
export interface PortfolioPort {
  /**
   * Calls the listener, synchronously while the clock or a request moves the venue past an expiry, for positions it
   * cash-settled; a venue whose broker settles upstream has none. Returns the function that stops it.
   */
  onSettlement?(listener: (update: SettlementUpdate) => void): () => void;
  accountBalance(account: AccountSelector): Promise<AccountBalance>;
  margin(account: AccountSelector): Promise<Margin>;
  positions(account: AccountSelector, unit: PositionUnit): Promise<StockPosition[] | FuturePosition[]>;
  positionDetail(account: AccountSelector, detailId: number): Promise<StockPositionDetail[] | FuturePositionDetail[]>;
  profitLoss(
    account: AccountSelector,
    range: DateRange,
    unit: PositionUnit,
  ): Promise<StockProfitLoss[] | FutureProfitLoss[]>;
  profitLossDetail(
    account: AccountSelector,
    detailId: number,
    unit: PositionUnit,
  ): Promise<StockProfitDetail[] | FutureProfitDetail[]>;
  profitLossSummary(account: AccountSelector, range: DateRange): Promise<ProfitLossSummary>;
  settlements(account: AccountSelector): Promise<Settlement[]>;
  tradingLimits(account: AccountSelector): Promise<TradingLimits>;
}

export interface ReserveStockInput {
  account: AccountSelector;
  /** A stock: `{code}` is enough. */
  contract: ContractRef;
  share: number;
}

export interface ReserveEarmarkingInput extends ReserveStockInput {
  price: number;
}

/**
 * Share and cash pre-collection (預收券款) of a stock account. Rejects with NotFoundError for an unknown account or
 * code, InvalidRequestError for a futures account, a contract that is not a stock or a share or price out of range.
 * A request the broker refuses (more than is held or than the cash) answers status false with the reason in info.
 */
export interface ReservePort {
  summary(account: AccountSelector): Promise<ReserveStocksSummary>;
  detail(account: AccountSelector): Promise<ReserveStocksDetail>;
  earmarkingDetail(account: AccountSelector): Promise<EarmarkStocksDetail>;
  reserveStock(input: ReserveStockInput): Promise<ReserveStockResult>;
  reserveEarmarking(input: ReserveEarmarkingInput): Promise<EarmarkingResult>;
  /**
   * Calls the listener, synchronously while a request runs, with the named values the venue keeps of its reserves;
   * the gateway journals them with the orders' state and hands them back to `orders.restore` in SavedOrders.state.
   * A venue whose reserves are kept upstream has none.
   */
  onStateChange?(listener: (state: Record<string, string>) => void): () => void;
}

export interface SubscribeInput {
  /** A product (`{code}` is enough; security_type and exchange narrow it) or a futures combo by its two legs. */
  contract: ContractRef | ComboRef;
  quoteType: QuoteType;
  intradayOdd: boolean;
  /** IndexContribution: which ranking of the components. */
  ranking?: ContributionRanking | undefined;
  /** IndexComponents: which projection of the components or their groups. */
  projection?: ProjectionRequest | undefined;
}

/**
 * The quote feed. The gateway keeps the list of subscriptions (the limit, persistence, restore); the venue resolves
 * requests and delivers the events of what is subscribed.
 */
export interface QuoteFeedPort {
  /**
   * The subscription a request names, resolved against the contracts (R1/R2 carry their target_code). Starts
   * nothing. Rejects with NotFoundError for an unknown code and InvalidRequestError with a message naming the rule
   * for what the exchange has no stream of: Tick or BidAsk of an index, an option combo, intraday_odd other than a
   * stock's Tick or BidAsk.
   */
  resolve(input: SubscribeInput): Promise<QuoteSubscription>;
  /** Starts delivering the subscription's events; a no-op when it is already delivered. */
  subscribe(subscription: QuoteSubscription): Promise<void>;
  unsubscribe(subscription: QuoteSubscription): Promise<void>;
  /** Calls the listener for every market-data event of every subscription; returns the function that stops it. */
  onMarketEvent(listener: (event: MarketEvent) => void): () => void;
  /**
   * Starts delivering a market scanner's events (`scanner`, through onMarketEvent): a rule or state over one
   * exchange's stocks. A no-op when it is already delivered.
   */
  subscribeScanner(subscription: ScannerSubscription): Promise<void>;
  unsubscribeScanner(subscription: ScannerSubscription): Promise<void>;
}

/** What a venue says of itself, for /health and the dashboard. */
export interface VenueIdentity {
  /** Who answers: the built-in simulator, or SinoPac through its SDK. */
  venue: 'simulator' | 'shioaji';
  /** No real money: the simulator, or SinoPac's own simulation environment. */
  simulation: boolean;
  /** The simulator's clock mode; null for a live venue, which follows the exchange's own hours. */
  simClock: ClockMode | null;
  /** Whether stocks trade at an instant, for the call-rate limits of trading hours. */
  isStockTradingHours(at: number): boolean;
}

/** A live venue's session upstream, as /health shows it (the official server's health fields among them). */
export interface UpstreamState {
  status: 'starting' | 'connected' | 'reconnecting' | 'down' | 'closed';
  environment: 'production' | 'simulation';
  sdk: string | null;
  bridge: string | null;
  /** A scripted stand-in for SinoPac (tests): nothing reaches SinoPac. */
  scripted: boolean;
  sidecar_pid: number | null;
  logged_in_at: string | null;
  logins_today: number;
  restarts: number;
  session_drops: number;
  silent_recoveries: number;
  last_error: string | null;
  last_error_hint: string | null;
  ca_expires_at: string | null;
  last_quote_at: string | null;
  last_maintenance: string | null;
  next_maintenance: string | null;
  last_maintenance_error: string | null;
}

export interface Venue {
  readonly identity: VenueIdentity;
  /** The venue's time: the simulated clock, or the wall clock of a live venue. */
  readonly clock: Clock;
  readonly contracts: ContractsPort;
  readonly accounts: AccountsPort;
  readonly marketData: MarketDataPort;
  readonly orders: OrdersPort;
  readonly portfolio: PortfolioPort;
  readonly reserve: ReservePort;
  readonly quotes: QuoteFeedPort;
  /** Starts the venue's own timers or connections, after `orders.restore`. */
  start(): void;
  /** A live venue's session upstream; absent in a venue that has none (the simulator). */
  upstream?(): UpstreamState;
  close(): Promise<void>;
}
