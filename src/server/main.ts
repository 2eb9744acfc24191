// Starts the gateway in this process: the broker, the HTTP app, and its TCP and Unix-socket listeners.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ShioajiVenue, UpstreamStartError } from '../broker/shioaji/shioaji-venue.js';
import { SimVenue } from '../broker/sim/sim-venue.js';
import { ConfigError, type GatewayConfig } from '../config.js';
import { type Clock, clockStartingAt, systemClock } from '../domain/time.js';
import { Gateway } from '../gateway/gateway.js';
import { VenueCalls } from '../gateway/venue-calls.js';
import { createRequestLogger } from '../log.js';
import { bridgePython } from '../python-env.js';
import { VERSION } from '../version.js';
import { buildApp } from './app.js';
import { createDataHome, JOURNAL_FILE, tightenDataHome } from './data-home.js';
import { closeSocketServer, listenOnSocket } from './listen.js';
import { tradeJson } from './trade-json.js';

export interface RunningGateway {
  /** Where the TCP listener ended up (port 0 in the config picks a free one). */
  host: string;
  port: number;
  socketPath: string;
  /** Stops accepting, ends open connections, closes both listeners. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** The clock the simulator runs on; by default the system clock, or one starting at SJ_SIM_START. */
  clock?: Clock | undefined;
}

export async function startGateway(
  config: GatewayConfig,
  log: (line: string) => void,
  options: StartOptions = {},
): Promise<RunningGateway> {
  createDataHome(config.homePath);
  const venue = config.backend === 'shioaji' ? await openShioaji(config, log) : openSimulator(config, options);
  let gateway: Gateway | null = null;
  try {
    // The monitor's measure of the calls to the venue: the gateway makes them, the monitor (in the app) listens.
    const venueCalls = new VenueCalls();
    const journalPath = join(config.homePath, JOURNAL_FILE);
    gateway = Gateway.open(venue, { journalPath, log, venueCalls, tradeJson });
    return await serve(config, gateway, venue, venueCalls, log);
  } catch (error) {
    // Whatever was started stops: a sidecar left running would hold SinoPac's connection and this process.
    await (gateway ?? venue).close().catch(() => undefined);
    throw error;
  }
}

async function serve(
  config: GatewayConfig,
  gateway: Gateway,
  venue: SimVenue | ShioajiVenue,
  venueCalls: VenueCalls,
  log: (line: string) => void,
): Promise<RunningGateway> {
  const contractCount = await gateway.contracts.count();
  gateway.start();
  const https = config.tls
    ? { key: readFileSync(config.tls.keyPath), cert: readFileSync(config.tls.certPath) }
    : undefined;
  const requestLog = config.requestLog === 'off' ? null : createRequestLogger();
  const app = await buildApp({
    gateway,
    bindHost: config.host,
    corsOrigins: config.corsOrigins,
    corsLoopback: config.corsLoopback,
    credentials:
      config.apiKey !== null && config.secretKey !== null
        ? { apiKey: config.apiKey, secretKey: config.secretKey }
        : null,
    requireAuth: config.httpAuth,
    https,
    // SinoPac suspends an account over its limits, so with it they hold whatever SJ_SIM_LIMITS says.
    rateLimits: config.backend === 'shioaji' || config.simLimits,
    appsDir: join(config.homePath, 'apps'),
    agentHarness: config.agentHarness,
    monitor: {
      files: {
        settings: join(config.homePath, 'monitor.json'),
        metrics: join(config.homePath, 'monitor-metrics.json'),
      },
      venueCalls,
    },
    requestLog: requestLog ? { logger: requestLog.logger, errorsOnly: config.requestLog === 'errors' } : undefined,
    streams: {
      subscriptionsFile: join(config.homePath, 'subscriptions.json'),
      restore: config.restoreSubscriptions,
    },
    identity: {
      version: VERSION,
      scheme: https ? 'https' : 'http',
      protocols: https ? ['HTTP/1.1', 'HTTP/2'] : ['HTTP/1.1'],
      startedAt: Date.now(),
    },
  });
  await app.ready();
  tightenDataHome(config.homePath, log);
  const socketServer = await listenOnSocket(app, config.socketPath);
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await closeSocketServer(socketServer, config.socketPath);
    await app.close();
    throw listenError(error, config);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const scheme = https ? 'https' : 'http';
  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  log(`sjgate ${VERSION} (${describeVenue(config, venue)}): ${contractCount} contracts`);
  const restored = app.streams.restored;
  if (restored && restored.restored + restored.failed.length > 0) {
    log(`restored ${restored.restored} subscriptions (SJ_RESTORE_SUBSCRIPTIONS=false turns this off)`);
    for (const { subscription, reason } of restored.failed) log(`could not restore ${subscription}: ${reason}`);
  }
  if (config.agentHarness.mode !== 'off') {
    const secret = config.agentHarness.secret === null ? 'no secret: protected calls are refused' : 'secret from file';
    log(`agent harness: SJ_AGENT_HARNESS=${config.agentHarness.mode} (${secret})`);
  }
  log(`listening on ${scheme}://${shownHost}:${port} and ${config.socketPath}`);
  return {
    host: config.host,
    port,
    socketPath: config.socketPath,
    async close() {
      await closeSocketServer(socketServer, config.socketPath);
      await app.close();
      await gateway.close();
      requestLog?.flush();
    },
  };
}

function openSimulator(config: GatewayConfig, options: StartOptions): SimVenue {
  const clock = options.clock ?? (config.simStart === null ? systemClock : clockStartingAt(config.simStart));
  return new SimVenue({
    clock,
    seed: config.simSeed,
    clockMode: config.simClock,
    apiKey: config.apiKey,
    startingFunds: { startingCash: config.simStartingCash, startingCollateral: config.simStartingCollateral },
  });
}

async function openShioaji(config: GatewayConfig, log: (line: string) => void): Promise<ShioajiVenue> {
  const python = config.python ?? bridgePython({ SJ_HOME_PATH: config.homePath }).path;
  log(
    `starting the SinoPac session (${config.production ? 'production' : "SinoPac's simulation environment"}) with ${python}`,
  );
  try {
    return await ShioajiVenue.open({
      python,
      credentials: { apiKey: config.apiKey ?? '', secretKey: config.secretKey ?? '' },
      ca:
        config.caPath !== null && config.caPassword !== null
          ? { path: config.caPath, password: config.caPassword }
          : null,
      simulation: !config.production,
      receiveWindowMs: config.receiveWindowMs,
      log,
    });
  } catch (error) {
    if (error instanceof UpstreamStartError) throw new ConfigError(error.message);
    throw error;
  }
}

function describeVenue(config: GatewayConfig, venue: SimVenue | ShioajiVenue): string {
  const upstream = venue instanceof ShioajiVenue ? venue.upstream() : null;
  if (!upstream) return `simulation, clock ${config.simClock}, seed ${config.simSeed}`;
  const scripted = upstream.scripted ? ', SCRIPTED: nothing reaches SinoPac' : '';
  return `SinoPac ${upstream.environment}, shioaji ${upstream.sdk}, bridge ${upstream.bridge}${scripted}`;
}

function listenError(error: unknown, config: GatewayConfig): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new ConfigError(
      `port ${config.port} on ${config.host} is in use; stop that process or choose another with --port or SJ_HTTP_ADDR`,
    );
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new ConfigError(`cannot listen on ${config.host}: it is not an address of this machine`);
  }
  return error as Error;
}
