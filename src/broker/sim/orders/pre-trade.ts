// Pre-trade: the facts an order is checked against before it may enter the market (domain/order-rules.ts holds the
// rules): the instrument's grid, limits and margins as the market trades it today, and the account's cash, margin
// and holdings net of what its working orders and combos already reserve.

import type { ContractInfo, FuturesInfo, OptionInfo, StockInfo } from '../../../domain/contracts.js';
import { expiryCloseAt } from '../../../domain/final-settlement.js';
import {
  type PlaceOrderContext,
  type PriceFacts,
  type SessionPhase,
  stockOrderCashNeed,
} from '../../../domain/order-rules.js';
import {
  type FuturesOrderRequest,
  isStockOrder,
  isStockTradeOrder,
  openQuantity,
  orderShares,
  type StockOrderCond,
  type StockOrderRequest,
} from '../../../domain/orders.js';
import type { ClockMode } from '../../../domain/sessions.js';
import type { Clock } from '../../../domain/time.js';
import type { SimContracts } from '../contracts.js';
import { marketOf, type SimMarket } from '../market/market.js';
import type { Ledger } from '../portfolio/ledger.js';
import type { ReserveBook, StockFunds } from '../reserve/reserve-book.js';
import type { ComboRecord } from './combo-orders.js';
import type { DayAndPhase } from './day-and-phase.js';
import { contractMargin, stockMarginRatios } from './margins.js';
import type { OrderRecord } from './trade-records.js';

/** What the order desk holds that reserves cash and margin. */
export interface WorkingOrders {
  workingOf(accountKey: string): Iterable<OrderRecord>;
  workingCombosOf(accountKey: string): Iterable<ComboRecord>;
  /** The contract of an order as listed on its day. */
  infoOf(record: OrderRecord): ContractInfo;
}

export class PreTrade implements StockFunds {
  constructor(
    private readonly ledger: Ledger,
    private readonly market: SimMarket,
    private readonly contracts: SimContracts,
    private readonly sessions: DayAndPhase,
    private readonly clock: Clock,
    private readonly mode: ClockMode,
    private readonly orders: WorkingOrders,
    private readonly reserves: ReserveBook,
  ) {}

  contextOf(
    order: StockOrderRequest | FuturesOrderRequest,
    info: ContractInfo,
    record: OrderRecord,
    phase: SessionPhase,
  ): PlaceOrderContext {
    // Each literal names its keys rather than spreading an object and adding keys: on Node 20, keys added after a
    // spread take V8's slow path (microseconds per key), and these are built for every order.
    const { ticks, limitUp, limitDown } = this.priceFactsOf(info);
    const securityType = info.security_type;
    const { exchange, code } = info;
    const referencePrice = 'reference' in info ? info.reference : 0;
    if (isStockOrder(order)) {
      const stock = info as StockInfo;
      const key = record.accountKey;
      this.ledger.open(key, 'S');
      const held = (action: 'Buy' | 'Sell', cond: StockOrderCond) =>
        Math.max(0, this.ledger.heldShares(key, info.code, cond) - this.openShares(key, info.code, action, cond));
      const reserved = this.reserves.reservedShares(key, info.code);
      return {
        market: 'stock',
        order,
        instrument: {
          ticks,
          limitUp,
          limitDown,
          securityType,
          exchange,
          code,
          referencePrice,
          dayTrade: stock.day_trade ?? 'No',
          closePrice: this.closePriceOf(info),
          ...stockMarginRatios(stock),
          marginShortable: stock.margin_shortable ?? false,
          belowReferenceShortable: stock.below_ref_shortable ?? false,
          marginQuotaLots: stock.margin_quota_lots ?? 0,
          shortQuotaLots: stock.short_quota_lots ?? 0,
        },
        phase,
        account: {
          availableCash: this.availableCash(key),
          holdings: {
            cash: Math.max(0, held('Sell', 'Cash') - reserved),
            reserved,
            margin: held('Sell', 'MarginTrading'),
            short: held('Buy', 'ShortSelling'),
          },
        },
      };
    }
    const derivative = info as FuturesInfo | OptionInfo;
    const net = this.ledger.netContracts(record.accountKey, info.code);
    return {
      market: 'futures',
      order,
      instrument: {
        ticks,
        limitUp,
        limitDown,
        securityType,
        exchange,
        code,
        referencePrice,
        multiplier: derivative.multiplier,
        marginPerContract: this.marginPerContract(info),
        expiredOn:
          this.clock.now() >= expiryCloseAt(derivative.last_trading_date) ? derivative.last_trading_date : undefined,
      },
      phase,
      account: {
        availableMargin: this.availableMargin(record.accountKey),
        coverableContracts: order.action === 'Buy' ? Math.max(0, -net) : Math.max(0, net),
      },
    };
  }

  /** The grid and limits an order's prices are checked on: the ones the market trades the contract on today. */
  priceFactsOf(info: ContractInfo): PriceFacts {
    return this.market.tape(info, this.sessions.dayAt(marketOf(info), this.clock.now())).rules!;
  }

  /** The day's close once the closing auction printed (exchange mode); null before, and always in always-open. */
  private closePriceOf(info: ContractInfo): number | null {
    if (this.mode !== 'exchange') return null;
    const now = this.clock.now();
    const day = this.sessions.dayAt('stock', now);
    const session = this.market.session('stock', day);
    return now >= session.auctions[0]! ? this.market.daily.closeOf(info.code, day) : null;
  }

  marginPerContract(info: ContractInfo): number {
    return contractMargin(info, this.market).initial;
  }

  /** Shares of a Cash holding a sell may take now: net of working sells and of today's share reserves. */
  sellableShares(accountKey: string, code: string): number {
    this.ledger.open(accountKey, 'S');
    const held = this.ledger.heldShares(accountKey, code, 'Cash') - this.openShares(accountKey, code, 'Sell', 'Cash');
    return Math.max(0, held - this.reserves.reservedShares(accountKey, code));
  }

  /** Buying power for stock orders: cash less what working stock orders need and what is earmarked today. */
  availableCash(accountKey: string): number {
    this.ledger.open(accountKey, 'S');
    return this.ledger.cash(accountKey) - this.reservedCash(accountKey) - this.reserves.earmarkedCash(accountKey);
  }

  /** Shares that working orders of a kind (a day-trade short sale aside) will take from a position. */
  private openShares(accountKey: string, code: string, action: 'Buy' | 'Sell', cond: StockOrderCond): number {
    let shares = 0;
    for (const record of this.orders.workingOf(accountKey)) {
      const { order, status } = record.trade;
      if (record.trade.contract.code !== code || order.action !== action || !isStockTradeOrder(order)) continue;
      if (order.order_cond !== cond || record.daytradeShort) continue;
      shares += orderShares(order.order_lot, openQuantity(status));
    }
    return shares;
  }

  /** Cash that working stock orders will need: what each would need if it were placed now for what is left. */
  private reservedCash(accountKey: string): number {
    let reserved = 0;
    for (const record of this.orders.workingOf(accountKey)) {
      const { order, status } = record.trade;
      if (!isStockTradeOrder(order)) continue;
      const info = this.orders.infoOf(record) as StockInfo;
      const left = { daytrade_short: record.daytradeShort, ...order, quantity: openQuantity(status) };
      reserved += stockOrderCashNeed(left, { limitUp: info.limit_up, ...stockMarginRatios(info) });
    }
    return reserved;
  }

  availableMargin(accountKey: string): number {
    this.ledger.open(accountKey, 'F');
    return this.ledger.cash(accountKey) - this.reservedMargin(accountKey);
  }

  /** Margin held by open positions (short options and futures; long options paid in full) and working orders. */
  private reservedMargin(accountKey: string): number {
    let reserved = 0;
    for (const position of this.ledger.futuresPositions(accountKey)) {
      if (position.securityType === 'OPT' && position.direction === 'Buy') continue;
      const info = this.contracts.current().find(position.code);
      const net = Math.abs(this.ledger.netContracts(accountKey, position.code));
      if (info) reserved += net * this.marginPerContract(info);
    }
    for (const record of this.orders.workingOf(accountKey)) {
      if (isStockTradeOrder(record.trade.order)) continue;
      reserved += openQuantity(record.trade.status) * this.marginPerContract(this.orders.infoOf(record));
    }
    for (const combo of this.orders.workingCombosOf(accountKey)) {
      const { status, contract } = combo.trade;
      const open = openQuantity(status);
      for (const leg of contract.legs) {
        const info = this.contracts.current().find(leg.code);
        if (info) reserved += open * this.marginPerContract(info);
      }
    }
    return reserved;
  }
}
