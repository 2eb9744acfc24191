// Server identity and health.

import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { SERVER_ROUTES } from '../../contract/paths.js';
import { simulatedCaExpiry } from '../../domain/account-book.js';
import { DAILY_MAINTENANCE_AT } from '../../domain/sessions.js';
import { nextTaipeiTime, taipeiIso } from '../../domain/time.js';
import type { Gateway, UpstreamState } from '../../gateway/gateway.js';
import { OFFICIAL_SERVER_VERSION } from '../../version.js';
import type { AgentHarness } from '../plugins/agent-harness.js';
import { AgentHarnessStateSchema } from './agent-harness.js';

export interface ServerIdentity {
  version: string;
  scheme: 'http' | 'https';
  protocols: string[];
  startedAt: number;
}

export function serverInfoRoutes(
  gateway: Gateway,
  identity: ServerIdentity,
  harness: AgentHarness,
): FastifyPluginAsync {
  const simulationStartedAt = gateway.clock.now();
  // Names this run of the daemon: a client that sees it change knows the daemon restarted (1.7.9 health).
  const instanceId = randomUUID();
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      SERVER_ROUTES.info,
      {
        schema: {
          tags: ['info'],
          summary: 'What this server is',
          response: {
            200: Type.Object({
              name: Type.String(),
              version: Type.String({ description: 'the official Shioaji server release whose API this serves' }),
              sjgate_version: Type.String({ description: "this gateway's own version" }),
              api_version: Type.String({ description: 'the Shioaji HTTP API version this server follows' }),
              description: Type.String(),
              protocols: Type.Array(Type.String()),
              scheme: Type.Enum(['http', 'https']),
              uds_plaintext: Type.Boolean(),
              simulation: Type.Boolean({
                description:
                  "no real money: the built-in simulator, or SinoPac's simulation environment (SJ_PRODUCTION=false)",
              }),
              backend: Type.Enum(['simulator', 'shioaji'], {
                description: 'who answers: the built-in simulator, or SinoPac through its official SDK (SJ_BACKEND)',
              }),
              sim_clock: Type.Union([Type.String(), Type.Null()], {
                description: 'always-open or exchange in simulation; null in production',
              }),
              sim_time: Type.Union([Type.String(), Type.Null()], {
                description:
                  "the simulator's clock now (SJ_SIM_START may set it apart from the wall clock), ISO 8601 in Taiwan time; null in production",
              }),
              agent_harness: AgentHarnessStateSchema,
            }),
          },
        },
      },
      async () => ({
        name: 'sjgate',
        // Clients of the official server compare version with the 1.7.x they were built for.
        version: OFFICIAL_SERVER_VERSION,
        sjgate_version: identity.version,
        api_version: OFFICIAL_SERVER_VERSION,
        description: 'Shioaji trading API gateway for the Taiwan market over HTTP',
        protocols: identity.protocols,
        scheme: identity.scheme,
        uds_plaintext: true,
        simulation: gateway.identity.simulation,
        backend: gateway.identity.venue,
        sim_clock: gateway.identity.simClock,
        sim_time: gateway.identity.simClock === null ? null : taipeiIso(gateway.clock.now()),
        agent_harness: harness.state(),
      }),
    );

    app.get(
      SERVER_ROUTES.health,
      {
        schema: {
          tags: ['health'],
          summary: 'Liveness and readiness',
          response: {
            200: Type.Object({
              status: Type.String(),
              version: Type.String({ description: 'the official Shioaji server release whose API this serves' }),
              sjgate_version: Type.String(),
              timestamp: Type.String(),
              uptime_seconds: Type.Number(),
              contract_count: Type.Integer(),
              simulation: Type.Boolean(),
              agent_harness: AgentHarnessStateSchema,
              session_recovering: Type.Boolean({
                description: 'production: the SinoPac session is being re-established; always false in simulation',
              }),
              session_recovery_attempts: Type.Integer({
                description: 'production: how many times the SinoPac session was restarted; 0 in simulation',
              }),
              instance_id: Type.String({ description: 'names this run of the daemon; new at every start' }),
              ...UpstreamHealth,
            }),
          },
        },
      },
      async () => ({
        // The daemon answers, so it is healthy (clients of the official server read it so); the SinoPac session's
        // own state is upstream.status.
        status: 'healthy',
        version: OFFICIAL_SERVER_VERSION,
        sjgate_version: identity.version,
        timestamp: new Date().toISOString(),
        uptime_seconds: Math.round((Date.now() - identity.startedAt) / 100) / 10,
        contract_count: await gateway.contracts.count(),
        simulation: gateway.identity.simulation,
        agent_harness: harness.state(),
        ...sessionRecoveryOf(gateway.upstream()),
        instance_id: instanceId,
        ...upstreamHealthOf(gateway, simulationStartedAt),
      }),
    );
  };
}

const NullableString = (description: string) =>
  Type.Optional(Type.Union([Type.String(), Type.Null()], { description }));

/** What production adds to /health: the official server's upstream fields, and the bridge's own state. */
const UpstreamHealth = {
  last_maintenance: NullableString('production: when the daily session refresh last ran (ISO 8601)'),
  next_maintenance: NullableString('production: when it runs next'),
  last_maintenance_error: NullableString('production: why the last refresh failed; null when it succeeded'),
  token_expires_in_seconds: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  token_stale: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  ca_expires_in_days: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  ca_expired: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  upstream: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description:
        'production: the SinoPac session (status, SDK and bridge versions, logins, restarts, last error and its fix)',
    }),
  ),
};

/** The 1.7.9 CLI reads these two to tell a daemon that is re-establishing its SinoPac session. */
function sessionRecoveryOf(upstream: UpstreamState | null) {
  return {
    session_recovering: upstream?.status === 'reconnecting',
    session_recovery_attempts: upstream?.restarts ?? 0,
  };
}

const TOKEN_LIFETIME_MS = 24 * 3600_000;

function upstreamHealthOf(gateway: Gateway, simulationStartedAt: number) {
  const upstream = gateway.upstream();
  return upstream ? upstreamHealth(upstream, Date.now()) : simulatedHealth(gateway.clock.now(), simulationStartedAt);
}

function upstreamHealth(upstream: UpstreamState, now: number) {
  const loggedIn = upstream.logged_in_at === null ? null : Date.parse(upstream.logged_in_at);
  const caExpires = upstream.ca_expires_at === null ? null : Date.parse(upstream.ca_expires_at);
  return {
    last_maintenance: upstream.last_maintenance,
    next_maintenance: upstream.next_maintenance,
    last_maintenance_error: upstream.last_maintenance_error,
    token_expires_in_seconds:
      loggedIn === null ? null : Math.max(0, Math.round((loggedIn + TOKEN_LIFETIME_MS - now) / 1000)),
    token_stale: loggedIn === null ? null : loggedIn + TOKEN_LIFETIME_MS <= now,
    ca_expires_in_days: caExpires === null ? null : Math.floor((caExpires - now) / 86_400_000),
    ca_expired: caExpires === null ? null : caExpires <= now,
    upstream: { ...upstream },
  };
}

/**
 * The same fields in simulation, consistent with a simulated upstream: a token renewed at each daily maintenance
 * (08:22 Taiwan time on the simulated clock, the first one after the start), and a certificate valid to the end of
 * the next year. Both instants are on the simulated clock.
 */
function simulatedHealth(now: number, startedAt: number) {
  const next = nextTaipeiTime(DAILY_MAINTENANCE_AT, now);
  const previous = next - 86_400_000;
  const last = previous >= startedAt ? previous : null;
  const tokenIssued = last ?? startedAt;
  const caExpires = Date.parse(simulatedCaExpiry(now));
  return {
    last_maintenance: last === null ? null : new Date(last).toISOString(),
    next_maintenance: new Date(next).toISOString(),
    last_maintenance_error: null,
    token_expires_in_seconds: Math.max(0, Math.round((tokenIssued + TOKEN_LIFETIME_MS - now) / 1000)),
    token_stale: false,
    ca_expires_in_days: Math.floor((caExpires - now) / 86_400_000),
    ca_expired: false,
  };
}
