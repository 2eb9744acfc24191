// No web page the user visits may drive the gateway: requests must name this server in Host (which defeats DNS
// rebinding) and, when a browser sends an Origin, come from this server's own pages.

import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.js';

const LOCAL_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The name in a Host header (`name`, `name:port`, `[v6]` or `[v6]:port`); null when it has another shape. */
function hostName(hostHeader: string): string | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::\d{1,5})?$/.exec(hostHeader);
  return match ? match[1]! : null;
}

export function registerRequestGuards(app: FastifyInstance, bindHost: string): void {
  const allowed = new Set([...LOCAL_NAMES, bindHost.includes(':') ? `[${bindHost}]` : bindHost]);
  const anyHost = bindHost === '0.0.0.0' || bindHost === '::';
  // Host headers already seen to be acceptable: the check runs on every request, so the parse is done once.
  const acceptedHosts = new Set<string>();
  const refusal = (host: string | undefined, origin: string | undefined): string | null => {
    if (!anyHost && host !== undefined && !acceptedHosts.has(host)) {
      if (!allowed.has(hostName(host)?.toLowerCase() ?? '')) {
        return `requests must be addressed to this gateway (Host '${host}' is not allowed)`;
      }
      if (acceptedHosts.size < 64) acceptedHosts.add(host);
    }
    if (origin === undefined) return null;
    if (origin === 'null') return 'requests from opaque origins are not allowed';
    try {
      if (new URL(origin).host !== host) return `cross-origin requests from ${origin} are not allowed`;
    } catch {
      return `malformed Origin '${origin}'`;
    }
    return null;
  };
  app.addHook('onRequest', (request, reply, done) => {
    const message = refusal(request.headers.host, request.headers.origin);
    if (message === null) return done();
    sendError(reply, 403, message);
  });
}
