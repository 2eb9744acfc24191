// A gateway bound beyond loopback can be reached by other machines, so (as the official server does) every
// protected request over TCP must carry `Authorization: Bearer <api_key>:<secret_key>`. The Unix socket and the
// public paths (health, info, docs, hosted apps) need none.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SERVER_PATHS } from '../contract/paths.js';
import { sendError } from './errors.js';
import { arrivedOnLocalSocket } from './listen.js';

// The dashboard's page and its assets are public too: they hold no data, and their API calls carry the token.
const PUBLIC_PREFIXES = [SERVER_PATHS.health, SERVER_PATHS.info, '/openapi.json', '/docs', '/apps/', '/assets/'];

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Why a request is refused, or null when it may pass. */
export function credentialRefusal(authorization: string | undefined, expected: Buffer): string | null {
  if (authorization === undefined) return 'Missing Authorization header';
  const match = /^Bearer (.+)$/.exec(authorization);
  if (!match) return 'Invalid Authorization format, expected: Bearer <api_key>:<secret_key>';
  if (!match[1]!.includes(':')) return 'Invalid token format, expected: <api_key>:<secret_key>';
  // Equal-length digests, compared in constant time.
  return timingSafeEqual(digest(match[1]!), expected) ? null : 'Invalid API credentials';
}

export function registerBearerAuth(app: FastifyInstance, credentials: { apiKey: string; secretKey: string }): void {
  const expected = digest(`${credentials.apiKey}:${credentials.secretKey}`);
  app.addHook('onRequest', (request, reply, done) => {
    const path = request.url.split('?', 1)[0]!;
    if (arrivedOnLocalSocket(request.raw) || path === '/' || PUBLIC_PREFIXES.some((prefix) => path.startsWith(prefix)))
      return done();
    const refusal = credentialRefusal(request.headers.authorization, expected);
    if (refusal === null) return done();
    reply.header('www-authenticate', 'Bearer');
    sendError(reply, 'UNAUTHORIZED', refusal);
  });
}
