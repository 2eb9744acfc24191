// The simulator against the venue port's conformance suite: a SimBroker on a manual clock at a Monday morning in
// continuous trading, seed 1, with its journal in memory.

import { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { describeVenueConformance } from './conformance.js';

describeVenueConformance('simulator', async () => {
  const clock = new ManualClock(taipeiInstant('2026-11-23', '10:00'));
  const broker = new SimBroker({ clock, seed: 1, clockMode: 'always-open', apiKey: null });
  return {
    broker,
    // What the simulator's timers do as its clock runs (SimBroker.start): the feed publishes what traded and the
    // working orders meet those trades; then the turn's journal writes commit and their order events go out.
    async advance(ms) {
      clock.advance(ms);
      broker.feed.step();
      broker.orders.sync();
      await broker.orders.durable();
    },
    close: () => broker.close(),
  };
});
