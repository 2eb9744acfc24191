// No web page the user visits may drive the gateway: requests must name this server in Host (which defeats DNS
// rebinding) and, when a browser sends an Origin, come from this server's own pages, from a page on this machine
// (any port of localhost, 127.0.0.1 or [::1]: a client's dev server), or from an origin the user listed
// (SJ_HTTP_CORS_ORIGINS). Those cross origins get CORS answers, preflight included (@fastify/cors).

import cors from '@fastify/cors';
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
  /** Origins besides this server's and loopback pages that may call the API ('scheme://host:port'). */
  corsOrigins?: readonly string[] | undefined;
  /** Whether pages on any loopback port may call the API; true unless told. */
  corsLoopback?: boolean | undefined;
}

/** Headers a page on an allowed origin may send and read. */
const CORS_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'Last-Event-ID', 'Accept'];
const CORS_EXPOSED_HEADERS = ['Retry-After', 'Location', 'Content-Disposition'];
/** How long a browser may reuse a preflight answer, as the official server. */
const PREFLIGHT_MAX_AGE_S = 600;

/** The Host and Origin checks of every request, public or not, on either listener, and CORS for allowed origins. */
export const guardsPlugin = fp<GuardsOptions>(
  async (app: FastifyInstance, { bindHost, corsOrigins = [], corsLoopback = true }: GuardsOptions) => {
    const listed = new Set(corsOrigins);
    const crossAllowed = (origin: URL) => (corsLoopback && isLoopbackOrigin(origin)) || listed.has(origin.origin);
    addGuards(app, bindHost, crossAllowed);
    await app.register(cors, {
      origin: (origin, callback) => callback(null, origin !== undefined && allowedCrossOrigin(origin, crossAllowed)),
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: CORS_REQUEST_HEADERS,
      exposedHeaders: CORS_EXPOSED_HEADERS,
      maxAge: PREFLIGHT_MAX_AGE_S,
      strictPreflight: false,
    });
  },
  { name: 'guards', fastify: '5.x', dependencies: ['errors'] },
);

/** A page served from this machine: http(s) on any port of localhost, 127.0.0.1 or [::1]. */
function isLoopbackOrigin(origin: URL): boolean {
  return (origin.protocol === 'http:' || origin.protocol === 'https:') && LOCAL_NAMES.has(origin.hostname);
}

function allowedCrossOrigin(origin: string, crossAllowed: (origin: URL) => boolean): boolean {
  try {
    return crossAllowed(new URL(origin));
  } catch {
    return false;
  }
}

function addGuards(app: FastifyInstance, bindHost: string, crossAllowed: (origin: URL) => boolean): void {
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
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      return ['FORBIDDEN_ORIGIN', `malformed Origin '${origin}'`];
    }
    if (parsed.host === host || crossAllowed(parsed)) return null;
    return [
      'FORBIDDEN_ORIGIN',
      `cross-origin requests from ${origin} are not allowed; pages on this machine (localhost, 127.0.0.1, [::1]) ` +
        'are, and SJ_HTTP_CORS_ORIGINS lists others',
    ];
  };
  app.addHook('onRequest', (request, reply, done) => {
    const refused = refusal(request.headers.host, request.headers.origin);
    if (refused === null) return done();
    sendError(reply, refused[0], refused[1]);
  });
}
