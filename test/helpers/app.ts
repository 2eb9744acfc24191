// A gateway app on a fixed simulated instant, driven through app.inject() (no sockets).

import { SimBroker } from '../../src/broker/sim/sim-broker.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { buildApp } from '../../src/server/app.js';

/** Monday 2026-11-23 10:00 Taiwan time: a trading day in continuous session. */
export const MONDAY_MORNING = taipeiInstant('2026-11-23', '10:00');

export async function testApp(at = MONDAY_MORNING, apiKey: string | null = null, rateLimits = false) {
  const clock = new ManualClock(at);
  const broker = new SimBroker({ clock, seed: 1, clockMode: 'always-open', apiKey });
  const app = await buildApp({
    broker,
    bindHost: '127.0.0.1',
    rateLimits,
    identity: { version: 'test', scheme: 'http', protocols: ['HTTP/1.1'], startedAt: Date.now() },
  });
  await app.ready();
  return { app, broker, clock };
}
