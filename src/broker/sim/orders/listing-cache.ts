// A code's listing as of a day, as SimMarket builds it (one object per call), kept for the next order or pass that
// asks: working orders span few codes and days.

import type { ContractInfo } from '../../../domain/contracts.js';
import type { SimMarket } from '../market/market.js';
import type { DayAndPhase } from './day-and-phase.js';
import type { OrderRecord } from './trade-records.js';

const CACHE_SIZE = 1024;

export class ListingCache {
  private readonly listed = new Map<string, ContractInfo>();

  constructor(
    private readonly market: SimMarket,
    private readonly sessions: DayAndPhase,
  ) {}

  /** The code as listed on a day; undefined when it was not listed then. */
  on(code: string, day: string): ContractInfo | undefined {
    const key = `${code}|${day}`;
    const known = this.listed.get(key);
    if (known) return known;
    const info = this.market.listings.infoOn(code, day);
    if (!info) return undefined;
    // A full cache belongs to days gone by.
    if (this.listed.size >= CACHE_SIZE) this.listed.clear();
    this.listed.set(key, info);
    return info;
  }

  /** The listing an order trades: of the day its cursor is on, or the day it was placed. */
  of(record: OrderRecord): ContractInfo {
    const day = record.cursor?.day ?? this.sessions.dayAt(record.market, record.placedAt);
    const info = this.on(record.trade.contract.code, day);
    if (!info) throw new Error(`order ${record.trade.order.id}: ${record.trade.contract.code} is not listed on ${day}`);
    return info;
  }
}
