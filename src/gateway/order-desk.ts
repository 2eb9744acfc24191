// Orders as the server sees them: the venue's commands, plus what the gateway adds for every venue: Idempotency-Key,
// the answer without ids of `timeout: 0`, and answers given only once the journal holds what they report.

import type { AccountsPort, OrdersPort, PlaceComboInput, PlaceOrderInput, ReservePort } from '../broker/port.js';
import { type AccountSelector, accountKeyOf } from '../domain/accounts.js';
import { DomainError } from '../domain/errors.js';
import { blankStatus, type ComboTrade, type Trade } from '../domain/orders.js';
import type { Clock } from '../domain/time.js';
import type { OrderPageQuery } from '../store/journal.js';
import { requestFingerprint } from './idempotency.js';
import type { KeyedOrder, OrderJournal } from './order-journal.js';
import { durableReserve } from './reserve-desk.js';
import type { TodaysTrades } from './todays-trades.js';
import { cursorAfter, orderPageQuery, type TradesPageRequest } from './trade-pages.js';
import type { TradePageJson } from './trade-wire.js';

export interface PlaceOrderRequest extends PlaceOrderInput {
  /** false for `timeout: 0`: the Trade comes back at once as Inactive without ids; the ids arrive by event. */
  wait: boolean;
  /** A retried place with the same key returns the first Trade instead of placing a second order. */
  idempotencyKey?: string | undefined;
}

export interface PlaceComboRequest extends PlaceComboInput {
  wait: boolean;
}

export interface TradesPage {
  /** The page's trades as the JSON array the API answers, UTF-8 (TradeWire). */
  json: Buffer;
  count: number;
  nextCursor: string | null;
}

/** The trade lists answered as the API's JSON. */
export interface TradeListsJson {
  /** A page of the journal's trades, once the queued changes are written (today's are there too). */
  page(query: OrderPageQuery): TradePageJson;
  today: TodaysTrades;
}

export class OrderDesk {
  /** Places under a key that the venue has not answered yet: a retry meanwhile waits for the same order. */
  private readonly placing = new Map<string, Promise<KeyedOrder>>();
  /** Share and cash pre-collection (the official server's /order/reserve_* routes), answered once journaled. */
  readonly reserve: ReservePort;

  constructor(
    private readonly venue: OrdersPort,
    private readonly journal: OrderJournal,
    private readonly clock: Clock,
    reserve: ReservePort,
    private readonly accounts: Pick<AccountsPort, 'resolve'>,
    private readonly tradeLists: TradeListsJson,
  ) {
    this.reserve = durableReserve(reserve, () => journal.durable());
  }

  async place(request: PlaceOrderRequest): Promise<Trade> {
    const { wait, idempotencyKey: key, ...input } = request;
    if (key === undefined) return this.durably(withoutIds(await this.venue.place(input), wait));
    const fingerprint = requestFingerprint(input);
    const known = this.placing.get(key) ?? this.journal.orderForKey(key);
    if (known) return this.durably(withoutIds(await this.retried(key, await known, fingerprint), wait));
    const placed = this.venue.place(input);
    const keyed = placed.then((trade) => {
      const order = { orderId: trade.order.id, request: fingerprint };
      this.journal.queueKey(key, order, Math.round(this.clock.now()));
      return order;
    });
    this.placing.set(key, keyed);
    try {
      await keyed;
    } finally {
      this.placing.delete(key);
    }
    return this.durably(withoutIds(await placed, wait));
  }

  async cancel(tradeId: string): Promise<Trade> {
    return this.durably(await this.venue.cancel(tradeId));
  }

  async updatePrice(tradeId: string, price: number): Promise<Trade> {
    return this.durably(await this.venue.updatePrice(tradeId, price));
  }

  async updateQty(tradeId: string, quantity: number): Promise<Trade> {
    return this.durably(await this.venue.updateQty(tradeId, quantity));
  }

  async trades(account?: AccountSelector): Promise<Trade[]> {
    return this.durably(await this.venue.trades(account));
  }

  /** Today's trades and the working orders (the official order/trades) as the JSON array the API answers. */
  async todaysTradesJson(account?: AccountSelector): Promise<Buffer> {
    return this.tradeLists.today.json(account, () => this.journal.durable());
  }

  /**
   * Older trades, a page at a time out of the journal: those of an account (every account's when no selector is
   * given) placed in a range of Taiwan days, oldest first; `nextCursor` is null on the last page. A page may hold fewer
   * than `limit` trades before the end (combo orders are listed by comboTrades), so the end is a null cursor.
   */
  async tradesPage(account: AccountSelector | undefined, request: TradesPageRequest): Promise<TradesPage> {
    const accountKey = account === undefined ? undefined : accountKeyOf(await this.accounts.resolve(account));
    const { json, count, last } = this.tradeLists.page(orderPageQuery(request, accountKey));
    return { json, count, nextCursor: last && cursorAfter(last) };
  }

  /** update_status: the venue reads its orders back first, when it can. */
  async updateStatus(account?: AccountSelector): Promise<Trade[]> {
    await this.venue.refresh?.();
    return this.trades(account);
  }

  async placeCombo(request: PlaceComboRequest): Promise<ComboTrade> {
    const { wait, ...input } = request;
    const trade = await this.venue.placeCombo(input);
    if (!wait) {
      Object.assign(trade.order, { id: '', seqno: '', ordno: '' });
      trade.status = { ...blankStatus('', 'Inactive', trade.status.order_ts), deals: {} };
    }
    return this.durably(trade);
  }

  async cancelCombo(tradeId: string): Promise<ComboTrade> {
    return this.durably(await this.venue.cancelCombo(tradeId));
  }

  async comboTrades(account?: AccountSelector): Promise<ComboTrade[]> {
    return this.durably(await this.venue.comboTrades(account));
  }

  /**
   * Answers once every change made so far is in the journal, so nothing the answer shows is lost in a crash: the
   * changes are written together (group commit) at the end of the event loop's turn.
   */
  private async durably<T>(answer: T): Promise<T> {
    await this.journal.durable();
    return answer;
  }

  /** The order a key placed, when the retry asks for the same order; a different order under the key is a 422. */
  private async retried(key: string, keyed: KeyedOrder, fingerprint: string | null): Promise<Trade> {
    if (keyed.request !== null && keyed.request !== fingerprint) {
      throw new DomainError(
        'IDEMPOTENCY_KEY_REUSED',
        `Idempotency-Key '${key}' was already used for a different order (trade id ${keyed.orderId}); ` +
          'send a new key for a new order',
      );
    }
    const trade = await this.venue.trade(keyed.orderId);
    if (trade) return trade;
    throw new DomainError(
      'IDEMPOTENCY_KEY_REUSED',
      `Idempotency-Key '${key}' was used for order ${keyed.orderId}, which could not be restored from the journal; ` +
        'send a new key for a new order',
    );
  }
}

/** What place_order answers: the trade, or with `timeout: 0` a placeholder without ids (they arrive by event). */
function withoutIds(trade: Trade, wait: boolean): Trade {
  if (wait) return trade;
  trade.order.id = '';
  trade.order.seqno = '';
  trade.order.ordno = '';
  trade.status = blankStatus('', 'Inactive', trade.status.order_ts);
  return trade;
}
