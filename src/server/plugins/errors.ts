// The error envelope {code, error, message, details} for every error, and the one table from an error's kind to its
// HTTP status.

import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import Type from 'typebox';
import { DomainError, ERROR_KINDS, type ErrorKind } from '../../domain/errors.js';
import { logError } from '../../log.js';

/** The HTTP status of each kind of error: the only place a status is chosen for an error. */
export const STATUS_OF_KIND: Readonly<Record<ErrorKind, number>> = {
  CONTRACT_NOT_FOUND: 404,
  TICK_RULE_NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  ACCOUNT_NOT_FOUND: 404,
  POSITION_NOT_FOUND: 404,
  PROFIT_LOSS_NOT_FOUND: 404,
  APP_NOT_FOUND: 404,
  APP_FILE_NOT_FOUND: 404,
  WATCHLIST_NOT_FOUND: 404,
  VIEWER_SESSION_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  INVALID_REQUEST: 400,
  VALIDATION_FAILED: 422,
  INVALID_JSON: 400,
  UNKNOWN_EVENT_ID: 400,
  IDEMPOTENCY_KEY_REUSED: 422,
  OUTSIDE_HOURS: 409,
  LENGTH_REQUIRED: 411,
  TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  MALFORMED_URL: 400,
  URL_TOO_LONG: 414,
  MALFORMED_HTTP: 400,
  HEADERS_TOO_LARGE: 431,
  REQUEST_TIMEOUT: 408,
  METHOD_NOT_ALLOWED: 405,
  UNAUTHORIZED: 401,
  FORBIDDEN_HOST: 403,
  FORBIDDEN_ORIGIN: 403,
  AGENT_CAPABILITY_REQUIRED: 403,
  AGENT_CAPABILITY_INVALID: 403,
  AGENT_HARNESS_UNAVAILABLE: 403,
  RATE_LIMITED: 429,
  SUBSCRIPTION_LIMIT: 429,
  UPLOAD_CAPACITY: 429,
  VIEWER_LIMIT: 429,
  STREAM_CAPACITY: 503,
  JOURNAL_UNAVAILABLE: 503,
  DISK_FULL: 507,
  DASHBOARD_NOT_BUILT: 503,
  UPSTREAM_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
  INTERNAL: 500,
};

/**
 * The kind of a client error raised by Fastify or a plugin with only a status: the kind of that status when one kind
 * means it, else INVALID_REQUEST (so the answer is a 400).
 */
const KIND_OF_CLIENT_STATUS: Readonly<Record<number, ErrorKind>> = {
  400: 'INVALID_REQUEST',
  404: 'ROUTE_NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  411: 'LENGTH_REQUIRED',
  413: 'TOO_LARGE',
  414: 'URL_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  431: 'HEADERS_TOO_LARGE',
};

export const ErrorEnvelope = Type.Object(
  {
    code: Type.Integer({ description: 'the HTTP status' }),
    error: Type.Enum([...ERROR_KINDS], {
      description: 'what went wrong: a stable, machine-readable kind, each with one status (docs/errors.md)',
    }),
    message: Type.String(),
    details: Type.Unknown({ description: 'null, or for 422 a list of {loc, msg, type}' }),
  },
  { title: 'ErrorEnvelope', description: 'Every error response' },
);

/** The body of every error answer. */
export interface ErrorBody {
  code: number;
  error: ErrorKind;
  message: string;
  details: unknown;
}

export const envelopeOf = (kind: ErrorKind, message: string, details: unknown = null): ErrorBody => ({
  code: STATUS_OF_KIND[kind],
  error: kind,
  message,
  details,
});

export interface Violation {
  loc: (string | number)[];
  msg: string;
  type: string;
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

const PART_NAMES: Record<string, string> = { querystring: 'query', params: 'path', body: 'body', headers: 'header' };

function violationOf(part: string, error: AjvError): Violation {
  const loc: (string | number)[] = [PART_NAMES[part] ?? part];
  for (const segment of error.instancePath.split('/').slice(1)) {
    const name = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    loc.push(/^\d+$/.test(name) ? Number(name) : name);
  }
  const { missingProperty, additionalProperty, allowedValues } = error.params as {
    missingProperty?: string;
    additionalProperty?: string;
    allowedValues?: unknown[];
  };
  if (missingProperty !== undefined) return { loc: [...loc, missingProperty], msg: 'field required', type: 'missing' };
  if (additionalProperty !== undefined) {
    return { loc: [...loc, additionalProperty], msg: 'unknown field', type: 'extra_forbidden' };
  }
  if (allowedValues) {
    return { loc, msg: `must be one of ${allowedValues.map((v) => JSON.stringify(v)).join(', ')}`, type: 'enum' };
  }
  return { loc, msg: error.message ?? 'is invalid', type: error.keyword };
}

/** The most violations a 422 lists in `details`; its message gives the count of all of them. */
export const MAX_DETAILS = 20;

/**
 * The distinct violations, each once (the branches of an anyOf often report the same problem of the same field), and
 * the first MAX_DETAILS of them as {loc, msg, type}: a body may hold tens of thousands of problems (one per unknown
 * key), and only those shown are built.
 */
function violationsOf(errors: AjvError[], part: string): { count: number; shown: Violation[] } {
  const seen = new Set<string>();
  const shown: Violation[] = [];
  for (const error of errors) {
    // anyOf/oneOf report their branches' errors already; the summary keyword adds nothing a person can act on.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const { missingProperty, additionalProperty, allowedValues } = error.params;
    const what = allowedValues === undefined ? error.message : JSON.stringify(allowedValues);
    const key = `${error.instancePath}\0${missingProperty ?? ''}\0${additionalProperty ?? ''}\0${what}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (shown.length < MAX_DETAILS) shown.push(violationOf(part, error));
  }
  return { count: seen.size, shown };
}

const describe = (v: Violation) =>
  `${v.loc.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('')} ${v.msg}`;

/** Answers with the envelope of an error of `kind`, at the kind's status. */
export function sendError(reply: FastifyReply, kind: ErrorKind, message: string, details: unknown = null) {
  const body = envelopeOf(kind, message, details);
  return reply.code(body.code).type('application/json; charset=utf-8').send(body);
}

function handleError(
  error: FastifyError & { validationContext?: string },
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof DomainError) return sendError(reply, error.kind, error.message, error.details);
  if (error.validation) {
    const { count, shown } = violationsOf(error.validation as AjvError[], error.validationContext ?? 'body');
    const described = shown.slice(0, 5).map(describe).join('; ');
    const more = count > 5 ? `; and ${count - 5} more` : '';
    const problems = count === 1 ? '1 problem' : `${count} problems`;
    const listed = count > MAX_DETAILS ? `, the first ${MAX_DETAILS} in details` : '';
    return sendError(reply, 'VALIDATION_FAILED', `invalid request (${problems}${listed}): ${described}${more}`, shown);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return sendError(reply, 'INVALID_JSON', `the body is not valid JSON: ${error.message}`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return sendError(reply, 'TOO_LARGE', 'the request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return sendError(
        reply,
        'UNSUPPORTED_MEDIA_TYPE',
        `unsupported content type '${request.headers['content-type']}'; send application/json`,
      );
  }
  const storage = storageFailure(error);
  if (storage) {
    logError(`${request.method} ${request.url} failed to write:`, error);
    return sendError(reply, storage.kind, storage.message);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return sendError(reply, clientErrorKind(status), error.message);
  logError(`unhandled error on ${request.method} ${request.url}:`, error);
  return sendError(reply, 'INTERNAL', 'internal error; the gateway log has the details');
}

/** The kind of a client error that comes with only a status. */
export function clientErrorKind(status: number): ErrorKind {
  return KIND_OF_CLIENT_STATUS[status] ?? 'INVALID_REQUEST';
}

/** Error codes of the system and of SQLite that mean the disk is full. */
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/**
 * A write to the gateway's disk that failed: nothing of the request was kept. DISK_FULL when the disk is full,
 * JOURNAL_UNAVAILABLE for another failure of the journal's file. The details (paths) go to the log, not to the client.
 */
function storageFailure(error: { code?: unknown }): { kind: ErrorKind; message: string } | null {
  const code = typeof error.code === 'string' ? error.code : '';
  if (DISK_FULL.has(code)) {
    return {
      kind: 'DISK_FULL',
      message:
        "the disk holding the gateway's data is full, so nothing of this request was kept: " +
        'free some space there and send it again',
    };
  }
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY') || code === 'SQLITE_BUSY') {
    return {
      kind: 'JOURNAL_UNAVAILABLE',
      message: 'the gateway could not write its journal, so nothing of this request was kept; the log says why',
    };
  }
  return null;
}

/**
 * Errors the router raises before any route runs (a malformed %-escape, an overlong path parameter) never reach the
 * error handler: this is the Fastify option `frameworkErrors`. The reply is typed loosely because the option's type
 * differs between the HTTP/1.1 and the HTTP/2 server.
 */
export function handleFrameworkError(error: FastifyError, _request: unknown, reply: unknown): void {
  sendError(reply as FastifyReply, frameworkErrorKind(error), error.message);
}

function frameworkErrorKind(error: FastifyError): ErrorKind {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return 'MALFORMED_URL';
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return 'URL_TOO_LONG';
  }
  const status = error.statusCode ?? 400;
  return status >= 500 ? 'INTERNAL' : clientErrorKind(status);
}

/**
 * A request Node's HTTP parser refuses (a bad Content-Length, Content-Length with chunked, an odd request line, headers
 * too large) never reaches Fastify's routing: it is answered here, with the envelope, and the connection closed.
 */
export function handleClientError(error: NodeJS.ErrnoException & { reason?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const kind: ErrorKind =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'HEADERS_TOO_LARGE'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'REQUEST_TIMEOUT'
        : 'MALFORMED_HTTP';
  const why = error.reason ?? error.code ?? 'unreadable';
  const envelope = envelopeOf(kind, `the request is not valid HTTP/1.1: ${why}`);
  const status = envelope.code;
  const body = JSON.stringify(envelope);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The 404 of a path no route serves; an encapsulated context with a prefix sets it again to run its own hooks. */
export function answerNotFound(request: FastifyRequest, reply: FastifyReply) {
  return sendError(
    reply,
    'ROUTE_NOT_FOUND',
    `no route ${request.method} ${request.url.split('?')[0]}; see /docs for the API`,
  );
}

/** The envelope for every error and every unknown route, for the whole app. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler(handleError);
    app.setNotFoundHandler(answerNotFound);
  },
  { name: 'errors', fastify: '5.x' },
);
