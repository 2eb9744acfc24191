// The contract_event stream of the simulator: after each scheduled refresh, one CHECK event per security type saying
// whether its contracts changed.

import { type ContractEvent, SECURITY_TYPES } from '../../domain/contracts.js';
import type { Clock } from '../../domain/time.js';

export class ContractEvents {
  private readonly listeners = new Set<(event: ContractEvent) => void>();
  private lastEventId = 0;

  constructor(private readonly clock: Clock) {}

  on(listener: (event: ContractEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Publishes the CHECK events of a refresh: stocks, indices and warrants roll apart from futures and options. */
  publishChecks(rolled: { stocks: boolean; derivatives: boolean }): void {
    const publishedAt = new Date(this.clock.now()).toISOString();
    for (const securityType of SECURITY_TYPES) {
      const changed = securityType === 'FUT' || securityType === 'OPT' ? rolled.derivatives : rolled.stocks;
      const event: ContractEvent = {
        event_id: ++this.lastEventId,
        action: 'CHECK',
        region: 'TW',
        security_type: securityType,
        published_at: publishedAt,
        base_changed: changed,
        info_changed: changed,
        info_scope: changed ? 'ALL' : null,
        info_shards: [],
      };
      for (const listener of this.listeners) listener(event);
    }
  }
}
