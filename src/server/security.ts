// No web page the user visits may drive the gateway: requests must name this server in Host (which defeats DNS
// rebinding) and, when a browser sends an Origin, come from this server's own pages.

import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.js';

const LOCAL_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function hostName(hostHeader: string): string {
  return hostHeader.startsWith('[') ? hostHeader.slice(0, hostHeader.indexOf(']') + 1) : hostHeader.split(':')[0]!;
}

export function registerRequestGuards(app: FastifyInstance, bindHost: string): void {
  const allowed = new Set([...LOCAL_NAMES, bindHost.includes(':') ? `[${bindHost}]` : bindHost]);
  const anyHost = bindHost === '0.0.0.0' || bindHost === '::';
  app.addHook('onRequest', async (request, reply) => {
    const host = request.headers.host;
    // Requests over the Unix socket have no network peer; node:http clients send Host: localhost.
    if (!anyHost && host !== undefined && !allowed.has(hostName(host).toLowerCase())) {
      return sendError(reply, 403, `requests must be addressed to this gateway (Host '${host}' is not allowed)`);
    }
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== 'null') {
      let originHost: string;
      try {
        originHost = new URL(origin).host;
      } catch {
        return sendError(reply, 403, `malformed Origin '${origin}'`);
      }
      if (originHost !== host) return sendError(reply, 403, `cross-origin requests from ${origin} are not allowed`);
    } else if (origin === 'null') {
      return sendError(reply, 403, 'requests from opaque origins are not allowed');
    }
  });
}
