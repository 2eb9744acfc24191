// The Fastify application: conventions (validation, errors, guards), docs, and one plugin per API area.

import Fastify, { type FastifyInstance } from 'fastify';
import { ConfigError, isLoopbackHost, NON_LOOPBACK_NEEDS_KEYS } from '../config.js';
import type { Gateway } from '../gateway/gateway.js';
import { AppStore } from './apps/store.js';
import { registerBearerAuth } from './bearer-auth.js';
import { handleClientError, handleFrameworkError, registerErrorHandling } from './errors.js';
import { registerLimits } from './limits.js';
import { registerOpenApi } from './openapi.js';
import { appsRoutes } from './routes/apps.js';
import { authRoutes } from './routes/auth.js';
import { contractsRoutes } from './routes/contracts.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { marketDataRoutes } from './routes/market-data.js';
import { orderRoutes } from './routes/orders.js';
import { portfolioRoutes } from './routes/portfolio.js';
import { type ServerIdentity, serverInfoRoutes } from './routes/server-info.js';
import { streamRoutes } from './routes/streams.js';
import { registerRequestGuards } from './security.js';
import { type StreamOptions, startStreams } from './sse/services.js';
import { registerValidation } from './validation.js';

export interface AppOptions {
  gateway: Gateway;
  identity: ServerIdentity;
  /** The TCP bind address, for the Host check. */
  bindHost: string;
  /** Required of TCP clients when the bind address is not loopback. */
  credentials?: { apiKey: string; secretKey: string } | null | undefined;
  https?: { key: Buffer; cert: Buffer } | undefined;
  /** Production's call-rate limits (SJ_SIM_LIMITS); on unless turned off. */
  rateLimits?: boolean | undefined;
  /** Subscriptions file and restore, replay buffer and client buffer sizes. */
  streams?: StreamOptions | undefined;
  /** Where hosted apps are kept (`<home>/apps`); without it the apps API and /apps/ are absent. */
  appsDir?: string | undefined;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { gateway, identity } = options;
  const app = (options.https
    ? Fastify({ http2: true, https: { allowHTTP1: true, ...options.https }, ...COMMON })
    : Fastify(COMMON)) as unknown as FastifyInstance;
  // Bodies are JSON only: without this, Fastify's built-in text/plain parser hands the raw string to the route
  // (fetch() sends a string body as text/plain), which then fails as "body must be object" instead of 415.
  app.removeContentTypeParser('text/plain');
  registerValidation(app);
  registerErrorHandling(app);
  registerRequestGuards(app, options.bindHost);
  if (!isLoopbackHost(options.bindHost)) {
    if (!options.credentials) throw new ConfigError(NON_LOOPBACK_NEEDS_KEYS);
    registerBearerAuth(app, options.credentials);
  }
  registerLimits(app, {
    enabled: options.rateLimits ?? true,
    clock: gateway.clock,
    isTradingHours: (now) => gateway.identity.isStockTradingHours(now),
    traffic: gateway.traffic,
  });
  await registerOpenApi(app, identity.version);
  await app.register(serverInfoRoutes(gateway, identity));
  await app.register(authRoutes(gateway));
  await app.register(contractsRoutes(gateway));
  await app.register(marketDataRoutes(gateway));
  await app.register(orderRoutes(gateway));
  await app.register(portfolioRoutes(gateway));
  const streams = await startStreams(gateway, options.streams);
  app.decorate('streams', streams);
  app.addHook('onClose', async () => streams.close());
  await app.register(streamRoutes(gateway, streams));
  if (options.appsDir !== undefined) await app.register(appsRoutes(await AppStore.open(options.appsDir)));
  await app.register(dashboardRoutes());
  return app;
}

// No request logger: a per-request child logger costs throughput, and errors worth logging go to stderr
// (the daemon's log file) from the error handler.
const COMMON = {
  logger: false,
  bodyLimit: 256 * 1024,
  forceCloseConnections: true,
  return503OnClosing: true,
  frameworkErrors: handleFrameworkError,
  clientErrorHandler: handleClientError,
  // The error handler writes the 422 from the list of problems; Fastify's default would first join all of them,
  // tens of thousands for a body full of unknown keys, into a message nobody reads.
  schemaErrorFormatter: (errors: unknown[], part: string) => new Error(`${errors.length} problems in the ${part}`),
} as const;
