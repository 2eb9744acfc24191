// The CLI program run in this process against a real gateway over the simulator (on a manual clock, always open),
// listening on a free port, under a temporary data home without a socket (so the client uses TCP).

import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { ManualClock } from '../../src/domain/time.js';
import { MONDAY_MORNING, testApp } from './app.js';
import { type Run, runSjgate } from './cli.js';

export interface SimCli {
  sjgate(...args: string[]): Promise<Run>;
  readonly clock: ManualClock;
}

/** Starts the gateway in `before` and stops it in `after` of the calling test file. */
export function simCli(at = MONDAY_MORNING, rateLimits = false): SimCli {
  const savedHome = process.env.SJ_HOME_PATH;
  let home = '';
  let app: FastifyInstance | undefined;
  let broker: { close(): Promise<void> | void } | undefined;
  let clock: ManualClock | undefined;
  let port = 0;
  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'sjgate-sim-cli-'));
    process.env.SJ_HOME_PATH = home;
    const built = await testApp(at, null, rateLimits);
    app = built.app;
    broker = built.broker;
    clock = built.clock;
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  after(async () => {
    await app?.close();
    await broker?.close();
    if (savedHome === undefined) delete process.env.SJ_HOME_PATH;
    else process.env.SJ_HOME_PATH = savedHome;
    rmSync(home, { recursive: true, force: true });
  });
  return {
    sjgate: (...args) => runSjgate(port, args),
    get clock() {
      if (clock === undefined) throw new Error('simCli: the gateway has not started');
      return clock;
    },
  };
}
