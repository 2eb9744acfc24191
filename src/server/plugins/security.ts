// No web page the user visits may drive the gateway: requests must name this server in Host (which defeats DNS
// rebinding) and, when a browser sends an Origin, come from this server's own pages.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ErrorKind } from '../../domain/errors.js';
import { sendError } from './errors.js';

const LOCAL_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The name in a Host header (`name`, `name:port`, `[v6]` or `[v6]:port`); null when it has another shape. */
function hostName(hostHeader: string): string | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::\d{1,5})?$/.exec(hostHeader);
  return match ? match[1]! : null;
}

/** Which guard refused a request, and why. */
type Refusal = [kind: ErrorKind & `FORBIDDEN_${string}`, message: string];

export interface GuardsOptions {
  /** The TCP bind address: a Host naming it (or a loopback name) is accepted. */
  bindHost: string;
}

/** The Host and Origin checks of every request, public or not, on either listener. */
export const guardsPlugin = fp<GuardsOptions>(
  async (app: FastifyInstance, { bindHost }: GuardsOptions) => {
    addGuards(app, bindHost);
  },
  { name: 'guards', fastify: '5.x', dependencies: ['errors'] },
);

function addGuards(app: FastifyInstance, bindHost: string): void {
  const allowed = new Set([...LOCAL_NAMES, bindHost.includes(':') ? `[${bindHost}]` : bindHost]);
  const anyHost = bindHost === '0.0.0.0' || bindHost === '::';
  // Host headers already seen to be acceptable: the check runs on every request, so the parse is done once.
  const acceptedHosts = new Set<string>();
  const refusal = (host: string | undefined, origin: string | undefined): Refusal | null => {
    if (!anyHost && host !== undefined && !acceptedHosts.has(host)) {
      if (!allowed.has(hostName(host)?.toLowerCase() ?? '')) {
        return ['FORBIDDEN_HOST', `requests must be addressed to this gateway (Host '${host}' is not allowed)`];
      }
      if (acceptedHosts.size < 64) acceptedHosts.add(host);
    }
    if (origin === undefined) return null;
    if (origin === 'null') return ['FORBIDDEN_ORIGIN', 'requests from opaque origins are not allowed'];
    try {
      if (new URL(origin).host !== host)
        return ['FORBIDDEN_ORIGIN', `cross-origin requests from ${origin} are not allowed`];
    } catch {
      return ['FORBIDDEN_ORIGIN', `malformed Origin '${origin}'`];
    }
    return null;
  };
  app.addHook('onRequest', (request, reply, done) => {
    const refused = refusal(request.headers.host, request.headers.origin);
    if (refused === null) return done();
    sendError(reply, refused[0], refused[1]);
  });
}
