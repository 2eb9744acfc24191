// The Fastify application: conventions (validation, errors, guards), docs, and one plugin per API area.

import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { type AgentHarnessConfig, ConfigError, isLoopbackHost, NON_LOOPBACK_NEEDS_KEYS } from '../config.js';
import { API_PREFIX } from '../contract/paths.js';
import type { Gateway } from '../gateway/gateway.js';
import { AppStore } from './apps/store.js';
import { Monitor, type MonitorOptions } from './monitor/monitor.js';
import { registerOpenApi } from './openapi.js';
import { AgentHarness, agentHarnessPlugin } from './plugins/agent-harness.js';
import { bearerAuthPlugin, tokenCheck } from './plugins/bearer-auth.js';
import { answerNotFound, errorsPlugin, handleClientError, handleFrameworkError } from './plugins/errors.js';
import { FastLane } from './plugins/fast-lane.js';
import { limitsPlugin } from './plugins/limits.js';
import { RequestLogController } from './plugins/request-log.js';
import { requestMetricsPlugin } from './plugins/request-metrics.js';
import { guardsPlugin, hostAndOriginGuards } from './plugins/security.js';
import { serializationPlugin } from './plugins/serialization.js';
import { validationPlugin } from './plugins/validation.js';
import { agentHarnessRoutes } from './routes/agent-harness.js';
import { appPagesRoutes, appsRoutes } from './routes/apps.js';
import { authRoutes } from './routes/auth.js';
import { contractsRoutes } from './routes/contracts.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { derivedStreamRoutes } from './routes/derived-streams.js';
import { indexStreamRoutes } from './routes/index-streams.js';
import { marketDataRoutes } from './routes/market-data.js';
import { monitorRoutes } from './routes/monitor.js';
import { orderRoutes } from './routes/orders.js';
import { portfolioRoutes } from './routes/portfolio.js';
import { reserveRoutes } from './routes/reserve.js';
import { scannerStreamRoutes } from './routes/scanner-stream.js';
import { type ServerIdentity, serverInfoRoutes } from './routes/server-info.js';
import { streamRoutes } from './routes/streams.js';
import { watchlistRoutes } from './routes/watchlists.js';
import { type StreamOptions, startStreams } from './sse/services.js';

export interface AppOptions {
  gateway: Gateway;
  identity: ServerIdentity;
  /** The TCP bind address, for the Host check. */
  bindHost: string;
  /** Origins besides this server's and loopback pages that may call the API (SJ_HTTP_CORS_ORIGINS). */
  corsOrigins?: readonly string[] | undefined;
  /** Whether pages on any loopback port may call the API (SJ_HTTP_CORS_LOOPBACK). */
  corsLoopback?: boolean | undefined;
  /** Required of TCP clients when the bind address is not loopback. */
  credentials?: { apiKey: string; secretKey: string } | null | undefined;
  /** Check the credentials on TCP even on a loopback bind (SJ_HTTP_AUTH). */
  requireAuth?: boolean | undefined;
  https?: { key: Buffer; cert: Buffer } | undefined;
  /** Production's call-rate limits (SJ_SIM_LIMITS); on unless turned off. */
  rateLimits?: boolean | undefined;
  /** Subscriptions file and restore, replay buffer and client buffer sizes. */
  streams?: StreamOptions | undefined;
  /** Where hosted apps are kept (`<home>/apps`); without it the apps API and /apps/ are absent. */
  appsDir?: string | undefined;
  /** Where the request log goes (see createLogger), and whether only failed requests are logged; none without it. */
  requestLog?: { logger: FastifyBaseLogger; errorsOnly: boolean } | undefined;
  /** The agent harness (SJ_AGENT_HARNESS); off without it. `now` is the verifier's clock (epoch ms), for tests. */
  agentHarness?: (AgentHarnessConfig & { now?: () => number }) | undefined;
  /** Where the monitor keeps its settings and metrics (in memory without), its clock and timers (for tests). */
  monitor?: Partial<MonitorOptions> | undefined;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { gateway, identity } = options;
  if ((options.requireAuth || !isLoopbackHost(options.bindHost)) && !options.credentials) {
    throw new ConfigError(NON_LOOPBACK_NEEDS_KEYS);
  }
  const common = { ...COMMON, ...loggerOptions(options.requestLog) };
  const lane = new FastLane();
  const app = (options.https
    ? Fastify({ http2: true, https: { allowHTTP1: true, ...options.https }, ...common })
    : Fastify({ ...common, serverFactory: lane.serverFactory })) as unknown as FastifyInstance;
  app.decorate('fastLane', lane);
  await app.register(errorsPlugin);
  await app.register(validationPlugin);
  await app.register(serializationPlugin);
  const guards = hostAndOriginGuards(options);
  await app.register(guardsPlugin, guards);
  await app.register(limitsPlugin, {
    enabled: options.rateLimits ?? true,
    clock: gateway.clock,
    governor: gateway.rates,
    traffic: gateway.traffic,
  });
  const harness = new AgentHarness({
    ...(options.agentHarness ?? { mode: 'off', secret: null, bootstrap: 'none' }),
    simulation: gateway.identity.simulation,
  });
  await app.register(agentHarnessPlugin, { harness });
  const streams = await startStreams(gateway, options.streams);
  app.decorate('streams', streams);
  app.addHook('onClose', async () => streams.close());
  const monitor = new Monitor(streams.hub, { files: null, ...options.monitor });
  app.addHook('onClose', async () => monitor.close());
  await app.register(requestMetricsPlugin, { monitor });
  const store = options.appsDir === undefined ? null : await AppStore.open(options.appsDir);

  // Public: the docs, health and info, the dashboard and the pages of hosted apps.
  await registerOpenApi(app, identity.version);
  await app.register(serverInfoRoutes(gateway, identity, harness), { prefix: API_PREFIX });
  // Protected: every other route of the API. A gateway bound to loopback needs no token, unless asked to.
  const credentials = isLoopbackHost(options.bindHost) && !options.requireAuth ? null : options.credentials;
  const token = credentials ? tokenCheck(credentials) : null;
  await app.register(
    async (api) => {
      if (token) await api.register(bearerAuthPlugin, { check: token });
      // Its own 404, so that an unknown path of the API needs the token too, as any other of its paths does.
      api.setNotFoundHandler(answerNotFound);
      await api.register(authRoutes(gateway));
      await api.register(contractsRoutes(gateway, lane));
      await api.register(marketDataRoutes(gateway));
      await api.register(orderRoutes(gateway));
      await api.register(portfolioRoutes(gateway));
      await api.register(reserveRoutes(gateway));
      await api.register(streamRoutes(gateway, streams));
      await api.register(derivedStreamRoutes(gateway, streams));
      await api.register(indexStreamRoutes(gateway, streams));
      await api.register(scannerStreamRoutes(streams));
      await api.register(watchlistRoutes(gateway));
      await api.register(agentHarnessRoutes(harness));
      await api.register(monitorRoutes(monitor, streams));
      if (store) await api.register(appsRoutes(store));
    },
    { prefix: API_PREFIX },
  );
  if (store) await app.register(appPagesRoutes(store));
  await app.register(dashboardRoutes());
  // The lane skips the request log's line: it opens only when the log writes failed requests alone (or none).
  if (!options.requestLog || options.requestLog.errorsOnly) {
    app.addHook('onReady', async () => lane.open({ guards, token, monitor }));
    app.addHook('preClose', async () => lane.close());
  }
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers kept GETs before Fastify does; each listener's handler puts it in front (plugins/fast-lane.ts). */
    fastLane: FastLane;
  }
}

/**
 * With a logger, the request log (one line per request); without, Fastify logs nothing. Fastify makes a child logger
 * per request to bind its id; the request log's line has no use for it, so the one logger serves every request.
 */
function loggerOptions(log: AppOptions['requestLog']) {
  if (!log) return { logger: false } as const;
  const sameLogger = (parent: FastifyBaseLogger) => parent;
  const logController = new RequestLogController(log.errorsOnly);
  return { loggerInstance: log.logger, logController, childLoggerFactory: sameLogger } as const;
}

const COMMON = {
  bodyLimit: 256 * 1024,
  forceCloseConnections: true,
  return503OnClosing: true,
  frameworkErrors: handleFrameworkError,
  clientErrorHandler: handleClientError,
  // The error handler writes the 422 from the list of problems; Fastify's default would first join all of them,
  // tens of thousands for a body full of unknown keys, into a message nobody reads.
  schemaErrorFormatter: (errors: unknown[], part: string) => new Error(`${errors.length} problems in the ${part}`),
} as const;
