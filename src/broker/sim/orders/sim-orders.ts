// The simulated exchange and broker for orders: checks each order against the exchange's and the broker's rules,
// matches it against the simulated market (exchange/matching.ts), and reports every change as an OrderUpdate (the
// gateway journals it). Open orders meet the market's trades as the clock moves (sync).

import { type Account, type AccountSelector, accountKeyOf } from '../../../domain/accounts.js';
import type { ContractInfo, StockInfo } from '../../../domain/contracts.js';
import { InvalidRequestError, NotFoundError } from '../../../domain/errors.js';
import { firstChangeViolation, type OrderChange } from '../../../domain/order-change-rules.js';
import { firstViolation } from '../../../domain/order-rules.js';
import { moveStatus, settleStatus } from '../../../domain/order-states.js';
import {
  type ComboTrade,
  type Deal,
  type FuturesOrderRequest,
  futuresOrderRequest,
  isFinalStatus,
  isStockOrder,
  isStockTradeOrder,
  type OpType,
  type OrderEvent,
  requireFiniteNumbers,
  type StockOrderRequest,
  stockOrderRequest,
  type Trade,
} from '../../../domain/orders.js';
import type { ClockMode } from '../../../domain/sessions.js';
import type { Clock } from '../../../domain/time.js';
import type { OrderUpdate, PlaceComboInput, PlaceOrderInput, SavedOrders } from '../../port.js';
import type { SimAccounts } from '../accounts.js';
import type { SimContracts } from '../contracts.js';
import { nextOpening } from '../exchange/phases.js';
import { comboCodeOf, marketOf, type SimMarket } from '../market/market.js';
import { Ledger, type LedgerChanges, type LedgerOptions } from '../portfolio/ledger.js';
import { hashKeys } from '../random.js';
import { derivativeFill, stockFill } from './booked-fills.js';
import { ComboDesk, type ComboHost, type ComboRecord, isComboRecord } from './combo-orders.js';
import { DayAndPhase } from './day-and-phase.js';
import { OrderMatching } from './order-matching.js';
import { PreTrade } from './pre-trade.js';
import {
  acknowledge,
  copyTrade,
  dealProblem,
  newTrade,
  type OrderRecord,
  orderReport,
  recordProblem,
  refuse,
  requireValidCustomField,
  restoredRecord,
  storedRecord,
} from './trade-records.js';

/** The selector with its account type set (the key first: see the note on spreads in PreTrade.contextOf). */
function defaultOf(selector: AccountSelector | undefined, type: 'S' | 'F'): AccountSelector {
  const unnamed = { account_type: type, ...selector };
  unnamed.account_type = type;
  return unnamed;
}

/** How long the working orders wait before meeting the market again after a commit failed (a full disk). */
const SYNC_PAUSE_AFTER_FAILED_COMMIT_MS = 1000;
/** Listings kept by code and day (see listedOn). */
const LISTED_CACHE_SIZE = 1024;

/** The state the simulator keeps with its orders: how many ids were handed out. */
const ORDER_COUNTER = 'order_counter';

export class SimOrders {
  private readonly records = new Map<string, OrderRecord>();
  /** The orders that are not finished: what sync and the reservation checks walk. */
  private readonly working = new Set<OrderRecord>();
  /** Cash, positions and P&L, booked from every deal; the portfolio reads it. */
  readonly ledger: Ledger;
  /** What the deals of the change being made did to the ledger, reported with the change. */
  private pendingLedger: LedgerChanges[] = [];
  /** Who hears of every change: the gateway, which journals it. */
  private readonly listeners = new Set<(update: OrderUpdate) => void>();
  /** Each day and session phase asked for is computed once per second. */
  private readonly sessions: DayAndPhase;
  /** The listings asked for, by code and day: SimMarket builds one per call. */
  private readonly listed = new Map<string, ContractInfo>();
  private readonly combos: ComboDesk;
  private readonly preTrade: PreTrade;
  private readonly matching: OrderMatching;
  private counter: number;
  /** performance.now() until which sync() does nothing, after a commit that failed. */
  private syncPausedUntil = 0;

  constructor(
    private readonly market: SimMarket,
    private readonly contracts: SimContracts,
    private readonly accounts: SimAccounts,
    private readonly clock: Clock,
    private readonly mode: ClockMode,
    funds: LedgerOptions,
  ) {
    this.ledger = new Ledger(funds);
    this.sessions = new DayAndPhase(market, mode);
    this.combos = new ComboDesk(this.comboHost(), market, contracts, mode);
    this.preTrade = new PreTrade(this.ledger, market, contracts, this.sessions, clock, mode, {
      workingOf: (accountKey) => this.workingOf(accountKey),
      workingCombosOf: (accountKey) => this.combos.workingOf(accountKey),
      infoOf: (record) => this.infoOf(record),
    });
    this.matching = new OrderMatching(market, this.sessions, this.preTrade, (record, deal, dealSeq) =>
      this.pendingLedger.push(this.ledger.book(this.bookedFill(record, deal, dealSeq))),
    );
    this.counter = 0;
  }

  onOrderUpdate(listener: (update: OrderUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Rebuilds every order, combo and the ledger from what the gateway kept: at start, and after a write that failed
   * (`rollback`): nothing of its changes is durable, so none of them happened, and the working orders wait a moment
   * before they meet the market again (each failure reloads everything).
   */
  restore(saved: SavedOrders, options: { rollback: boolean; log: (line: string) => void }): void {
    this.records.clear();
    this.working.clear();
    this.pendingLedger = [];
    this.ledger.clear();
    this.combos.clear();
    this.counter = Number(saved.state(ORDER_COUNTER) ?? '0');
    this.load(saved, options.log);
    if (options.rollback) this.syncPausedUntil = performance.now() + SYNC_PAUSE_AFTER_FAILED_COMMIT_MS;
  }

  /**
   * A row that cannot be put back is left out with one log line and the rest loads: one damaged row must not stop
   * the gateway or break every later listing. An order whose record holds a number that is not finite is neither
   * listed nor traded, but its deals were real fills and still count.
   */
  private load(saved: SavedOrders, log: (line: string) => void): void {
    const leftOut = (row: string, reason: string) => log(`journal: ${row} left out at load: ${reason}`);
    /** Orders left out whose deals are still booked. */
    const unlisted = new Map<string, unknown>();
    for (const stored of saved.orders) {
      const problem = recordProblem(stored.record);
      if (problem) {
        const deals =
          problem.kind === 'numbers'
            ? 'not listed or traded; any deals of it still count'
            : 'its deals are left out too';
        leftOut(`order ${stored.id}`, `${problem.reason} (${deals})`);
        if (problem.kind === 'numbers') unlisted.set(stored.id, stored.record);
        continue;
      }
      if (isComboRecord(stored.record)) {
        this.combos.remember(stored.record);
        continue;
      }
      this.remember(restoredRecord(stored.record as OrderRecord));
    }
    for (const deal of saved.deals) {
      const problem = dealProblem(deal.record);
      if (problem) {
        leftOut(`deal ${deal.seq} of order ${deal.orderId}`, problem);
        continue;
      }
      const record = this.records.get(deal.orderId);
      if (record) record.trade.status.deals[deal.seq - 1] = deal.record as Deal;
      const combo = this.combos.records.get(deal.orderId);
      const unlistedRecord = unlisted.get(deal.orderId);
      // The ledger's rows of these deals are in the journal already: only its state is rebuilt.
      if (record ?? (unlistedRecord && !isComboRecord(unlistedRecord))) {
        this.ledger.book(this.bookedFill((record ?? unlistedRecord) as OrderRecord, deal.record as Deal, deal.seq));
      }
      const comboRecord = combo ?? (isComboRecord(unlistedRecord) ? unlistedRecord : undefined);
      if (comboRecord) this.combos.replayDeal(comboRecord, deal.code, deal.record as Deal, deal.seq);
    }
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
    const key = this.selectedAccountKey(account);
    return [...this.combos.records.values()]
      .filter((record) => key === null || record.accountKey === key)
      .map((record) => structuredClone(record.trade));
  }

  private comboHost(): ComboHost {
    return {
      nextIds: () => this.nextIds(),
      futuresAccount: (selector) => this.accountFor(selector, 'F', 'a combo'),
      availableMargin: (accountKey) => this.preTrade.availableMargin(accountKey),
      marginPerContract: (info) => this.preTrade.marginPerContract(info),
      bookLeg: (leg) => {
        const context = { day: this.sessions.dayAt('futures', leg.deal.ts * 1000), ...leg };
        this.pendingLedger.push(
          this.ledger.book(derivativeFill(context, leg.info, leg.action, leg.trade.order.octype)),
        );
      },
      persistCombo: (record, events) => this.persistCombo(record, events),
      infoOn: (code, day) => {
        const info = this.listedOn(code, day);
        if (!info) throw new Error(`${code} is not listed on ${day}`);
        return info;
      },
    };
  }

  place(input: PlaceOrderInput): Trade {
    this.sync();
    const { listed, info } = this.instrumentOf(input);
    const order = this.orderOf(input, info);
    const account = this.accountFor(order.account, isStockOrder(order) ? 'S' : 'F', info.code);
    const now = this.clock.now();
    const trade = newTrade(info, listed.code !== info.code ? listed.code : null, this.nextIds(), order, account, now);
    const lot = order.order_lot ?? null;
    const record: OrderRecord = {
      trade,
      accountKey: accountKeyOf(account),
      market: marketOf(info),
      tape: lot === 'Odd' || lot === 'IntradayOdd' ? 'odd' : 'board',
      daytradeShort: isStockOrder(order) && order.daytrade_short,
      queueAhead: 0,
      cursor: null,
      releaseAt: null,
      placedAt: now,
    };
    const phase = this.sessions.phaseAt(record.market, lot, now);
    const violation = firstViolation(this.preTrade.contextOf(order, info, record, phase));
    const events: OrderEvent[] = [];
    if (violation) {
      refuse(trade.status, violation);
      events.push(orderReport(record.trade, info, 'New', violation.opCode, violation.message, now));
    } else {
      const stock = isStockOrder(order);
      const to = phase === 'closed' ? 'PreSubmitted' : 'Submitted';
      acknowledge(trade.status, stock ? 'stock' : 'futures', stock ? 0 : order.price, order.quantity, now, to);
      if (phase === 'closed') {
        record.releaseAt = nextOpening(this.mode, record.market, lot, now);
      }
      events.push(orderReport(record.trade, info, 'New', '00', '', now));
      if (phase !== 'closed') events.push(...this.matching.enter(record, info, now, phase));
    }
    this.commit(record, events, true);
    return copyTrade(record.trade);
  }

  /** A named account is found by its ids; without ids the default account of the order's kind is meant. */
  private accountFor(selector: AccountSelector | undefined, type: 'S' | 'F', what: string): Account {
    const named = selector?.account_id !== undefined || selector?.broker_id !== undefined;
    const account = this.accounts.resolve(named ? selector! : defaultOf(selector, type));
    if (account.account_type !== type) {
      throw new InvalidRequestError(
        `account ${account.account_id} is a ${account.account_type} account; ${what} needs a ${type} account`,
      );
    }
    return account;
  }

  cancel(tradeId: string): Trade {
    return this.change(tradeId, { kind: 'cancel' });
  }

  updatePrice(tradeId: string, price: number): Trade {
    return this.change(tradeId, { kind: 'update_price', price });
  }

  updateQty(tradeId: string, quantity: number): Trade {
    return this.change(tradeId, { kind: 'update_qty', quantity });
  }

  trades(account?: AccountSelector): Trade[] {
    this.sync();
    const key = this.selectedAccountKey(account);
    return [...this.records.values()]
      .filter((record) => key === null || record.accountKey === key)
      .map((record) => copyTrade(record.trade));
  }

  trade(tradeId: string): Trade | undefined {
    const record = this.records.get(tradeId);
    return record && copyTrade(record.trade);
  }

  /** Releases reservations whose session opened and lets open orders meet the trades printed since last time. */
  sync(): void {
    // After a failed commit the fills are met again from the journal's state, but not on every tick: each failure
    // reloads the journal.
    if (performance.now() < this.syncPausedUntil) return;
    const now = this.clock.now();
    this.combos.sync(now);
    // A copy: committing a change moves a finished order out of the set.
    for (const record of [...this.working]) {
      if (record.releaseAt !== null && now < record.releaseAt) continue;
      const info = this.infoOf(record);
      const events: OrderEvent[] = [];
      if (record.releaseAt !== null) {
        const at = record.releaseAt;
        record.releaseAt = null;
        moveStatus(record.trade.status, 'Submitted');
        const lot = record.trade.order.order_lot ?? null;
        events.push(...this.matching.enter(record, info, at, this.sessions.phaseAt(record.market, lot, at)));
      }
      events.push(...this.matching.meetTrades(record, info, now));
      if (events.length > 0) this.commit(record, events);
    }
  }

  // ---- placing ----

  private instrumentOf(input: PlaceOrderInput): { listed: ContractInfo; info: ContractInfo } {
    const { code, security_type, exchange } = input.contract;
    const listed = this.contracts.current().find(code);
    if (!listed || (security_type && listed.security_type !== security_type)) {
      throw new NotFoundError(
        'CONTRACT_NOT_FOUND',
        `${code} is not a listed contract${security_type ? ` of type ${security_type}` : ''}`,
      );
    }
    if (exchange && exchange !== listed.exchange) {
      throw new NotFoundError('CONTRACT_NOT_FOUND', `${code} is listed on ${listed.exchange}, not ${exchange}`);
    }
    if (listed.security_type === 'IND') throw new InvalidRequestError(`${code} is an index; indices cannot be traded`);
    const target = listed.target_code ? this.contracts.current().find(listed.target_code) : listed;
    return { listed, info: target ?? listed };
  }

  private orderOf(input: PlaceOrderInput, info: ContractInfo): StockOrderRequest | FuturesOrderRequest {
    const { stockOrder, futuresOrder } = input;
    if ((stockOrder === undefined) === (futuresOrder === undefined)) {
      throw new InvalidRequestError('place_order needs exactly one of stock_order or futures_order');
    }
    const derivative = info.security_type === 'FUT' || info.security_type === 'OPT';
    if (stockOrder && derivative) {
      throw new InvalidRequestError(
        `${info.code} is a ${info.security_type} contract: send futures_order, not stock_order`,
      );
    }
    if (futuresOrder && !derivative) {
      throw new InvalidRequestError(
        `${info.code} is a ${info.security_type} contract: send stock_order, not futures_order`,
      );
    }
    const order = stockOrder ? stockOrderRequest(stockOrder) : futuresOrderRequest(futuresOrder!);
    requireValidCustomField(order.custom_field);
    return order;
  }

  /** The working orders of an account. */
  private *workingOf(accountKey: string): Iterable<OrderRecord> {
    for (const record of this.working) if (record.accountKey === accountKey) yield record;
  }

  /** Keeps an order, and in the working set while it can still trade, so that no pass walks finished orders. */
  private remember(record: OrderRecord): void {
    this.records.set(record.trade.order.id, record);
    if (isFinalStatus(record.trade.status.status)) this.working.delete(record);
    else this.working.add(record);
  }

  private nextIds(): { id: string; seqno: string; ordno: string } {
    // The id is a 32-bit hash of the counter, and two counters may hash alike (the first pair: 539,599 and 722,382):
    // an id already taken is skipped, or the second order would overwrite the first in the journal.
    let id: string;
    do {
      this.counter++;
      id = hashKeys('order', this.counter).toString(16).padStart(8, '0');
    } while (this.records.has(id) || this.combos.records.has(id));
    return {
      id,
      seqno: String(100000 + (this.counter % 900000)),
      ordno: (36 ** 4 * 10 + this.counter).toString(36).toUpperCase().slice(-5),
    };
  }

  // ---- booking ----

  private bookedFill(record: OrderRecord, deal: Deal, dealSeq: number) {
    const at = deal.ts * 1000;
    const context = {
      accountKey: record.accountKey,
      trade: record.trade,
      deal,
      dealSeq,
      day: this.sessions.dayAt(record.market, at),
    };
    const info = this.listedOn(record.trade.contract.code, context.day) ?? this.infoOf(record);
    const { order } = record.trade;
    if (isStockTradeOrder(order)) return stockFill(context, order, info as StockInfo, record.daytradeShort);
    return derivativeFill(context, info, order.action, order.octype);
  }

  // ---- changes ----

  private change(tradeId: string, change: OrderChange): Trade {
    requireFiniteNumbers(change, change.kind);
    this.sync();
    const record = this.records.get(tradeId);
    if (!record) throw new NotFoundError('ORDER_NOT_FOUND', `no order with trade_id '${tradeId}'`);
    const info = this.infoOf(record);
    const now = this.clock.now();
    const { trade } = record;
    const opType: OpType =
      change.kind === 'cancel' ? 'Cancel' : change.kind === 'update_price' ? 'UpdatePrice' : 'UpdateQty';
    const violation = firstChangeViolation({
      change,
      order: {
        price_type: trade.order.price_type,
        order_lot: trade.order.order_lot,
      },
      status: trade.status,
      instrument: this.preTrade.priceFactsOf(info),
    });
    if (violation) {
      this.commit(record, [orderReport(record.trade, info, opType, violation.opCode, violation.message, now)]);
      const answer = copyTrade(trade);
      answer.status.msg = violation.message;
      return answer;
    }
    const events: OrderEvent[] = [];
    if (change.kind === 'cancel') {
      events.push(...this.matching.cancelRest(record, info, now, ''));
    } else if (change.kind === 'update_qty') {
      trade.status.order_quantity -= change.quantity;
      trade.status.cancel_quantity += change.quantity;
      trade.status.modified_ts = now / 1000;
      settleStatus(trade.status, 'cancel');
      events.push(orderReport(record.trade, info, 'UpdateQty', '00', '', now));
    } else {
      trade.order.price = change.price;
      trade.status.modified_price = change.price;
      trade.status.modified_ts = now / 1000;
      events.push(orderReport(record.trade, info, 'UpdatePrice', '00', '', now));
      if (record.releaseAt === null) {
        // A new price is a new place in the queue: the order re-enters the book as if it just arrived.
        const lot = trade.order.order_lot ?? null;
        events.push(...this.matching.enter(record, info, now, this.sessions.phaseAt(record.market, lot, now)));
      }
    }
    this.commit(record, events);
    return copyTrade(trade);
  }

  // ---- listings ----

  private infoOf(record: OrderRecord): ContractInfo {
    const day = record.cursor?.day ?? this.sessions.dayAt(record.market, record.placedAt);
    const info = this.listedOn(record.trade.contract.code, day);
    if (!info) throw new Error(`order ${record.trade.order.id}: ${record.trade.contract.code} is not listed on ${day}`);
    return info;
  }

  /** A code's info as listed on a day (SimMarket's listings), kept for the next order or pass that asks. */
  private listedOn(code: string, day: string): ContractInfo | undefined {
    const key = `${code}|${day}`;
    const known = this.listed.get(key);
    if (known) return known;
    const info = this.market.listings.infoOn(code, day);
    if (!info) return undefined;
    // Working orders span few codes and days: a full cache belongs to days gone by.
    if (this.listed.size >= LISTED_CACHE_SIZE) this.listed.clear();
    this.listed.set(key, info);
    return info;
  }

  /** The account a listing asks for; null when the selector names none (every account). */
  private selectedAccountKey(selector: AccountSelector | undefined): string | null {
    if (!selector || Object.values(selector).every((v) => v === undefined)) return null;
    return accountKeyOf(this.accounts.resolve(selector));
  }

  // ---- reports ----

  /** Reports the order's change (its new deals, its events) and keeps it. `placed`: the order is new. */
  private commit(record: OrderRecord, events: OrderEvent[], placed = false): void {
    const { trade } = record;
    const deals = trade.status.deals.map((deal) => ({
      code: trade.contract.code,
      action: trade.order.action,
      deal,
    }));
    this.persist({
      order: {
        id: trade.order.id,
        accountKey: record.accountKey,
        code: trade.contract.code,
        placedAt: record.placedAt,
      },
      status: trade.status,
      record: () => storedRecord(record),
      deals,
      events,
      placed,
    });
    this.remember(record);
  }

  private persistCombo(record: ComboRecord, events: OrderEvent[]): void {
    const { trade } = record;
    const [first, second] = trade.contract.legs;
    const firstDeals = trade.status.deals[first.code] ?? [];
    const secondDeals = trade.status.deals[second.code] ?? [];
    // Each fill made one deal per leg: they are journaled fill by fill, first leg first.
    const deals = firstDeals.flatMap((deal, i) => [
      { code: first.code, action: first.action, deal },
      { code: second.code, action: second.action, deal: secondDeals[i]! },
    ]);
    const code = comboCodeOf(record.combo);
    this.persist({
      order: { id: trade.order.id, accountKey: record.accountKey, code, placedAt: record.placedAt },
      status: trade.status,
      record: () => record,
      deals,
      events,
      placed: false,
    });
  }

  /** Reports a change, with the ledger rows its deals booked, to the gateway. */
  private persist(change: Omit<OrderUpdate, 'ledger' | 'at' | 'state'>): void {
    const ledger = this.pendingLedger;
    this.pendingLedger = [];
    const update: OrderUpdate = {
      ...change,
      ledger,
      at: Math.round(this.clock.now()),
      state: { [ORDER_COUNTER]: String(this.counter) },
    };
    for (const listener of this.listeners) listener(update);
  }
}
