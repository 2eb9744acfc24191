// A simulated broker on a manual clock at a time of a day, with every market event it publishes collected and a
// `run(ms)` that moves the market on in steps of `stepMs`: what the stream tests of the simulator share.

import { SimBroker } from '../../src/broker/sim/sim-broker.js';
import type { MarketEvent } from '../../src/domain/quotes.js';
import type { ClockMode } from '../../src/domain/sessions.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';

export function simBrokerAt(day: string, time: string, stepMs: number, clockMode: ClockMode = 'exchange') {
  const clock = new ManualClock(taipeiInstant(day, time));
  const broker = new SimBroker({ clock, seed: 1, clockMode, apiKey: null });
  const events: MarketEvent[] = [];
  broker.quotes.onMarketEvent((event) => events.push(event));
  const run = (ms: number) => {
    for (let t = 0; t < ms; t += stepMs) {
      clock.advance(stepMs);
      broker.feed.step();
    }
  };
  return { clock, broker, events, run };
}
