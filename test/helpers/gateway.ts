// A gateway over the simulated exchange, as the daemon builds it (src/server/main.ts), for tests that need the
// exchange's own parts too (its clock-driven feed, its contracts, synchronously).

import type { SimBroker, SimBrokerOptions } from '../../src/broker/sim/sim-broker.js';
import { SimVenue } from '../../src/broker/sim/sim-venue.js';
import { Gateway, type GatewayOptions } from '../../src/gateway/gateway.js';
import { tradeJson } from '../../src/server/trade-json.js';

/** With the server's Trade JSON unless the options say otherwise (`tradeJson: undefined` for none). */
export function simGateway(options: SimBrokerOptions & GatewayOptions): { gateway: Gateway; broker: SimBroker } {
  const venue = new SimVenue(options);
  const gateway = Gateway.open(venue, { tradeJson, ...options });
  return { gateway, broker: venue.exchange };
}
