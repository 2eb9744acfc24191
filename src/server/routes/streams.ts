// Stream status. The SSE hub arrives with the streaming work; until then no client can be attached.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';

const RECEIVERS_TEXT = 'Market data receivers are available for tick, bidask, quote, and order event data';

export function streamStatusRoutes(activeConnections: () => number): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/api/v1/stream/status',
      {
        schema: {
          tags: ['stream'],
          summary: 'Clients attached to SSE streams',
          response: {
            200: Type.Object({ active_connections: Type.Integer(), timestamp: Type.String(), status: Type.String() }),
          },
        },
      },
      async () => ({ active_connections: activeConnections(), timestamp: new Date().toISOString(), status: 'healthy' }),
    );
    app.get(
      '/api/v1/stream/receivers',
      {
        schema: {
          tags: ['stream'],
          summary: 'Which stream receivers exist (plain text)',
          produces: ['text/plain'],
          response: { 200: Type.String() },
        },
      },
      async (_request, reply) => reply.type('text/plain; charset=utf-8').send(RECEIVERS_TEXT),
    );
  };
}
