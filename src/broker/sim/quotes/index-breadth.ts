// An index's market breadth at any instant: how many of its member stocks have not traded yet, are locked at
// limit-up, up, flat, down, or locked at limit-down, and how many trades they made so far. Members are the
// simulated catalog's stocks of the index's market (TAIEX: TWSE stocks, TPEx index: TPEx stocks) or sector.

import type { StockInfo } from '../../../domain/contracts.js';
import { type ChangeType, changeTypeOf } from '../../../domain/market-data.js';
import { LISTED_SECURITIES, type ListedSecurity } from '../catalog/listed-securities.js';
import type { SimMarket } from '../market/market.js';
import { digestCount } from '../market/tape-digest.js';

/** Which listed securities each index covers; sector indices cover their TWSE industry code. */
export const MEMBERSHIP: Record<string, (security: ListedSecurity) => boolean> = {
  IX0001: (s) => s.exchange === 'TSE' && s.kind === 'stock',
  IX0043: (s) => s.exchange === 'OTC' && s.kind === 'stock',
  IX0010: (s) => s.exchange === 'TSE' && s.category === '01',
  IX0011: (s) => s.exchange === 'TSE' && s.category === '02',
  IX0012: (s) => s.exchange === 'TSE' && s.category === '03',
};

/** Indices whose quotes carry the market-wide category totals (Fund*, Stock*, ...). */
export const MARKET_WIDE_INDICES: ReadonlySet<string> = new Set(['IX0001', 'IX0043']);

export interface Breadth {
  noTrade: number;
  /** Members that traded, by where their last price stands. */
  byChange: Record<ChangeType, number>;
  /** Trades of all members so far. */
  trades: number;
}

interface Member {
  info: StockInfo;
  reference: number;
  limits: { up: number; down: number };
}

/** The members of an index on a day, read from their digests as far as each instant asked (market.figures). */
export class IndexBreadth {
  private readonly members: Member[];

  constructor(
    private readonly market: SimMarket,
    indexCode: string,
    private readonly day: string,
  ) {
    const isMember = MEMBERSHIP[indexCode] ?? (() => false);
    this.members = LISTED_SECURITIES.filter(isMember).map((security) => {
      const info: StockInfo = market.listings.stockOn(security.code, day);
      return {
        info,
        reference: info.reference,
        limits: { up: info.limit_up, down: info.limit_down },
      };
    });
  }

  at(epochMs: number): Breadth {
    const byChange = { LimitUp: 0, Up: 0, Unchanged: 0, Down: 0, LimitDown: 0 };
    const breadth: Breadth = { noTrade: 0, byChange, trades: 0 };
    for (const member of this.members) {
      const digest = this.digestOf(member, epochMs);
      const count = digestCount(digest, epochMs);
      breadth.trades += count;
      if (count === 0) {
        breadth.noTrade++;
        continue;
      }
      byChange[changeTypeOf(digest.prices[count - 1]!, member.reference, member.limits)]++;
    }
    return breadth;
  }

  private digestOf(member: Member, epochMs: number) {
    return this.market.figures.digest(member.info, this.day, epochMs);
  }

  /** Trades of all members so far, without the breadth. */
  tradesAt(epochMs: number): number {
    let trades = 0;
    for (const member of this.members) trades += digestCount(this.digestOf(member, epochMs), epochMs);
    return trades;
  }
}
