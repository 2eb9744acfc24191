// Streams: their status, and the contract refresh events. (Quote and order streams arrive with the streaming work.)

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import Type from 'typebox';
import type { Broker } from '../../broker/port.js';
import { RegionSchema, SecurityTypeSchema } from '../schemas/contracts.js';
import { openEventStream, type StreamConnections } from '../sse.js';

const RECEIVERS_TEXT = 'Market data receivers are available for tick, bidask, quote, and order event data';
const tags = ['stream'];

export function streamRoutes(broker: Broker, connections: StreamConnections): FastifyPluginAsync {
  return async (fastify) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/api/v1/stream/status',
      {
        schema: {
          tags,
          summary: 'Clients attached to SSE streams',
          response: {
            200: Type.Object({ active_connections: Type.Integer(), timestamp: Type.String(), status: Type.String() }),
          },
        },
      },
      async () => ({ active_connections: connections.active, timestamp: new Date().toISOString(), status: 'healthy' }),
    );
    app.get(
      '/api/v1/stream/receivers',
      {
        schema: {
          tags,
          summary: 'Which stream receivers exist (plain text)',
          produces: ['text/plain'],
          response: { 200: Type.String() },
        },
      },
      async (_request, reply) => reply.type('text/plain; charset=utf-8').send(RECEIVERS_TEXT),
    );
    app.get(
      '/api/v1/stream/data/contract_event',
      {
        schema: {
          tags,
          summary: 'Contract refresh events (SSE)',
          description:
            'event: contract_event, data {event_id, action, region, security_type, published_at, base_changed, ' +
            'info_changed, info_scope, info_shards}, one per security type at each refresh (07:50, 08:00, 14:45, ' +
            '17:15 Taiwan time); id is the event_id. A heartbeat event every 30 s.',
          produces: ['text/event-stream'],
          querystring: Type.Object({
            region: Type.Optional(RegionSchema),
            security_type: Type.Optional(SecurityTypeSchema),
          }),
        },
      },
      (request, reply) => {
        const { region, security_type: securityType } = request.query;
        const stream = openEventStream(reply, connections);
        const stop = broker.contracts.onContractEvent((event) => {
          if (
            (region === undefined || event.region === region) &&
            (securityType === undefined || event.security_type === securityType)
          ) {
            stream.send('contract_event', event, event.event_id);
          }
        });
        stream.onClose(stop);
      },
    );
  };
}
