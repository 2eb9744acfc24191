// The CLI's HTTP client of the daemon: the Unix socket first, TCP host:port when the socket does not answer.
// Only node:http, so a CLI round trip does not pay for loading the server.

import { type ClientRequest, request } from 'node:http';
import type { Readable } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { TRADE_PAGES } from '../contract/wire.js';
import { type ErrorKind, GATEWAY_FAULT_KINDS, isErrorKind } from '../domain/errors.js';

export interface Endpoint {
  /** The daemon's Unix socket; null to use TCP only. */
  socketPath: string | null;
  host: string;
  port: number;
  /** `Bearer <api_key>:<secret_key>`, sent over TCP (a daemon beyond loopback, or started with --auth, checks it). */
  authorization?: string | undefined;
}

/** The error body of every API failure. */
export interface ApiErrorBody {
  code: number;
  /** The kind of error; null when the answer was not the API's envelope (a proxy's page, an older daemon). */
  error: ErrorKind | null;
  message: string;
  details: unknown;
}

/** The daemon answered with an error status. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
  }

  /** The kind of error the daemon named, or null for an answer that is not the envelope. */
  get kind(): ErrorKind | null {
    return this.body.error;
  }

  /**
   * True when the request was not at fault and the same request may succeed later (the daemon's cap, disk, a bug);
   * for an answer without a kind this CLI knows (not the envelope, or Fastify's own 503 while the daemon stops), when
   * its status is 5xx.
   */
  get gatewayFault(): boolean {
    return isErrorKind(this.kind) ? GATEWAY_FAULT_KINDS.has(this.kind) : this.status >= 500;
  }
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

export type QueryValue = string | number | boolean | undefined;

export interface RawResponse {
  status: number;
  contentType: string;
  body: string;
  /** The X-Next-Cursor header of a paged answer (order/trades with paging). */
  nextCursor?: string | undefined;
}

type Transport = 'socket' | 'tcp';

/** A request body streamed from its source, of a length known in advance (so it is sent with Content-Length). */
export interface StreamedBody {
  contentType: string;
  length: number;
  /** A fresh stream of the body; called again if the request moves to the other transport. */
  open(): Readable;
}

export interface StreamOptions {
  /** Sent as the `Last-Event-ID` header, so the server resumes after that event. */
  lastEventId?: string | undefined;
  /** Called once the server has accepted the stream (status below 400), before any event. */
  onOpen?: () => void;
}

export class DaemonClient {
  /** The transport that last worked; tried first next time. */
  #working: Transport | null = null;
  /** Given a line per request answered (method, path, status, transport, time) when set: the CLI's --verbose. */
  trace: ((line: string) => void) | undefined;

  constructor(
    readonly endpoint: Endpoint,
    readonly timeoutMs = 60_000,
  ) {}

  /** Which transport answered last, if any. */
  get transport(): Transport | null {
    return this.#working;
  }

  async get<T>(path: string, query: Record<string, QueryValue> = {}): Promise<T> {
    return parseBody(await this.send('GET', withQuery(path, query))) as T;
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    return parseBody(await this.send('POST', path, body)) as T;
  }

  /** A POST whose answer is one page of a list: the page, and the cursor of the next one (none on the last). */
  async postPage<T>(path: string, body: unknown): Promise<{ page: T; nextCursor: string | undefined }> {
    const response = await this.send('POST', path, body);
    return { page: parseBody(response) as T, nextCursor: response.nextCursor };
  }

  async put<T>(path: string, body: unknown): Promise<T> {
    return parseBody(await this.send('PUT', path, body)) as T;
  }

  /** A DELETE, with a JSON body when one is given (the watchlist's contracts). */
  async delete<T>(path: string, body?: unknown): Promise<T> {
    return parseBody(await this.send('DELETE', path, body)) as T;
  }

  /** A request whose body is streamed (an upload), not held in memory. */
  async sendStream<T>(method: string, path: string, body: StreamedBody): Promise<T> {
    const response = await this.#overTransports((transport) => this.#exchange(transport, method, path, body));
    if (response.status >= 400) throw new ApiError(response.status, errorBody(response));
    return parseBody(response) as T;
  }

  /** A GET whose answer is plain text. */
  async text(path: string, query: Record<string, QueryValue> = {}): Promise<string> {
    return (await this.send('GET', withQuery(path, query))).body;
  }

  /** Sends one request; throws ApiError for an error status and UnreachableError when nothing answers. */
  async send(method: string, path: string, body?: unknown): Promise<RawResponse> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const started = performance.now();
    const response = await this.#overTransports((transport) => this.#exchange(transport, method, path, payload));
    const ms = Math.round(performance.now() - started);
    this.trace?.(`${method} ${path} → ${response.status} over ${this.#working} in ${ms} ms`);
    if (response.status >= 400) throw new ApiError(response.status, errorBody(response));
    return response;
  }

  /**
   * Opens a server-sent event stream and calls onEvent for each message until the stream ends or the caller
   * aborts. Tries the transports in the same order as send(). Throws ApiError for an error status, UnreachableError
   * when nothing answers, and an Error when the connection breaks; see followStream() for one that reconnects.
   */
  stream(
    path: string,
    onEvent: (message: EventSourceMessage) => void,
    signal?: AbortSignal,
    options: StreamOptions = {},
  ): Promise<void> {
    return this.#overTransports((transport) => this.#listen(transport, path, onEvent, signal, options));
  }

  /** Tries the transport that worked last first, then the other; UnreachableError when none connects. */
  async #overTransports<T>(attempt: (transport: Transport) => Promise<T>): Promise<T> {
    const order: Transport[] = this.#working === 'tcp' ? ['tcp', 'socket'] : ['socket', 'tcp'];
    const causes: Error[] = [];
    for (const transport of order) {
      if (transport === 'socket' && this.endpoint.socketPath === null) continue;
      try {
        const result = await attempt(transport);
        this.#working = transport;
        return result;
      } catch (error) {
        if (!(error instanceof ConnectFailure)) throw error;
        causes.push(error);
      }
    }
    this.#working = null;
    throw new UnreachableError(this.endpoint, causes);
  }

  #targetOf(transport: Transport): { socketPath: string } | { host: string; port: number } {
    return transport === 'socket'
      ? { socketPath: this.endpoint.socketPath as string }
      : { host: connectHost(this.endpoint.host), port: this.endpoint.port };
  }

  #credentials(transport: Transport): { authorization?: string } {
    const { authorization } = this.endpoint;
    return transport === 'tcp' && authorization !== undefined ? { authorization } : {};
  }

  #listen(
    transport: Transport,
    path: string,
    onEvent: (message: EventSourceMessage) => void,
    signal: AbortSignal | undefined,
    options: StreamOptions,
  ): Promise<void> {
    const target = this.#targetOf(transport);
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { accept: 'text/event-stream', ...this.#credentials(transport) };
      if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
      const req = request({ ...target, agent: false, method: 'GET', path, headers, signal }, (res) => {
        if ((res.statusCode ?? 0) >= 400) {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            const response = { status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? '', body };
            reject(new ApiError(response.status, errorBody(response)));
          });
          return;
        }
        options.onOpen?.();
        const parser = createParser({ onEvent });
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => parser.feed(chunk));
        res.on('close', () => resolve());
      });
      const connected = connectionOf(req);
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (error.name === 'AbortError') resolve();
        else if (connected()) reject(new Error(`the stream from sjgate broke: ${error.message}`));
        else reject(new ConnectFailure(`${transport}: ${error.code ?? error.message}`));
      });
      req.end();
    });
  }

  #exchange(
    transport: Transport,
    method: string,
    path: string,
    payload: Buffer | StreamedBody | undefined,
  ): Promise<RawResponse> {
    const target = this.#targetOf(transport);
    const where = 'socketPath' in target ? target.socketPath : urlOf(this.endpoint.host, this.endpoint.port);
    const headers: Record<string, string | number> = { accept: 'application/json', ...this.#credentials(transport) };
    if (payload !== undefined) {
      headers['content-type'] = Buffer.isBuffer(payload) ? 'application/json' : payload.contentType;
      headers['content-length'] = payload.length;
    }
    // The server may answer (and close) before a streamed body is all sent; the answer is what counts then.
    let answered = false;
    let bodyError: Error | undefined;
    return new Promise((resolve, reject) => {
      // A fresh connection per request: a kept-alive one may belong to a daemon that has since gone.
      const req = request({ ...target, agent: false, method, path, headers, timeout: this.timeoutMs }, (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'] ?? '',
            body: Buffer.concat(chunks).toString('utf8'),
            nextCursor: res.headers[TRADE_PAGES.nextCursorHeader] as string | undefined,
          }),
        );
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
        if (error instanceof ConnectFailure) reject(error);
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

/** Whether a request's connection was made: a failure before that means the daemon is not there. */
function connectionOf(req: ClientRequest): () => boolean {
  let connected = false;
  req.on('socket', (socket) => {
    if (socket.connecting) socket.once('connect', () => (connected = true));
    else connected = true;
  });
  return () => connected;
}

/** `path?a=1&b=x` with the given values URL-encoded; undefined values are left out. */
export function withQuery(path: string, query: Record<string, QueryValue>): string {
  const parts = Object.entries(query)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  return parts.length === 0 ? path : `${path}?${parts.join('&')}`;
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

function parseBody(response: RawResponse): unknown {
  if (!/\bjson\b/i.test(response.contentType)) return response.body;
  return response.body === '' ? null : JSON.parse(response.body);
}

/** The API's error envelope, or one made from whatever else came back. */
function errorBody(response: RawResponse): ApiErrorBody {
  try {
    const parsed = JSON.parse(response.body) as Partial<ApiErrorBody> | null;
    if (parsed !== null && typeof parsed === 'object' && typeof parsed.message === 'string') {
      return {
        code: parsed.code ?? response.status,
        // A kind this CLI does not know yet is still the daemon's word: kept as it came.
        error: typeof parsed.error === 'string' ? parsed.error : null,
        message: parsed.message,
        details: parsed.details ?? null,
      };
    }
  } catch {
    // not JSON: fall through
  }
  const text = response.body.trim();
  return { code: response.status, error: null, message: text === '' ? `HTTP ${response.status}` : text, details: null };
}
