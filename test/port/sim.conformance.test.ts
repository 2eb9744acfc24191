// The simulator against the venue port's conformance suite: a SimVenue over a SimBroker on a manual clock at a Monday
// morning in continuous trading, seed 1.

import { SimVenue } from '../../src/broker/sim/sim-venue.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { describeVenueConformance } from './conformance.js';

describeVenueConformance('simulator', async () => {
  const clock = new ManualClock(taipeiInstant('2026-11-23', '10:00'));
  const venue = new SimVenue({ clock, seed: 1, clockMode: 'always-open', apiKey: null });
  const { exchange } = venue;
  return {
    venue,
    // What the simulator's timers do as its clock runs (SimBroker.start): the feed publishes what traded and the
    // working orders meet those trades.
    async advance(ms) {
      clock.advance(ms);
      exchange.feed.step();
      exchange.orders.sync();
    },
  };
});
