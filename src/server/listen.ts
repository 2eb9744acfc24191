// The local Unix-socket listener: owner-only, never stolen from a live gateway, stale ones cleaned up.

import { chmodSync, existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { handleClientError } from './plugins/errors.js';

/** True when something accepts connections on the socket. */
function socketIsLive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/**
 * Requests that arrived on the owner-only Unix socket. Trust is decided by the listener a request came in on, never by
 * a socket property: Node reports no remoteAddress for a TCP connection that was reset, too.
 */
const localRequests = new WeakSet<object>();

export function arrivedOnLocalSocket(raw: object): boolean {
  return localRequests.has(raw);
}

export class SocketInUseError extends Error {
  override name = 'SocketInUseError';
}

/** Removes a socket file left behind by a dead process; refuses if a live process answers on it. */
export async function claimSocketPath(path: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (!existsSync(path)) return;
  if (await socketIsLive(path)) {
    throw new SocketInUseError(`another gateway is already serving on ${path}; stop it first (sjgate server stop)`);
  }
  unlinkSync(path);
}

/** Serves the same app on a Unix socket with mode 0600 (plaintext even when TCP uses TLS). */
export async function listenOnSocket(app: FastifyInstance, path: string): Promise<Server> {
  await claimSocketPath(path);
  const answer = app.fastLane.handler(app.routing);
  const server = createServer((request, response) => {
    localRequests.add(request);
    answer(request, response);
  });
  server.on('clientError', handleClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  return server;
}

export function closeSocketServer(server: Server, path: string): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => {
      if (existsSync(path)) unlinkSync(path);
      resolve();
    });
    server.closeAllConnections();
  });
}
