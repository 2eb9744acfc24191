// The simulated exchange: its catalog, market, order desk, accounts and books, deterministic for a seed and a clock.
// SimVenue gives it to the gateway through the venue port.

import { type ClockMode, nextListingRefresh } from '../../domain/sessions.js';
import type { Clock } from '../../domain/time.js';
import { SimAccounts } from './accounts.js';
import type { ReferencePrices } from './catalog/references.js';
import { SimContracts } from './contracts.js';
import { IndexSnapshots } from './index-snapshot.js';
import { MarketFeed } from './market/feed.js';
import { SimMarket } from './market/market.js';
import { SimMarketData } from './market-data.js';
import { SimOrders } from './orders/sim-orders.js';
import { ExpirySettlements } from './portfolio/expiry-settlement.js';
import { DEFAULT_STARTING_FUNDS, type LedgerOptions } from './portfolio/ledger.js';
import { SimPortfolio } from './portfolio/sim-portfolio.js';
import { portfolioMarket } from './portfolio-market.js';
import { SimQuotes } from './quotes/sim-quotes.js';
import { ReserveBook } from './reserve/reserve-book.js';
import { SimReserve } from './reserve/sim-reserve.js';
import { SimScanner } from './scanner/sim-scanner.js';

export interface SimBrokerOptions {
  clock: Clock;
  seed: number;
  clockMode: ClockMode;
  apiKey: string | null;
  /** The references of each listing day; the simulated market's closes by default. */
  prices?: (day: string) => ReferencePrices;
  /** What new accounts start with; DEFAULT_STARTING_FUNDS when omitted. */
  startingFunds?: LedgerOptions | undefined;
}

/** How often orders are synced with the market and the refresh schedule is checked. */
const TICK_MS = 100;

export class SimBroker {
  readonly simulation = true;
  readonly clockMode: ClockMode;
  readonly clock: Clock;
  readonly contracts: SimContracts;
  readonly accounts: SimAccounts;
  readonly marketData: SimMarketData;
  readonly orders: SimOrders;
  readonly portfolio: SimPortfolio;
  /** Shares and cash pre-collected (預收券款) for the day. */
  readonly reserve: SimReserve;
  readonly reserves: ReserveBook;
  readonly market: SimMarket;
  /** What watched instruments trade as the clock moves (streams subscribe to it). */
  readonly feed: MarketFeed;
  /** Live quotes of the subscribed products, read off the feed. */
  readonly quotes: SimQuotes;
  /** IX0001 and IX0043 decomposed into their components now (POST /data/index_components). */
  readonly indexSnapshots: IndexSnapshots;
  /** The market scanner's rules over whole exchanges, stepped with the feed. */
  readonly scanner: SimScanner;

  private tickTimer: NodeJS.Timeout | null = null;
  /** When the next contract refresh is due (epoch ms of the clock). */
  private nextRefreshAt = Number.POSITIVE_INFINITY;

  constructor(options: SimBrokerOptions) {
    this.clock = options.clock;
    this.clockMode = options.clockMode;
    this.market = new SimMarket(options.seed, options.clockMode);
    this.feed = new MarketFeed(this.market, options.clock);
    const prices = options.prices ?? ((day: string) => this.market.referencesOn(day));
    const marketPrices = options.prices === undefined;
    this.contracts = new SimContracts(options.clock, options.seed, prices, options.clockMode, marketPrices);
    this.accounts = new SimAccounts(options.apiKey);
    this.marketData = new SimMarketData(this.market, this.contracts, options.clock);
    this.quotes = new SimQuotes(this.market, this.contracts, this.feed);
    this.indexSnapshots = new IndexSnapshots(this.market, this.contracts, options.clock);
    this.scanner = new SimScanner(this.market, options.clock);
    this.feed.onStep(() => this.scanner.step());
    this.reserves = new ReserveBook(() => this.market.dayAt('stock', this.clock.now()));
    this.orders = new SimOrders(
      this.market,
      this.contracts,
      this.accounts,
      options.clock,
      options.clockMode,
      options.startingFunds ?? DEFAULT_STARTING_FUNDS,
      this.reserves,
      (now) => expiry.settleDue(now),
    );
    const expiry = new ExpirySettlements(this.orders.ledger, this.accounts, this.market, options.clock);
    this.portfolio = new SimPortfolio(
      this.orders.ledger,
      this.accounts,
      portfolioMarket(this.market, this.contracts),
      options.clock,
      {
        clockMode: options.clockMode,
        reserves: this.reserves,
        beforeRead: () => this.orders.sync(),
        expiry,
      },
    );
    this.reserve = new SimReserve(this.reserves, this.orders.ledger, this.accounts, this.contracts, options.clock);
  }

  /**
   * Runs the feed that drives live quotes, the order sync and the contract refresh on the exchange schedule. The
   * refresh follows the clock rather than a timer set in advance, so it runs when the clock reaches a refresh time
   * however the clock got there (a simulated start, a host that slept, a test's manual clock).
   */
  start(): void {
    this.feed.start();
    this.nextRefreshAt = nextListingRefresh(this.clockMode, this.clock.now());
    this.tickTimer = setInterval(() => this.tick(), TICK_MS);
    this.tickTimer.unref();
  }

  private tick(): void {
    this.orders.sync();
    const now = this.clock.now();
    if (now < this.nextRefreshAt) return;
    this.nextRefreshAt = nextListingRefresh(this.clockMode, now);
    this.contracts.refresh();
  }

  async close(): Promise<void> {
    this.feed.stop();
    this.quotes.close();
    this.scanner.close();
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.tickTimer = null;
  }
}
