// Server-sent events on a hijacked reply: named events with ids, a heartbeat every 30 s, a cap on what a slow
// client may hold back, and a count of attached clients for /api/v1/stream/status.

import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';

const HEARTBEAT_MS = 30_000;
/** A client that has this much unread is dropped; it reconnects. */
const MAX_BUFFERED_BYTES = 256 * 1024;

export class StreamConnections {
  active = 0;
}

export interface EventStream {
  send(event: string, data: unknown, id?: number | string): void;
  /** Runs when the client goes away. */
  onClose(cleanup: () => void): void;
}

export function openEventStream(reply: FastifyReply, connections: StreamConnections): EventStream {
  reply.hijack();
  const response = reply.raw;
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  response.write(': ok\n\nretry: 2000\n\n');
  connections.active++;
  const connectionId = randomUUID();
  const send = (event: string, data: unknown, id?: number | string) => {
    if (response.destroyed) return;
    if (response.writableLength > MAX_BUFFERED_BYTES) {
      response.destroy();
      return;
    }
    response.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const heartbeat = setInterval(
    () => send('heartbeat', { type: 'heartbeat', timestamp: new Date().toISOString(), connection_id: connectionId }),
    HEARTBEAT_MS,
  );
  const cleanups: (() => void)[] = [() => clearInterval(heartbeat), () => connections.active--];
  response.once('close', () => {
    for (const cleanup of cleanups) cleanup();
  });
  return { send, onClose: (cleanup) => cleanups.push(cleanup) };
}
