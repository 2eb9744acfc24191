// A gateway bound beyond loopback can be reached by other machines, so (as the official server does) every
// protected request over TCP must carry `Authorization: Bearer <api_key>:<secret_key>`. What is protected is decided
// by where a route is registered: app.ts registers this plugin inside the context of the protected routes, and the
// public ones (health, info, docs, the dashboard, hosted apps' pages) outside it. The Unix socket needs no token.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { arrivedOnLocalSocket } from '../listen.js';
import { sendError } from './errors.js';

/** Why a request is refused for its token, or null when it may pass: the plugin's hook and the fast lane call it. */
export type TokenCheck = (raw: IncomingMessage) => string | null;

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

/** The token check of these credentials: any request on the Unix socket passes, any other needs the token. */
export function tokenCheck(credentials: { apiKey: string; secretKey: string }): TokenCheck {
  const expected = digest(`${credentials.apiKey}:${credentials.secretKey}`);
  return (raw) => (arrivedOnLocalSocket(raw) ? null : credentialRefusal(raw.headers.authorization, expected));
}

/** Every request of the context it is registered in (and its children) needs the token, unless on the Unix socket. */
export const bearerAuthPlugin = fp<{ check: TokenCheck }>(
  async (app: FastifyInstance, { check }: { check: TokenCheck }) => {
    app.addHook('onRequest', function bearerAuth(request, reply, done) {
      const refusal = check(request.raw);
      if (refusal === null) return done();
      reply.header('www-authenticate', 'Bearer');
      sendError(reply, 'UNAUTHORIZED', refusal);
    });
  },
  { name: 'auth', fastify: '5.x', dependencies: ['errors'] },
);
