// The components of IX0001 or IX0043 on one day, with their tape digests, as the index analytics read them: at any
// instant each one's last price, its turnover so far and when it last traded, decomposed into points and industries
// by the domain's rules (domain/index-components.ts).

import type { StockInfo } from '../../../domain/contracts.js';
import {
  type ComponentQuote,
  decomposeIndex,
  type IndexDecomposition,
  type MarketPhase,
} from '../../../domain/index-components.js';
import { isTrading, type TradingSession } from '../../../domain/sessions.js';
import { taipeiIso } from '../../../domain/time.js';
import { industryName, issuedShares } from '../catalog/industries.js';
import { LISTED_SECURITIES } from '../catalog/listed-securities.js';
import type { SimMarket } from '../market/market.js';
import { digestCount } from '../market/tape-digest.js';
import { MEMBERSHIP } from './index-breadth.js';

interface Member {
  code: string;
  exchange: string;
  category: string;
  reference: number;
  suspended: boolean;
  shares: number;
  info: StockInfo;
}

export class IndexMembers {
  private readonly members: Member[];
  private readonly session: TradingSession;

  constructor(
    private readonly market: SimMarket,
    readonly indexCode: string,
    readonly day: string,
    /** The index's reference level: its previous close. */
    readonly reference: number,
  ) {
    const isMember = MEMBERSHIP[indexCode] ?? (() => false);
    this.session = market.session('stock', day);
    this.members = LISTED_SECURITIES.filter(isMember).map((security) => {
      const info = market.listings.stockOn(security.code, day);
      return {
        code: security.code,
        exchange: security.exchange,
        category: security.category,
        reference: info.reference,
        suspended: info.trading_suspended,
        shares: issuedShares(security),
        info,
      };
    });
  }

  /** Each component as it stands at an instant (epoch ms). */
  quotesAt(epochMs: number): ComponentQuote[] {
    return this.members.map((member) => {
      const digest = this.market.figures.digest(member.info, this.day, epochMs);
      const count = member.suspended ? 0 : digestCount(digest, epochMs);
      const traded = count > 0;
      return {
        code: member.code,
        exchange: member.exchange,
        category: member.category,
        reference: member.reference,
        price: traded ? digest.prices[count - 1]! : member.reference,
        traded,
        suspended: member.suspended,
        shares: member.shares,
        amount: traded ? digest.amounts[count - 1]! : 0,
        tradedAt: traded ? Math.floor(digest.times[count - 1]! / 1000) : null,
      };
    });
  }

  decompositionAt(epochMs: number): IndexDecomposition {
    return decomposeIndex(this.reference, this.quotesAt(epochMs), industryName, taipeiIso);
  }

  /** Where the stock market's day stands at an instant. */
  phaseAt(epochMs: number): MarketPhase {
    if (isTrading(this.session, epochMs)) return 'continuous_trading';
    const first = this.session.continuous[0];
    if (first && epochMs < first.start) return epochMs >= first.start - 30 * 60_000 ? 'opening_auction' : 'closed';
    const closing = this.session.auctions[0];
    if (closing !== undefined && epochMs <= closing) return 'closing_auction';
    return 'closed';
  }
}
