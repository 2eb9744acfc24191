// No web page the user visits may drive the gateway: requests must name this server in Host (which defeats DNS
// rebinding) and, when a browser sends an Origin, come from this server's own pages, from a page on this machine
// (any port of localhost, 127.0.0.1 or [::1]: a client's dev server), or from an origin the user listed
// (SJ_HTTP_CORS_ORIGINS). Those cross origins get CORS answers, preflight included. The CORS hook is sjgate's own
// (what @fastify/cors answered, for these options): that plugin copied its options and built Fastify's routeOptions
// twice for every request, with or without an Origin.

import type { FastifyInstance, FastifyReply } from 'fastify';
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
const PREFLIGHT_HEADERS = {
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
  'access-control-allow-headers': CORS_REQUEST_HEADERS.join(', '),
  'access-control-max-age': String(PREFLIGHT_MAX_AGE_S),
};
const EXPOSED_HEADERS = CORS_EXPOSED_HEADERS.join(', ');

declare module 'fastify' {
  interface FastifyRequest {
    /** A preflight of an allowed cross origin, answered by the CORS hook. */
    sjgatePreflight: boolean;
  }
}

/** The Host and Origin checks, built once per app: the plugin's hooks and the fast lane call the same functions. */
export interface Guards {
  /** Why a request with these Host and Origin headers is refused, or null when it may pass. */
  refusal: (host: string | undefined, origin: string | undefined) => Refusal | null;
  /** Whether a cross origin gets CORS answers. */
  crossAllowed: (origin: URL) => boolean;
}

export function hostAndOriginGuards({ bindHost, corsOrigins = [], corsLoopback = true }: GuardsOptions): Guards {
  const listed = new Set(corsOrigins);
  const crossAllowed = (origin: URL) => (corsLoopback && isLoopbackOrigin(origin)) || listed.has(origin.origin);
  return { refusal: hostAndOriginRefusal(bindHost, crossAllowed), crossAllowed };
}

/** The Host and Origin checks of every request, public or not, on either listener, and CORS for allowed origins. */
export const guardsPlugin = fp<Guards>(
  async (app: FastifyInstance, { refusal, crossAllowed }: Guards) => {
    app.addHook('onRequest', function hostAndOriginGuard(request, reply, done) {
      const refused = refusal(request.headers.host, request.headers.origin);
      if (refused === null) return done();
      sendError(reply, refused[0], refused[1]);
    });
    addCors(app, crossAllowed);
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

function hostAndOriginRefusal(bindHost: string, crossAllowed: (origin: URL) => boolean): Guards['refusal'] {
  const allowed = new Set([...LOCAL_NAMES, bindHost.includes(':') ? `[${bindHost}]` : bindHost]);
  const anyHost = bindHost === '0.0.0.0' || bindHost === '::';
  // Host headers already seen to be acceptable: the check runs on every request, so the parse is done once.
  const acceptedHosts = new Set<string>();
  return (host, origin) => {
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
}

/** Every answer varies by Origin (a cache must not hand one origin's answer to another). */
function varyByOrigin(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'Origin');
  else if (!/(^|,)\s*origin\s*(,|$)/i.test(String(vary))) reply.header('vary', `${vary}, Origin`);
}

/** CORS headers for an allowed cross origin; its preflight (OPTIONS, any path) answered 204 here. */
function addCors(app: FastifyInstance, crossAllowed: (origin: URL) => boolean): void {
  app.decorateRequest('sjgatePreflight', false);
  app.addHook('onRequest', function cors(request, reply, done) {
    varyByOrigin(reply);
    const origin = request.headers.origin;
    if (origin === undefined || !allowedCrossOrigin(origin, crossAllowed)) return done();
    reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', EXPOSED_HEADERS);
    if (request.method !== 'OPTIONS') return done();
    request.sjgatePreflight = true;
    // Safari waits for a body on a 204 without a Content-Length.
    reply.code(204).headers(PREFLIGHT_HEADERS).header('content-length', '0').send();
  });
  // Lets the router accept a preflight on any path; one the hook did not answer is an unknown route.
  app.options('*', { schema: { hide: true } }, (request, reply) =>
    request.sjgatePreflight ? reply.send() : reply.callNotFound(),
  );
}
