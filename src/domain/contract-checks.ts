// The contract_event stream: after each refresh of a venue's contracts (the simulator's scheduled ones, a new SinoPac
// session's download), one CHECK event per security type saying whether its contracts changed.

import { type ContractEvent, SECURITY_TYPES, type SecurityType } from './contracts.js';
import type { Clock } from './time.js';

/** What a refresh changed of one security type: its listing (base) and the fields of its contracts (info). */
export interface ContractChanges {
  base: boolean;
  info: boolean;
}

export class ContractChecks {
  private readonly listeners = new Set<(event: ContractEvent) => void>();
  private lastEventId = 0;

  constructor(private readonly clock: Clock) {}

  on(listener: (event: ContractEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Publishes the CHECK events of one refresh. */
  publish(changes: (securityType: SecurityType) => ContractChanges): void {
    const publishedAt = new Date(this.clock.now()).toISOString();
    for (const securityType of SECURITY_TYPES) {
      const { base, info } = changes(securityType);
      const event: ContractEvent = {
        event_id: String(++this.lastEventId),
        action: 'CHECK',
        region: 'TW',
        security_type: securityType,
        published_at: publishedAt,
        base_changed: base,
        info_changed: info,
        info_scope: info ? 'ALL' : null,
        info_shards: [],
      };
      for (const listener of this.listeners) listener(event);
    }
  }
}
