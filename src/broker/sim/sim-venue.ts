// The simulator as a venue, and its entry point: a thin adapter that gives the gateway the simulated exchange
// (SimBroker) through the asynchronous venue port. Everything it does happens in the exchange's parts; this file only
// translates.

import { simulatedCaExpiry } from '../../domain/account-book.js';
import { isStockTradingHours } from '../../domain/sessions.js';
import { taipeiInstant } from '../../domain/time.js';
import type {
  AccountsPort,
  ContractsPort,
  MarketDataPort,
  OrdersPort,
  PortfolioPort,
  QuoteFeedPort,
  ReservePort,
  Venue,
  VenueIdentity,
} from '../port.js';
import { savedRecord } from './orders/saved-orders.js';
import { EXPIRY_SETTLEMENTS_STATE } from './portfolio/expiry-settlement.js';
import { earliestDayAt, fromCheckpoint, ledgerCheckpoint } from './portfolio/ledger-checkpoint.js';
import { promised } from './promised.js';
import { RESERVES_STATE } from './reserve/reserve-book.js';
import { SimBroker, type SimBrokerOptions } from './sim-broker.js';

export class SimVenue implements Venue {
  readonly identity: VenueIdentity;
  readonly clock: SimBroker['clock'];
  readonly contracts: ContractsPort;
  readonly accounts: AccountsPort;
  readonly marketData: MarketDataPort;
  readonly orders: OrdersPort;
  readonly portfolio: PortfolioPort;
  readonly reserve: ReservePort;
  readonly quotes: QuoteFeedPort;

  /** The simulated exchange behind the port, for what only a simulator has (its feed, its clock-driven sync). */
  readonly exchange: SimBroker;

  constructor(options: SimBrokerOptions) {
    const exchange = new SimBroker(options);
    this.exchange = exchange;
    const mode = exchange.clockMode;
    this.identity = {
      venue: 'simulator',
      simulation: true,
      simClock: mode,
      isStockTradingHours: (at) => isStockTradingHours(mode, at),
    };
    this.clock = exchange.clock;
    const { contracts, orders, quotes } = exchange;
    const expiry = exchange.portfolio.expiry!;
    this.contracts = {
      ...promised(contracts, [
        'get',
        'info',
        'list',
        'futuresRoots',
        'futures',
        'optionRoots',
        'options',
        'warrants',
        'warrantUnderlyings',
        'createCombo',
        'futuresCombos',
        'tickBandRule',
        'count',
      ]),
      onContractEvent: (listener) => contracts.onContractEvent(listener),
      listing: () => contracts.current(),
    };
    this.accounts = {
      ...promised(exchange.accounts, ['list', 'resolve', 'defaultAccount', 'setDefault']),
      caExpireTime: async (personId) => {
        exchange.accounts.requirePerson(personId);
        return simulatedCaExpiry(exchange.clock.now());
      },
    };
    this.marketData = {
      ...promised(exchange.marketData, [
        'ticks',
        'kbars',
        'snapshots',
        'scanner',
        'creditEnquire',
        'shortStockSources',
        'punish',
        'notice',
        'dailyQuotes',
      ]),
      indexComponents: async (index) => exchange.indexSnapshots.indexComponents(index),
    };
    this.orders = {
      ...promised(orders, [
        'place',
        'cancel',
        'updatePrice',
        'updateQty',
        'trade',
        'trades',
        'placeCombo',
        'cancelCombo',
        'comboTrades',
      ]),
      onOrderUpdate: (listener) => orders.onOrderUpdate(listener),
      tradesVersion: () => orders.sync(),
      savedTrade: (saved) => savedRecord(saved)?.trade,
      checkpoint: () => {
        const earliestDay = earliestDayAt(exchange.market, exchange.clock.now());
        return ledgerCheckpoint(orders.ledger, expiry.settledCount, earliestDay);
      },
      // A finished order matters to the book only on its trading day (OrderBook.isLive): the earliest day any
      // market is on now, or the day before it (earliestDayAt), from midnight, holds them all.
      neededSince: (now) => taipeiInstant(earliestDayAt(exchange.market, now)),
      restore: (given, options) => {
        // The ledger's checkpoint holds the deals journaled before it: only the later ones are booked again.
        const earliestDay = earliestDayAt(exchange.market, exchange.clock.now());
        exchange.portfolio.archive = given.archive;
        orders.ledger.storedLots.read = given.lots;
        const {
          saved,
          inCheckpoint,
          fromCheckpoint: restored,
        } = fromCheckpoint(given, orders.ledger, options.log, earliestDay);
        // What was settled at expiry is kept as a named value with the orders' state, and booked between the deals.
        const settleBefore = expiry.restore(saved.state(EXPIRY_SETTLEMENTS_STATE), options.log, inCheckpoint);
        orders.restore(saved, options, settleBefore, restored);
        // The reserves are kept as a named value with the orders' state.
        exchange.reserves.restore(saved.state(RESERVES_STATE), options.log);
      },
    };
    this.portfolio = {
      ...promised(exchange.portfolio, [
        'accountBalance',
        'margin',
        'positions',
        'positionDetail',
        'profitLoss',
        'profitLossDetail',
        'profitLossSummary',
        'settlements',
        'tradingLimits',
      ]),
      onSettlement: (listener) => expiry.listen(listener),
    };
    this.reserve = {
      ...promised(exchange.reserve, ['summary', 'detail', 'earmarkingDetail', 'reserveStock', 'reserveEarmarking']),
      onStateChange: (listener) => exchange.reserves.onStateChange(listener),
    };
    const { scanner } = exchange;
    this.quotes = {
      ...promised(quotes, ['resolve', 'subscribe', 'unsubscribe']),
      onMarketEvent: (listener) => {
        const stops = [quotes.onMarketEvent(listener), scanner.onMarketEvent(listener)];
        return () => {
          for (const stop of stops) stop();
        };
      },
      subscribeScanner: async (subscription) => scanner.subscribe(subscription),
      unsubscribeScanner: async (subscription) => scanner.unsubscribe(subscription),
    };
  }

  start(): void {
    this.exchange.start();
  }

  close(): Promise<void> {
    return this.exchange.close();
  }
}
