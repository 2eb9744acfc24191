// POST /data/index_components in the simulator: IX0001 or IX0043 decomposed now, from the same components and rules
// as its streams (quotes/index-members.ts).

import { previousTradingDay } from '../../domain/calendar.js';
import type { IndexComponents } from '../../domain/index-components.js';
import type { ContractRef } from '../../domain/market-data.js';
import { analyticsIndexOf } from '../../domain/subscription-rules.js';
import { type Clock, taipeiIso } from '../../domain/time.js';
import type { SimContracts } from './contracts.js';
import { taipeiDateTime } from './market/history.js';
import type { SimMarket } from './market/market.js';
import { IndexMembers } from './quotes/index-members.js';

export class IndexSnapshots {
  /** The components of each index on the day last asked: building them reads every component's tape. */
  private readonly members = new Map<string, IndexMembers>();

  constructor(
    private readonly market: SimMarket,
    private readonly contracts: SimContracts,
    private readonly clock: Clock,
  ) {}

  indexComponents(ref: ContractRef): IndexComponents {
    const contract = analyticsIndexOf(this.contracts, ref, 'index_components');
    const now = this.clock.now();
    const day = this.market.dayAt('stock', now);
    let members = this.members.get(contract.code);
    if (members?.day !== day) {
      const reference = this.market.listings.indexOn(contract.code, day).reference;
      members = new IndexMembers(this.market, contract.code, day, reference);
      this.members.set(contract.code, members);
    }
    const decomposition = members.decompositionAt(now);
    const datetime = taipeiDateTime(now * 1000);
    return {
      refresh_state: 'ready',
      contract: {
        security_type: 'IND',
        region: 'TW',
        exchange: contract.exchange,
        code: contract.code,
        target_code: null,
      },
      currency: 'TWD',
      date: datetime.slice(0, 10),
      time: datetime.slice(11),
      calculated_at: taipeiIso(now),
      reference_date: previousTradingDay(day),
      market_phase: members.phaseAt(now),
      simtrade: false,
      classification: contract.exchange === 'OTC' ? 'tpex_industry' : 'twse_industry',
      weight_method: 'reference_market_cap',
      total_amount: decomposition.totalAmount,
      entries: decomposition.entries,
      groups: decomposition.groups,
    };
  }
}
