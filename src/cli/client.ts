// The CLI's client of the daemon: the typed client of src/client/ over node:http, the Unix socket first, TCP
// host:port when the socket does not answer. Only node:http, so a CLI round trip does not pay for loading the server.

import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import type { Readable } from 'node:stream';
import {
  type ApiError,
  type Call,
  type CallOptions,
  type Query,
  type Route,
  SjgateClient,
  type TransportRequest,
  type TransportResponse,
} from '../client/index.js';
import { GATEWAY_FAULT_KINDS, isErrorKind } from '../domain/errors.js';

export { ApiError, type ApiErrorBody, type QueryValue, withQuery } from '../client/index.js';

/**
 * A client method that posts a JSON body: commands that differ only in their route name theirs this way, and send it
 * with `postTo`.
 */
export type PostMethod = (client: DaemonClient) => Route;

/**
 * Posts a body made from a command's flags to the route of `method`. The daemon validates it and names what is wrong
 * in the error envelope, so a body the flags make is not held to the route's request type here; the answer is read
 * as `T`, the route's answer type (or the part the command shows).
 */
export const postTo = <T>(client: DaemonClient, method: PostMethod, body: object): Promise<T> =>
  client.request({ method: 'POST', path: method(client).route, body }) as Promise<T>;
/** The same for a GET with a query string. */
export type GetMethod = (client: DaemonClient) => Call<[query?: Query, options?: CallOptions], unknown>;

export interface Endpoint {
  /** The daemon's Unix socket; null to use TCP only. */
  socketPath: string | null;
  host: string;
  port: number;
  /** `Bearer <api_key>:<secret_key>`, sent over TCP (a daemon beyond loopback, or started with --auth, checks it). */
  authorization?: string | undefined;
}

/**
 * True when the request was not at fault and the same request may succeed later (the daemon's cap, disk, a bug);
 * for an answer without a kind this CLI knows (not the envelope, or Fastify's own 503 while the daemon stops), when
 * its status is 5xx.
 */
export function isGatewayFault(error: ApiError): boolean {
  return isErrorKind(error.kind) ? GATEWAY_FAULT_KINDS.has(error.kind) : error.status >= 500;
}

/** Nothing answered on the socket or on TCP: the request never reached a daemon. */
export class UnreachableError extends Error {
  override name = 'UnreachableError';
  constructor(
    readonly endpoint: Endpoint,
    readonly causes: Error[],
  ) {
    super(`cannot reach sjgate at ${describeEndpoint(endpoint)} (${causes.map((c) => c.message).join('; ')})`);
  }
}

/** A failure before the connection was made, so trying the other transport is safe. */
class ConnectFailure extends Error {}

type Transport = 'socket' | 'tcp';

/** A request body streamed from its source, of a length known in advance (so it is sent with Content-Length). */
export interface StreamedBody {
  contentType: string;
  length: number;
  /** A fresh stream of the body; called again if the request moves to the other transport. */
  open(): Readable;
}

/** The typed client (src/client/) sending over the daemon's socket or TCP. */
export class DaemonClient extends SjgateClient {
  readonly #link: DaemonLink;

  constructor(
    readonly endpoint: Endpoint,
    readonly timeoutMs = 60_000,
  ) {
    const link = new DaemonLink(endpoint, timeoutMs);
    super({ transport: (request) => link.send(request) });
    this.#link = link;
  }

  /** Which transport answered last, if any. */
  get transport(): Transport | null {
    return this.#link.working;
  }

  /** Given a line per request answered (method, path, status, transport, time) when set: the CLI's --verbose. */
  set trace(trace: ((line: string) => void) | undefined) {
    this.#link.trace = trace;
  }
}

/** Sends requests over the socket or TCP, whichever answers. */
class DaemonLink {
  /** The transport that last worked; tried first next time. */
  working: Transport | null = null;
  trace: ((line: string) => void) | undefined;

  constructor(
    readonly endpoint: Endpoint,
    readonly timeoutMs: number,
  ) {}

  async send(request: TransportRequest): Promise<TransportResponse> {
    const started = performance.now();
    const response = await this.#overTransports((transport) => this.#open(transport, request));
    const ms = Math.round(performance.now() - started);
    this.trace?.(`${request.method} ${request.path} → ${response.status} over ${this.working} in ${ms} ms`);
    return response;
  }

  /** Tries the transport that worked last first, then the other; UnreachableError when none connects. */
  async #overTransports<T>(attempt: (transport: Transport) => Promise<T>): Promise<T> {
    const order: Transport[] = this.working === 'tcp' ? ['tcp', 'socket'] : ['socket', 'tcp'];
    const causes: Error[] = [];
    for (const transport of order) {
      if (transport === 'socket' && this.endpoint.socketPath === null) continue;
      try {
        const result = await attempt(transport);
        this.working = transport;
        return result;
      } catch (error) {
        if (!(error instanceof ConnectFailure)) throw error;
        causes.push(error);
      }
    }
    this.working = null;
    throw new UnreachableError(this.endpoint, causes);
  }

  #targetOf(transport: Transport): { socketPath: string } | { host: string; port: number } {
    return transport === 'socket'
      ? { socketPath: this.endpoint.socketPath as string }
      : { host: connectHost(this.endpoint.host), port: this.endpoint.port };
  }

  /** Opens one request; resolves with the answer once its head arrives (its body is read as the caller asks). */
  #open(transport: Transport, call: TransportRequest): Promise<TransportResponse> {
    const { method, path, signal } = call;
    const target = this.#targetOf(transport);
    const where = 'socketPath' in target ? target.socketPath : urlOf(this.endpoint.host, this.endpoint.port);
    const headers: Record<string, string | number> = { ...call.headers };
    const { authorization } = this.endpoint;
    if (transport === 'tcp' && authorization !== undefined) headers.authorization = authorization;
    const payload = bodyOf(call.body);
    if (payload !== undefined && !Buffer.isBuffer(payload)) headers['content-type'] = payload.contentType;
    if (payload !== undefined) headers['content-length'] = payload.length;
    // The server may answer (and close) before a streamed body is all sent; the answer is what counts then.
    let answered = false;
    let bodyError: Error | undefined;
    return new Promise((resolve, reject) => {
      // A fresh connection per request: a kept-alive one may belong to a daemon that has since gone. An event stream
      // has no time limit: it lasts as long as the caller reads it.
      const timeout = call.streaming ? {} : { timeout: this.timeoutMs };
      const options = { ...target, ...timeout, agent: false, method, path, headers, signal };
      const req = request(options, (res) => {
        answered = true;
        resolve(responseOf(res));
      });
      const connected = connectionOf(req);
      req.on('timeout', () => {
        const seconds = this.timeoutMs / 1000;
        req.destroy(
          connected()
            ? new Error(`sjgate did not answer ${method} ${path} within ${seconds} s`)
            : new ConnectFailure(`${where}: no connection within ${seconds} s`),
        );
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (answered) return;
        if (error instanceof ConnectFailure || error.name === 'AbortError') reject(error);
        else if (bodyError !== undefined) reject(bodyError);
        else if (connected()) reject(new Error(`connection to sjgate at ${where} failed: ${error.message}`));
        else reject(new ConnectFailure(`${where}: ${error.code ?? error.message}`));
      });
      if (payload === undefined || Buffer.isBuffer(payload)) {
        req.end(payload);
        return;
      }
      const source = payload.open();
      source.on('error', (error) => {
        bodyError = error;
        req.destroy(error);
      });
      req.on('close', () => source.destroy());
      source.pipe(req);
    });
  }
}

/** JSON text as bytes, or the CLI's streamed upload as it is. */
function bodyOf(body: unknown): Buffer | StreamedBody | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? Buffer.from(body) : (body as StreamedBody);
}

function responseOf(res: IncomingMessage): TransportResponse {
  return {
    status: res.statusCode ?? 0,
    contentType: res.headers['content-type'] ?? '',
    header: (name) => {
      const value = res.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    text: () =>
      new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('close', () => {
          if (!res.complete) reject(new Error('the connection to sjgate closed before the answer ended'));
        });
      }),
    chunks: () => {
      res.setEncoding('utf8');
      return res as AsyncIterable<string>;
    },
  };
}

/** Whether a request's connection was made: a failure before that means the daemon is not there. */
function connectionOf(req: ClientRequest): () => boolean {
  let connected = false;
  req.on('socket', (socket) => {
    if (socket.connecting) socket.once('connect', () => (connected = true));
    else connected = true;
  });
  return () => connected;
}

/** `http://host:port`, with brackets around an IPv6 host. */
export function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** A wildcard bind address is reached through loopback. */
function connectHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}

function describeEndpoint(endpoint: Endpoint): string {
  const tcp = urlOf(endpoint.host, endpoint.port);
  return endpoint.socketPath === null ? tcp : `${endpoint.socketPath} or ${tcp}`;
}
