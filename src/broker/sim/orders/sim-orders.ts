// The simulated exchange and broker for orders: plain orders (plain-orders.ts) and combos (combo-orders.ts), checked
// against the exchange's and the broker's rules, matched against the simulated market and booked in the ledger. Every
// change is reported as an OrderUpdate (order-reports.ts), which the gateway journals. Open orders meet the market's
// trades as the clock moves (sync).

import type { AccountSelector } from '../../../domain/accounts.js';
import { NotFoundError } from '../../../domain/errors.js';
import type { OrderChange } from '../../../domain/order-change-rules.js';
import { type ComboTrade, requireFiniteNumbers, type Trade } from '../../../domain/orders.js';
import type { ClockMode } from '../../../domain/sessions.js';
import type { Clock } from '../../../domain/time.js';
import type { OrderUpdate, PlaceComboInput, PlaceOrderInput, SavedOrders } from '../../port.js';
import type { SimAccounts } from '../accounts.js';
import type { SimContracts } from '../contracts.js';
import type { SimMarket } from '../market/market.js';
import { Ledger, type LedgerOptions } from '../portfolio/ledger.js';
import type { ReserveBook } from '../reserve/reserve-book.js';
import { derivativeFill } from './booked-fills.js';
import { ComboDesk, type ComboHost } from './combo-orders.js';
import { DayAndPhase } from './day-and-phase.js';
import { ListingCache } from './listing-cache.js';
import { OrderBook } from './order-book.js';
import { OrderMatching } from './order-matching.js';
import { ORDER_COUNTER, OrderReports } from './order-reports.js';
import { accountFor } from './order-requests.js';
import { type PlainOrderParts, PlainOrders } from './plain-orders.js';
import { PreTrade } from './pre-trade.js';
import { loadSavedOrders, savedOrderLoader } from './saved-orders.js';
import { copyTrade, type OrderRecord } from './trade-records.js';

/** How long the working orders wait before meeting the market again after a commit failed (a full disk). */
const SYNC_PAUSE_AFTER_FAILED_COMMIT_MS = 1000;

export class SimOrders {
  /** Cash, positions and P&L, booked from every deal; the portfolio reads it. */
  readonly ledger: Ledger;
  private readonly book: OrderBook;
  private readonly reports: OrderReports;
  private readonly plain: PlainOrders;
  private readonly combos: ComboDesk;
  /** performance.now() until which sync() does nothing, after a commit that failed. */
  private syncPausedUntil = 0;

  constructor(
    market: SimMarket,
    contracts: SimContracts,
    accounts: SimAccounts,
    private readonly clock: Clock,
    mode: ClockMode,
    funds: LedgerOptions,
    /** What is pre-collected today: a sell may not take reserved shares, a buy not earmarked cash. */
    reserves: ReserveBook,
    /** Settles the positions whose contract stopped trading by an instant, once the fills up to it are booked. */
    private readonly settleExpired: (now: number) => void = () => undefined,
  ) {
    const ledger = new Ledger(funds);
    this.ledger = ledger;
    // Each day and session phase asked for is computed once per second.
    const sessions = new DayAndPhase(market, mode);
    const book = new OrderBook((id) => this.combos.records.has(id), {
      today: () => {
        const now = clock.now();
        return `${sessions.dayAt('stock', now)} ${sessions.dayAt('futures', now)}`;
      },
      lastActiveDay: (record) => `${record.market} ${market.dayAt(record.market, lastActivityAt(record))}`,
      isPast: (activeDay) => {
        const [orderMarket, day] = activeDay.split(' ') as [OrderRecord['market'], string];
        return day < sessions.dayAt(orderMarket, clock.now());
      },
    });
    this.book = book;
    this.reports = new OrderReports(clock, () => book.issued);
    const listings = new ListingCache(market, sessions);
    const preTrade = new PreTrade(
      ledger,
      market,
      contracts,
      sessions,
      clock,
      mode,
      {
        workingOf: (accountKey) => book.workingOf(accountKey),
        workingCombosOf: (accountKey) => this.combos.workingOf(accountKey),
        infoOf: (record) => listings.of(record),
      },
      reserves,
    );
    reserves.funds = preTrade;
    const matching = new OrderMatching(
      market,
      sessions,
      preTrade,
      (record, deal, dealSeq) => this.reports.book(ledger.book(this.plain.bookedFill(record, deal, dealSeq))),
      () => book.workingNow(),
    );
    const parts = { book, reports: this.reports, ledger, sessions, listings, preTrade, matching };
    this.plain = new PlainOrders({ ...parts, contracts, accounts, clock, mode });
    this.combos = new ComboDesk(comboHostOf(parts, accounts), market, contracts, mode);
  }

  onOrderUpdate(listener: (update: OrderUpdate) => void): () => void {
    return this.reports.listen(listener);
  }

  /**
   * Rebuilds every order, combo and the ledger from what the gateway kept: at start, and after a write that failed
   * (`rollback`): nothing of its changes is durable, so none of them happened, and the working orders wait a moment
   * before they meet the market again (each failure reloads everything).
   */
  restore(
    saved: SavedOrders,
    options: { rollback: boolean; log: (line: string) => void },
    /** Books the settlements at expiry stamped before an instant (ExpirySettlements.restore). */
    settleBefore?: (before: number) => void,
    /** The ledger holds a checkpoint: only the deals it does not cover are booked (else the ledger starts empty). */
    fromCheckpoint = false,
  ): void {
    this.reports.discard();
    if (!fromCheckpoint) this.ledger.clear();
    this.combos.clear();
    this.plain.forgetBooks();
    this.book.reset(Number(saved.state(ORDER_COUNTER) ?? '0'), savedOrderLoader(saved));
    const bookDeal = this.plain.bookedFill.bind(this.plain);
    // The ledger's rows of these deals are in the journal already: only its state is rebuilt. What was settled at
    // expiry is settled again where it was, between the deals before and after it.
    loadSavedOrders(
      saved,
      {
        book: this.book,
        combos: this.combos,
        bookDeal: (record, deal, seq, covered) => {
          if (!covered) {
            settleBefore?.(deal.ts * 1000);
            this.ledger.replay(bookDeal(record, deal, seq));
          }
          this.plain.replayDeal(record, deal, seq);
        },
        now: this.clock.now(),
      },
      options.log,
    );
    settleBefore?.(Number.POSITIVE_INFINITY);
    if (options.rollback) this.syncPausedUntil = performance.now() + SYNC_PAUSE_AFTER_FAILED_COMMIT_MS;
  }

  place(input: PlaceOrderInput): Trade {
    this.sync();
    return this.plain.place(input);
  }

  cancel(tradeId: string): Trade {
    this.sync();
    return this.plain.change(tradeId, { kind: 'cancel' });
  }

  // A change with a number that is not finite is refused before the market moves the order.
  updatePrice(tradeId: string, price: number): Trade {
    const change: OrderChange = { kind: 'update_price', price };
    requireFiniteNumbers(change, change.kind);
    this.sync();
    return this.plain.change(tradeId, change);
  }

  /** Reduces the order by `quantity`, as the official server reads update_qty. */
  updateQty(tradeId: string, quantity: number): Trade {
    const change: OrderChange = { kind: 'update_qty', quantity };
    requireFiniteNumbers(change, change.kind);
    this.sync();
    return this.plain.change(tradeId, change);
  }

  trades(account?: AccountSelector): Trade[] {
    this.sync();
    return this.book.list(this.plain.accountKeyOf(account)).map((record) => copyTrade(record.trade));
  }

  trade(tradeId: string): Trade | undefined {
    const record = this.book.get(tradeId);
    return record && copyTrade(record.trade);
  }

  placeCombo(input: PlaceComboInput): ComboTrade {
    this.sync();
    return this.combos.place(input, this.clock.now());
  }

  cancelCombo(tradeId: string): ComboTrade {
    this.sync();
    const record = this.combos.records.get(tradeId);
    if (!record) throw new NotFoundError('ORDER_NOT_FOUND', `no combo order with trade_id '${tradeId}'`);
    return this.combos.cancel(record, this.clock.now());
  }

  comboTrades(account?: AccountSelector): ComboTrade[] {
    this.sync();
    const key = this.plain.accountKeyOf(account);
    return [...this.combos.records.values()]
      .filter((record) => key === null || record.accountKey === key)
      .map((record) => structuredClone(record.trade));
  }

  /**
   * Releases reservations whose session opened and lets open orders meet the trades printed since last time; answers
   * the version of trades() after it, which changes whenever trades() may answer otherwise (OrdersPort.tradesVersion).
   */
  sync(): number {
    // After a failed commit the fills are met again from the journal's state, but not on every tick: each failure
    // reloads the journal.
    if (performance.now() < this.syncPausedUntil) return this.book.listVersion();
    const now = this.clock.now();
    this.combos.sync(now);
    this.plain.sync(now);
    this.settleExpired(now);
    return this.book.listVersion();
  }
}

/** When an order last changed: placed, modified (a new price, a cancel) or filled, in epoch milliseconds. */
function lastActivityAt(record: OrderRecord): number {
  const { status } = record.trade;
  const lastDeal = status.deals.at(-1);
  return Math.max(record.placedAt, status.modified_ts * 1000, (lastDeal?.ts ?? 0) * 1000);
}

/** What the combo desk needs of the order desk: ids, accounts, margin, booking and reports. */
function comboHostOf(
  parts: Omit<PlainOrderParts, 'matching' | 'contracts' | 'accounts' | 'clock' | 'mode'>,
  accounts: SimAccounts,
): ComboHost {
  const { book, reports, ledger, sessions, listings, preTrade } = parts;
  return {
    nextIds: () => book.nextIds(),
    futuresAccount: (selector) => accountFor(accounts, selector, 'F', 'a combo'),
    availableMargin: (accountKey) => preTrade.availableMargin(accountKey),
    marginPerContract: (info) => preTrade.marginPerContract(info),
    bookLeg: (leg) => {
      const context = { day: sessions.dayAt('futures', leg.deal.ts * 1000), ...leg };
      reports.book(ledger.book(derivativeFill(context, leg.info, leg.action, leg.trade.order.octype)));
    },
    persistCombo: (record, events) => reports.combo(record, events),
    infoOn: (code, day) => {
      const info = listings.on(code, day);
      if (!info) throw new Error(`${code} is not listed on ${day}`);
      return info;
    },
  };
}
