// The error envelope {code, message, details} for every error, and the mapping from what went wrong to a status.

import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { DomainError } from '../domain/errors.js';
import { logError } from '../log.js';

export const ErrorEnvelope = Type.Object(
  {
    code: Type.Integer({ description: 'the HTTP status' }),
    message: Type.String(),
    details: Type.Unknown({ description: 'null, or for 422 a list of {loc, msg, type}' }),
  },
  { title: 'ErrorEnvelope', description: 'Every error response' },
);

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

export function sendError(reply: FastifyReply, status: number, message: string, details: unknown = null) {
  return reply.code(status).type('application/json; charset=utf-8').send({ code: status, message, details });
}

function handleError(
  error: FastifyError & { validationContext?: string },
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof DomainError) return sendError(reply, error.status, error.message, error.details);
  if (error.validation) {
    const { count, shown } = violationsOf(error.validation as AjvError[], error.validationContext ?? 'body');
    const described = shown.slice(0, 5).map(describe).join('; ');
    const more = count > 5 ? `; and ${count - 5} more` : '';
    const problems = count === 1 ? '1 problem' : `${count} problems`;
    const listed = count > MAX_DETAILS ? `, the first ${MAX_DETAILS} in details` : '';
    return sendError(reply, 422, `invalid request (${problems}${listed}): ${described}${more}`, shown);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return sendError(reply, 400, `the body is not valid JSON: ${error.message}`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return sendError(reply, 413, 'the request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return sendError(
        reply,
        415,
        `unsupported content type '${request.headers['content-type']}'; send application/json`,
      );
  }
  const storage = storageFailure(error);
  if (storage) {
    logError(`${request.method} ${request.url} failed to write:`, error);
    return sendError(reply, storage.status, storage.message);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return sendError(reply, status, error.message);
  logError(`unhandled error on ${request.method} ${request.url}:`, error);
  return sendError(reply, 500, 'internal error; the gateway log has the details');
}

/** Error codes of the system and of SQLite that mean the disk is full. */
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/**
 * A write to the gateway's disk that failed: nothing of the request was kept. 507 when the disk is full, 503 for
 * another failure of the journal's file. The details (paths) go to the log, not to the client.
 */
function storageFailure(error: { code?: unknown }): { status: number; message: string } | null {
  const code = typeof error.code === 'string' ? error.code : '';
  if (DISK_FULL.has(code)) {
    return {
      status: 507,
      message:
        "the disk holding the gateway's data is full, so nothing of this request was kept: " +
        'free some space there and send it again',
    };
  }
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY') || code === 'SQLITE_BUSY') {
    return {
      status: 503,
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
  sendError(reply as FastifyReply, error.statusCode ?? 400, error.message);
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
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const why = error.reason ?? error.code ?? 'unreadable';
  const body = JSON.stringify({ code: status, message: `the request is not valid HTTP/1.1: ${why}`, details: null });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, `no route ${request.method} ${request.url.split('?')[0]}; see /docs for the API`),
  );
}
