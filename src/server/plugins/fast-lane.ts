// The fast lane: a GET whose answer a route keeps (a contract's info for the current listing) is answered by the
// listener's request handler before Fastify builds its request, reply and hook chain for it; any other request goes
// to Fastify. It answers only when every check of the protected API passes, through the same functions the plugins'
// hooks call (security.ts's Host check, bearer-auth.ts's token check, request-metrics.ts's report); a request with an
// Origin, a body, another method, a refused Host or token goes to Fastify, which answers it as always (CORS, the
// refusal's envelope). A route whose calls count against rate limits or traffic cannot keep answers here.

import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import type { Monitor } from '../monitor/monitor.js';
import { originOfActivity } from '../monitor/stream-stats.js';
import type { TokenCheck } from './bearer-auth.js';
import { reportAnswered } from './request-metrics.js';
import type { Guards } from './security.js';

/** A kept answer: its bytes and its headers as written (what Fastify writes for them, Vary from the CORS hook). */
export interface KeptAnswer {
  body: Buffer;
  headers: string[];
}

export function keptAnswer(body: Buffer, contentType: string): KeptAnswer {
  return { body, headers: ['vary', 'Origin', 'content-type', contentType, 'content-length', String(body.length)] };
}

/** The checks of the protected API, as the app's plugins were given them. */
export interface LaneChecks {
  guards: Guards;
  /** Null when the API needs no token. */
  token: TokenCheck | null;
  monitor: Monitor;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

interface Source {
  /** The route's pattern, for the monitor. */
  pattern: string;
  answer: (url: string) => KeptAnswer | undefined;
}

export class FastLane {
  private checks: LaneChecks | null = null;
  private readonly sources: Source[] = [];
  /** Requests answered here, for tests. */
  answered = 0;

  /** A route's kept answers by URL; `answer` returns only answers of URLs Fastify routes to that route. */
  keep(pattern: string, answer: (url: string) => KeptAnswer | undefined): void {
    this.sources.push({ pattern, answer });
  }

  /** Starts answering, with the app's checks; until then (and after `close`) every request goes to Fastify. */
  open(checks: LaneChecks): void {
    this.checks = checks;
  }

  close(): void {
    this.checks = null;
  }

  /** A listener's request handler: the lane first, Fastify's handler for what it does not answer. */
  handler(fastify: Handler): Handler {
    return (request, response) => {
      if (!this.answer(request, response)) fastify(request, response);
    };
  }

  /** Fastify's `serverFactory` for plain HTTP: the server Fastify would make, with the lane in front. */
  readonly serverFactory = (fastify: Handler, options: FastifyServerOptions & { http?: ServerOptions }): Server => {
    const server = createServer(options.http ?? {}, this.handler(fastify));
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };

  /** Answers the request and returns true when it has a kept answer and passes every check. */
  private answer(request: IncomingMessage, response: ServerResponse): boolean {
    const checks = this.checks;
    if (checks === null || request.method !== 'GET') return false;
    const { headers } = request;
    if (headers.origin !== undefined || headers['content-length'] !== undefined) return false;
    if (headers['transfer-encoding'] !== undefined) return false;
    const url = request.url!;
    for (const source of this.sources) {
      const kept = source.answer(url);
      if (kept === undefined) continue;
      if (checks.guards.refusal(headers.host, undefined) !== null) return false;
      if (checks.token !== null && checks.token(request) !== null) return false;
      this.send(checks.monitor, source.pattern, request, response, kept);
      return true;
    }
    return false;
  }

  private send(
    monitor: Monitor,
    pattern: string,
    request: IncomingMessage,
    response: ServerResponse,
    kept: KeptAnswer,
  ) {
    const startedMs = monitor.now();
    const started = performance.now();
    response.writeHead(200, kept.headers);
    response.end(kept.body);
    this.answered++;
    const origin = originOfActivity(request.headers['x-shioaji-activity'] as string | undefined);
    const measured = { startedMs, pattern, origin, errorKind: null, end: null };
    reportAnswered(monitor, measured, 'GET', 200, Math.round((performance.now() - started) * 1000));
  }
}
