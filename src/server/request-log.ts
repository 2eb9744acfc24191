// The request log: one line per answered request, through Fastify's logger, with nothing secret in it. Only the
// method, the URL (the values of query parameters that may hold a secret replaced), the status, the time to answer
// and the listener are written: never headers (the bearer token, cookies) and never bodies.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { arrivedOnLocalSocket } from './listen.js';

/** Query parameters whose value is not logged. */
const SECRET_PARAMETER = /token|key|secret|pass|auth|session|cookie|sig|credential/i;

/** The URL as logged: the value of each query parameter whose name looks like a secret's is replaced. */
export function loggedUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const name = pair.slice(0, equals);
      return SECRET_PARAMETER.test(decodedName(name)) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, start)}?${query.join('&')}`;
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

export const requestLogPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        {
          method: request.method,
          url: loggedUrl(request.url),
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 100) / 100,
          listener: arrivedOnLocalSocket(request.raw) ? 'unix' : 'tcp',
        },
        'request',
      );
      done();
    });
  },
  { name: 'request-log', fastify: '5.x' },
);
