// The gateway: one venue behind the services every venue needs. The server talks to this and never to a venue: the
// venue's queries pass through, orders go through the OrderDesk (idempotency, durable answers), and every change
// of an order the venue reports is journaled before its events are published with their sequence numbers.

import type {
  AccountsPort,
  ContractsPort,
  MarketDataPort,
  PortfolioPort,
  QuoteFeedPort,
  UpstreamState,
  Usage,
  Venue,
  VenueIdentity,
} from '../broker/port.js';
import { type AccountSelector, accountKeyOf } from '../domain/accounts.js';
import type { Clock } from '../domain/time.js';
import { Journal, type OrderPageQuery } from '../store/journal.js';
import { DAILY_CHECKPOINT_CHECK_MS, onEachNewDay } from './daily-checkpoint.js';
import { OrderDesk } from './order-desk.js';
import { type JournaledOrderEvent, keepCheckpoint, OrderJournal } from './order-journal.js';
import { RateGovernor } from './rate-governor.js';
import { TodaysTrades } from './todays-trades.js';
import { type TradeJson, TradeWire } from './trade-wire.js';
import { DAILY_LIMIT_BYTES, DailyTraffic } from './traffic.js';
import type { VenueCalls } from './venue-calls.js';
import { Watchlists } from './watchlists.js';

export type { SubscribeInput, UpstreamState } from '../broker/port.js';
export type { PlaceComboRequest, PlaceOrderRequest } from './order-desk.js';
export type { JournaledOrderEvent } from './order-journal.js';
export type { VenueCall, VenueCalls } from './venue-calls.js';
export type { Watchlist } from './watchlists.js';

export interface GatewayOptions {
  /** The SQLite journal of orders, deals and events; in memory (lost at exit) when omitted. */
  journalPath?: string | undefined;
  /** Where the gateway reports what the operator should know (a journal row it could not load); stderr by default. */
  log?: ((line: string) => void) | undefined;
  /** Where the calls to the venue are measured (the monitor listens there); not measured at all without. */
  venueCalls?: VenueCalls | undefined;
  /** How often the gateway looks for a new Taiwan day on the venue's clock, to keep a checkpoint then; 60 s. */
  dailyCheckpointCheckMs?: number | undefined;
  /**
   * How the server writes a Trade as JSON: the journal keeps each finished order's, and older trades are paged as
   * those bytes. Without it, pages of older trades cannot be asked for (the server always gives it).
   */
  tradeJson?: TradeJson | undefined;
}

/** Order events as they are journaled: replay after a sequence number, and every new one as it commits. */
export interface OrderEventLog {
  /** Order and deal events after a sequence number (0 = from the start), oldest first. */
  after(seq: number, limit?: number): JournaledOrderEvent[];
  /** The sequence of the newest order or deal event journaled (0 before the first). */
  lastSeq(): number;
  /** Calls the listener for every order and deal event after it is journaled; returns the function that stops it. */
  listen(listener: (event: JournaledOrderEvent) => void): () => void;
}

export interface GatewayAccounts extends AccountsPort {
  usage(): Promise<Usage>;
}

export class Gateway {
  readonly identity: VenueIdentity;
  readonly clock: Clock;
  readonly contracts: ContractsPort;
  readonly marketData: MarketDataPort;
  readonly portfolio: PortfolioPort;
  readonly quotes: QuoteFeedPort;
  readonly accounts: GatewayAccounts;
  readonly orders: OrderDesk;
  readonly orderEvents: OrderEventLog;
  /** The person's lists of contracts, kept in the journal. */
  readonly watchlists: Watchlists;
  /** Bytes of ticks, kbars and snapshots answers today, against the daily limit. */
  readonly traffic: DailyTraffic;
  /** Production's call-rate limits, counted for every venue alike. */
  readonly rates: RateGovernor;
  /** The journal behind the order events (read by tests; the server goes through orders and orderEvents). */
  readonly journal: Journal;
  /** Writes what is queued now (at close, and for tests that read the journal). */
  readonly flushJournal: () => void;
  /** Resolves once every change reported so far is in the journal; rejects if writing it failed. */
  readonly durable: () => Promise<void>;
  /** Stops listening to the venue, closes it, and writes what is queued before the journal closes. */
  readonly close: () => Promise<void>;

  private constructor(
    private readonly venue: Venue,
    options: GatewayOptions,
  ) {
    const log = options.log ?? ((line: string) => console.error(line));
    this.identity = venue.identity;
    this.clock = venue.clock;
    const calls = options.venueCalls;
    const metered = <T extends object>(port: string, target: T) => (calls ? calls.meter(port, target) : target);
    this.contracts = metered('contracts', venue.contracts);
    this.marketData = metered('marketData', venue.marketData);
    this.portfolio = metered('portfolio', venue.portfolio);
    this.quotes = metered('quotes', venue.quotes);
    this.traffic = new DailyTraffic(venue.clock, DAILY_LIMIT_BYTES);
    this.rates = new RateGovernor(venue.identity);
    this.accounts = accountsWithUsage(metered('accounts', venue.accounts), this.traffic);
    this.journal = Journal.open(options.journalPath ?? ':memory:');
    const leftOut = (row: string, reason: string) => log(`journal: ${row} left out at load: ${reason}`);
    // A checkpoint is handed only to a venue that writes them (another venue on the same journal needs every deal).
    const checkpointed = venue.orders.checkpoint !== undefined;
    const neededSince = (now: number) => venue.orders.neededSince?.(now) ?? now - RECENT_ORDERS_MS;
    const tradeWire = new TradeWire(this.journal, (saved) => venue.orders.savedTrade(saved));
    if (options.tradeJson) tradeWire.writeWith(options.tradeJson);
    const orderJournal = new OrderJournal(this.journal, {
      onFailedCommit: () =>
        venue.orders.restore(
          orderJournal.load(() => undefined, neededSince(venue.clock.now()), checkpointed),
          { rollback: true, log: () => undefined },
        ),
      finishedTradeJson: (record, deals) => tradeWire.ofFinished(record, deals),
    });
    const saved = orderJournal.load(leftOut, neededSince(venue.clock.now()), checkpointed);
    venue.orders.restore(saved, { rollback: false, log });
    const checkpoint = () => keepVenueCheckpoint(this.journal, venue, log);
    checkpoint();
    // The queued changes are written first: a checkpoint covers what the journal holds.
    const stopDailyCheckpoints = onEachNewDay(
      venue.clock,
      () => {
        orderJournal.flushQuietly();
        checkpoint();
      },
      options.dailyCheckpointCheckMs ?? DAILY_CHECKPOINT_CHECK_MS,
    );
    const stopUpdates = venue.orders.onOrderUpdate((update) => orderJournal.queueUpdate(update));
    const stopReserves = venue.reserve.onStateChange?.((state) => orderJournal.queueUpdate({ state }));
    const stopSettlements = venue.portfolio.onSettlement?.((update) => {
      orderJournal.queueUpdate({ state: update.state, ledger: update.ledger });
      for (const s of update.settlements) {
        log(
          `expiry: ${s.accountKey} ${s.code} ${s.direction} ${s.quantity} settled on ${s.day} at ${s.coverPrice} ` +
            `(final settlement price ${s.finalPrice}), NT$${s.amount}`,
        );
      }
    });
    const stopListening = () => {
      stopDailyCheckpoints();
      stopUpdates();
      stopReserves?.();
      stopSettlements?.();
    };
    const orders = metered('orders', venue.orders);
    const accountKey = async (account: AccountSelector) => accountKeyOf(await this.accounts.resolve(account));
    const tradeLists = {
      page: (query: OrderPageQuery) => {
        orderJournal.flushQuietly();
        return tradeWire.pageJson(this.journal.orders.page(query));
      },
      today: new TodaysTrades(orders, accountKey, options.tradeJson),
    };
    const reserve = metered('reserve', venue.reserve);
    this.orders = new OrderDesk(orders, orderJournal, venue.clock, reserve, this.accounts, tradeLists);
    this.orderEvents = {
      after: (seq, limit) => orderJournal.eventsAfter(seq, limit),
      lastSeq: () => orderJournal.lastEventSeq(),
      listen: (listener) => orderJournal.onOrderEvent(listener),
    };
    this.watchlists = new Watchlists(this.journal, venue.contracts, venue.accounts, venue.clock);
    this.flushJournal = () => orderJournal.flush();
    this.durable = () => orderJournal.durable();
    this.close = async () => {
      stopListening();
      await venue.close();
      try {
        this.flushJournal();
        checkpoint();
      } finally {
        this.journal.close();
      }
    };
  }

  /**
   * Opens the journal, hands the venue back what it holds, and listens to the venue's order updates. The venue is
   * not started: call start() once the server is ready.
   */
  static open(venue: Venue, options: GatewayOptions = {}): Gateway {
    return new Gateway(venue, options);
  }

  start(): void {
    this.venue.start();
  }

  /** The live venue's session upstream; null in simulation. */
  upstream(): UpstreamState | null {
    return this.venue.upstream ? this.venue.upstream() : null;
  }
}

/** The venue's accounts, with the gateway's traffic count when the venue keeps none of its own. */
function accountsWithUsage(accounts: AccountsPort, traffic: DailyTraffic): GatewayAccounts {
  return {
    list: () => accounts.list(),
    resolve: (selector) => accounts.resolve(selector),
    defaultAccount: (type) => accounts.defaultAccount(type),
    setDefault: (selector) => accounts.setDefault(selector),
    caExpireTime: (personId) => accounts.caExpireTime(personId),
    usage: () => (accounts.usage ? accounts.usage() : Promise.resolve(traffic.usage())),
  };
}

/**
 * Orders that changed within this long are handed back at start even when finished without deals, unless the venue
 * says since when it needs them: longer than any trading day stays open, including a night session before a long
 * holiday (Lunar New Year closes about ten days).
 */
const RECENT_ORDERS_MS = 21 * 86_400_000;

/** Keeps the venue's derived state in the journal; one that cannot be written costs only a longer next start. */
function keepVenueCheckpoint(journal: Journal, venue: Venue, log: (line: string) => void): void {
  if (!venue.orders.checkpoint) return;
  try {
    const taken = venue.orders.checkpoint();
    keepCheckpoint(journal, taken, Math.round(venue.clock.now()));
    taken.kept();
  } catch (error) {
    log(`journal: the venue's checkpoint was not written: ${(error as Error).message}`);
  }
}
