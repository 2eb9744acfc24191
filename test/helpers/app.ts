// A gateway app on a fixed simulated instant, driven through app.inject() (no sockets).

import { join } from 'node:path';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { type AppOptions, buildApp } from '../../src/server/app.js';
import { simGateway } from './gateway.js';

/** Monday 2026-11-23 10:00 Taiwan time: a trading day in continuous session. */
export const MONDAY_MORNING = taipeiInstant('2026-11-23', '10:00');

export async function testApp(
  at = MONDAY_MORNING,
  apiKey: string | null = null,
  rateLimits = false,
  agentHarness?: AppOptions['agentHarness'],
) {
  const clock = new ManualClock(at);
  const { gateway, broker } = simGateway({ clock, seed: 1, clockMode: 'always-open', apiKey });
  const app = await buildApp({
    gateway,
    bindHost: '127.0.0.1',
    rateLimits,
    agentHarness,
    identity: { version: 'test', scheme: 'http', protocols: ['HTTP/1.1'], startedAt: Date.now() },
  });
  await app.ready();
  return { app, broker, gateway, clock };
}

/** A gateway app that keeps its subscriptions in `<home>/subscriptions.json` and restores them when told. */
export async function appWithSubscriptions(home: string, restore = true) {
  const clock = new ManualClock(MONDAY_MORNING);
  const { gateway } = simGateway({ clock, seed: 1, clockMode: 'always-open', apiKey: null });
  const app = await buildApp({
    gateway,
    bindHost: '127.0.0.1',
    rateLimits: false,
    identity: { version: 'test', scheme: 'http', protocols: ['HTTP/1.1'], startedAt: Date.now() },
    streams: { subscriptionsFile: join(home, 'subscriptions.json'), restore },
  });
  await app.ready();
  return app;
}
