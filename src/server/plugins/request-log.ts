// The request log: one line per answered request, through Fastify's logger, with nothing secret in it. Only the
// method, the URL (the values of query parameters that may hold a secret replaced), the status, the time to answer
// and the listener are written: never headers (the bearer token, cookies) and never bodies.

import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { arrivedOnLocalSocket } from '../listen.js';

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

/**
 * Fastify's request logging, one line per request: when it is answered (Fastify's two lines, received and completed,
 * become this one).
 */
export class RequestLogController extends LogController {
  /** `errorsOnly`: only requests answered with a 4xx or 5xx get a line. */
  constructor(private readonly errorsOnly: boolean) {
    super();
  }

  override incomingRequest(): void {}

  // The 404 is the line of its request.
  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.errorsOnly && reply.statusCode < 400 && !error) return;
    const line = {
      method: request.method,
      url: loggedUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
      listener: arrivedOnLocalSocket(request.raw) ? 'unix' : 'tcp',
    };
    if (error) reply.log.error({ ...line, error: error.message }, 'request failed');
    else reply.log.info(line, 'request');
  }
}
