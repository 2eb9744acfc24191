// The components of IX0001 or IX0043 on one day, with their tapes, as the index analytics read them: at any instant
// each one's last price, its turnover so far and when it last traded, decomposed into points and industries by the
// domain's rules (domain/index-components.ts).

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
import { publishedCount, type Tape } from '../market/tape.js';
import { MEMBERSHIP } from './index-breadth.js';

interface Member {
  code: string;
  exchange: string;
  category: string;
  reference: number;
  suspended: boolean;
  shares: number;
  tape: Tape;
  /** Turnover (NT$) after each trade: amounts[k] is the sum over trades 0..k. */
  amounts: Float64Array;
}

export class IndexMembers {
  private readonly members: Member[];
  private readonly session: TradingSession;

  constructor(
    market: SimMarket,
    readonly indexCode: string,
    readonly day: string,
    /** The index's reference level: its previous close. */
    readonly reference: number,
  ) {
    const isMember = MEMBERSHIP[indexCode] ?? (() => false);
    this.session = market.session('stock', day);
    this.members = LISTED_SECURITIES.filter(isMember).map((security) => {
      const info = market.listings.stockOn(security.code, day);
      const tape = market.tape(info, day);
      const amounts = new Float64Array(tape.times.length);
      let sum = 0;
      for (let k = 0; k < tape.times.length; k++) {
        sum += tape.prices[k]! * tape.volumes[k]! * tape.amountUnit;
        amounts[k] = sum;
      }
      return {
        code: security.code,
        exchange: security.exchange,
        category: security.category,
        reference: info.reference,
        suspended: info.trading_suspended,
        shares: issuedShares(security),
        tape,
        amounts,
      };
    });
  }

  /** Each component as it stands at an instant (epoch ms). */
  quotesAt(epochMs: number): ComponentQuote[] {
    return this.members.map((member) => {
      const count = member.suspended ? 0 : publishedCount(member.tape, epochMs);
      const traded = count > 0;
      return {
        code: member.code,
        exchange: member.exchange,
        category: member.category,
        reference: member.reference,
        price: traded ? member.tape.prices[count - 1]! : member.reference,
        traded,
        suspended: member.suspended,
        shares: member.shares,
        amount: traded ? member.amounts[count - 1]! : 0,
        tradedAt: traded ? Math.floor(member.tape.times[count - 1]! / 1000) : null,
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
