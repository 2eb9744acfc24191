// SinoPac as a venue, and the bridge's entry point: the official SDK in a supervised Python sidecar behind the same
// port as the simulator. Contracts are read once per session and answered here; everything else is a call away.

import { AccountBook } from '../../domain/account-book.js';
import type { Account } from '../../domain/accounts.js';
import type { ContractInfo } from '../../domain/contracts.js';
import { isStockTradingHours } from '../../domain/sessions.js';
import { type Clock, systemClock } from '../../domain/time.js';
import type {
  AccountsPort,
  MarketDataPort,
  PortfolioPort,
  ReservePort,
  UpstreamState,
  Venue,
  VenueIdentity,
} from '../port.js';
import { LiveContracts } from './live-contracts.js';
import { LiveOrders } from './live-orders.js';
import { liveMarketData, livePortfolio, liveReserve } from './live-queries.js';
import { LiveQuotes } from './live-quotes.js';
import { BridgeSession, type SessionOptions } from './session.js';
import { upstreamCaller } from './upstream.js';

export { UpstreamStartError } from './session.js';

export type ShioajiVenueOptions = Omit<SessionOptions, 'expectQuotes'> & { clock?: Clock | undefined };

export class ShioajiVenue implements Venue {
  readonly identity: VenueIdentity;
  readonly clock: Clock;
  readonly accounts: AccountsPort;
  readonly marketData: MarketDataPort;
  readonly portfolio: PortfolioPort;
  readonly reserve: ReservePort;

  private constructor(
    private readonly session: BridgeSession,
    private readonly log: (line: string) => void,
    readonly contracts: LiveContracts,
    readonly orders: LiveOrders,
    readonly quotes: LiveQuotes,
    accounts: AccountBook,
    clock: Clock,
  ) {
    this.clock = clock;
    const call = upstreamCaller(session);
    this.identity = {
      venue: 'shioaji',
      simulation: session.upstream().environment === 'simulation',
      simClock: null,
      isStockTradingHours: (at) => isStockTradingHours('exchange', at),
    };
    this.accounts = {
      list: async () => accounts.list(),
      resolve: async (selector) => accounts.resolve(selector),
      defaultAccount: async (type) => accounts.defaultAccount(type),
      setDefault: async (selector) => accounts.setDefault(selector),
      usage: () => call('usage'),
      caExpireTime: async (personId) => {
        accounts.requirePerson(personId);
        return (await call<{ expire_time: string }>('ca_expiretime', { person_id: personId })).expire_time;
      },
    };
    this.marketData = liveMarketData(call, () => contracts.directory);
    this.portfolio = livePortfolio(call, accounts);
    this.reserve = liveReserve(call, accounts);
  }

  /** Starts the sidecar, logs in, and reads the accounts and contracts; rejects with the reason and the fix. */
  static async open(options: ShioajiVenueOptions): Promise<ShioajiVenue> {
    const clock = options.clock ?? systemClock;
    let quotes: LiveQuotes | null = null;
    const session = await BridgeSession.open({
      ...options,
      now: () => clock.now(),
      expectQuotes: () => quotes?.expectsQuotes(clock.now()) ?? false,
    });
    try {
      const call = upstreamCaller(session);
      const accounts = new AccountBook(await call<Account[]>('accounts'));
      for (const account of accounts.list().filter((a) => !a.signed)) {
        options.log(
          `account ${account.broker_id}-${account.account_id} (${account.account_type}) is not signed: SinoPac refuses ` +
            "its orders until you sign the API agreement and pass the API test in SinoPac's simulation environment",
        );
      }
      const contracts = new LiveContracts(await call<ContractInfo[]>('contracts'), clock);
      session.onReconnected(async () => {
        accounts.replace(await call<Account[]>('accounts'));
        contracts.replace(await call<ContractInfo[]>('contracts'));
      });
      const orders = new LiveOrders(call, accounts, clock, options.log, session);
      quotes = new LiveQuotes(call, () => contracts.directory, options.log, session);
      return new ShioajiVenue(session, options.log, contracts, orders, quotes, accounts, clock);
    } catch (error) {
      await session.close();
      throw error;
    }
  }

  /** The upstream's state for /health. */
  upstream(): UpstreamState {
    return this.session.upstream();
  }

  start(): void {
    void this.orders
      .refresh()
      .catch((error: Error) => this.log(`bridge: reading orders back failed: ${error.message}`));
  }

  close(): Promise<void> {
    return this.session.close();
  }
}
