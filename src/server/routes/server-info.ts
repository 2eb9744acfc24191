// Server identity and health.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import { SERVER_ROUTES } from '../../contract/paths.js';
import { taipeiIso } from '../../domain/time.js';
import type { Gateway } from '../../gateway/gateway.js';

export interface ServerIdentity {
  version: string;
  scheme: 'http' | 'https';
  protocols: string[];
  startedAt: number;
}

export function serverInfoRoutes(gateway: Gateway, identity: ServerIdentity): FastifyPluginAsync {
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
              version: Type.String(),
              api_version: Type.String({ description: 'the Shioaji HTTP API version this server follows' }),
              description: Type.String(),
              protocols: Type.Array(Type.String()),
              scheme: Type.Enum(['http', 'https']),
              uds_plaintext: Type.Boolean(),
              simulation: Type.Boolean(),
              sim_clock: Type.Union([Type.String(), Type.Null()], {
                description: 'always-open or exchange in simulation; null in production',
              }),
              sim_time: Type.Union([Type.String(), Type.Null()], {
                description:
                  "the simulator's clock now (SJ_SIM_START may set it apart from the wall clock), ISO 8601 in Taiwan time; null in production",
              }),
            }),
          },
        },
      },
      async () => ({
        name: 'sjgate',
        version: identity.version,
        api_version: '1.7.0',
        description: 'Shioaji trading API gateway for the Taiwan market over HTTP',
        protocols: identity.protocols,
        scheme: identity.scheme,
        uds_plaintext: true,
        simulation: gateway.identity.simulation,
        sim_clock: gateway.identity.simClock,
        sim_time: gateway.identity.simulation ? taipeiIso(gateway.clock.now()) : null,
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
              version: Type.String(),
              timestamp: Type.String(),
              uptime_seconds: Type.Number(),
              contract_count: Type.Integer(),
              simulation: Type.Boolean(),
            }),
          },
        },
      },
      async () => ({
        status: 'healthy',
        version: identity.version,
        timestamp: new Date().toISOString(),
        uptime_seconds: Math.round((Date.now() - identity.startedAt) / 100) / 10,
        contract_count: await gateway.contracts.count(),
        simulation: gateway.identity.simulation,
      }),
    );
  };
}
