// The building blocks of the client's methods: each is a function that sends one request of one route, and carries
// that route's method and pattern, so a test can check that every route of the server has a method.

import { pathOf } from '../contract/paths.js';
import type { Method } from './transport.js';

export type QueryValue = string | number | boolean | undefined;
export type Query = Record<string, QueryValue>;
/** A JSON request body. */
export type JsonBody = object;

/** Per call: an AbortSignal, and headers (an `Idempotency-Key`, for one). */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  headers?: Record<string, string> | undefined;
  /** Let the request outlive the page (fetch's keepalive; a browser closing a session on pagehide). */
  keepalive?: boolean | undefined;
}

export interface Request {
  method: Method;
  path: string;
  /** JSON, unless `raw`. */
  body?: unknown;
  raw?: boolean;
  options?: CallOptions | undefined;
}

/** What sends a request and reads its answer (the client). */
export type Send = (request: Request) => Promise<unknown>;

/** The method and route pattern (as in paths.ts) a client method sends to. */
export interface Route {
  readonly method: Method;
  readonly route: string;
}

/** A client method: its answer's type is the wire type, or the caller's own (`call<MyRow[]>(...)`). */
export type Call<Args extends unknown[], Answer> = (<T = Answer>(...args: Args) => Promise<T>) & Route;

function endpoint<Args extends unknown[], Answer>(
  method: Method,
  route: string,
  build: (...args: Args) => Request,
  send: Send,
): Call<Args, Answer> {
  const call = (...args: Args) => send(build(...args));
  return Object.assign(call, { method, route }) as unknown as Call<Args, Answer>;
}

/** `path?a=1&b=x` with the values URL-encoded; undefined values are left out. */
export function withQuery(path: string, query: Query = {}): string {
  const parts = Object.entries(query)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  return parts.length === 0 ? path : `${path}?${parts.join('&')}`;
}

/** The route with its one parameter (`:code`, `:id`, ...) filled in. */
const filled = (route: string, value: string) => pathOf(route, { [paramOf(route)]: value });

function paramOf(route: string): string {
  const name = /:([A-Za-z_]\w*)/.exec(route)?.[1];
  if (name === undefined) throw new Error(`${route} has no parameter`);
  return name;
}

/** The builders of one client's methods, all sending through `send`. */
export function builders(send: Send) {
  return {
    /** GET with a query string. */
    get: <Answer, Q extends Query = Query>(route: string) =>
      endpoint<[query?: Q, options?: CallOptions], Answer>(
        'GET',
        route,
        (query, options) => ({ method: 'GET', path: withQuery(route, query), options }),
        send,
      ),
    /** GET of one item named in the path (`/data/contracts/:code`), with a query string. */
    getOne: <Answer, Q extends Query = Query>(route: string) =>
      endpoint<[param: string, query?: Q, options?: CallOptions], Answer>(
        'GET',
        route,
        (param, query, options) => ({ method: 'GET', path: withQuery(filled(route, param), query), options }),
        send,
      ),
    /** POST, PUT, PATCH or DELETE with a JSON body. */
    send: <Answer, B = JsonBody>(method: Method, route: string) =>
      endpoint<[body: B, options?: CallOptions], Answer>(
        method,
        route,
        (body, options) => ({ method, path: route, body, options }),
        send,
      ),
    /** The same on one item named in the path. */
    sendOne: <Answer, B = JsonBody>(method: Method, route: string) =>
      endpoint<[param: string, body: B, options?: CallOptions], Answer>(
        method,
        route,
        (param, body, options) => ({ method, path: filled(route, param), body, options }),
        send,
      ),
    /** A request without a body, on one item named in the path, or on the route itself when it has no parameter. */
    bare: <Answer>(method: Method, route: string) =>
      endpoint<[param?: string, options?: CallOptions], Answer>(
        method,
        route,
        (param, options) => ({ method, path: param === undefined ? route : filled(route, param), options }),
        send,
      ),
    /** A body sent as it is (an upload: FormData for fetch), on one item named in the path. */
    upload: <Answer>(route: string) =>
      endpoint<[param: string, body: unknown, options?: CallOptions], Answer>(
        'POST',
        route,
        (param, body, options) => ({ method: 'POST', path: filled(route, param), body, raw: true, options }),
        send,
      ),
  };
}
