// The simulator as a Broker: the default backend, deterministic for a seed and a clock.

import type { Clock } from '../../domain/time.js';
import type { Broker } from '../port.js';
import { SimAccounts } from './accounts.js';
import { baselineReferences, type ReferencePrices } from './catalog/references.js';
import { SimContracts } from './contracts.js';

export interface SimBrokerOptions {
  clock: Clock;
  seed: number;
  clockMode: 'always-open' | 'exchange';
  apiKey: string | null;
  prices?: ReferencePrices;
}

export class SimBroker implements Broker {
  readonly simulation = true;
  readonly clockMode: string;
  readonly contracts: SimContracts;
  readonly accounts: SimAccounts;

  constructor(options: SimBrokerOptions) {
    this.clockMode = options.clockMode;
    this.contracts = new SimContracts(options.clock, options.seed, options.prices ?? baselineReferences);
    this.accounts = new SimAccounts(options.apiKey);
  }

  async close(): Promise<void> {}
}
