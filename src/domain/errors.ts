// Errors a client can cause, each of a kind: a stable, machine-readable name of what went wrong. The domain and the
// venues say which kind; the HTTP layer alone chooses the status for each kind. Nothing else may leak.

/** Every kind of error an answer of the gateway can carry, in its `error` field. */
export const ERROR_KINDS = [
  // Something named does not exist.
  'CONTRACT_NOT_FOUND',
  'TICK_RULE_NOT_FOUND',
  'ORDER_NOT_FOUND',
  'ACCOUNT_NOT_FOUND',
  'POSITION_NOT_FOUND',
  'PROFIT_LOSS_NOT_FOUND',
  'APP_NOT_FOUND',
  'APP_FILE_NOT_FOUND',
  'WATCHLIST_NOT_FOUND',
  'VIEWER_SESSION_NOT_FOUND',
  'ROUTE_NOT_FOUND',
  // The request is wrong.
  'INVALID_REQUEST',
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'UNKNOWN_EVENT_ID',
  'IDEMPOTENCY_KEY_REUSED',
  'OUTSIDE_HOURS',
  'LENGTH_REQUIRED',
  'TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'MALFORMED_URL',
  'URL_TOO_LONG',
  'MALFORMED_HTTP',
  'HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'METHOD_NOT_ALLOWED',
  // The request may not pass.
  'UNAUTHORIZED',
  'FORBIDDEN_HOST',
  'FORBIDDEN_ORIGIN',
  'AGENT_CAPABILITY_REQUIRED',
  'AGENT_CAPABILITY_INVALID',
  'AGENT_HARNESS_UNAVAILABLE',
  // Over a limit.
  'RATE_LIMITED',
  'SUBSCRIPTION_LIMIT',
  'UPLOAD_CAPACITY',
  'VIEWER_LIMIT',
  'STREAM_CAPACITY',
  // The gateway cannot do it now.
  'JOURNAL_UNAVAILABLE',
  'DISK_FULL',
  'DASHBOARD_NOT_BUILT',
  // The live venue (SinoPac, through the bridge) cannot answer now: unreachable, logging in again, or too slow.
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
  'INTERNAL',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/** The kinds meaning that something the request names does not exist. */
export type NotFoundKind = Extract<ErrorKind, `${string}_NOT_FOUND`>;

/**
 * The kinds whose request was not at fault: the gateway could not serve it now (a cap, its disk, a bug), so the same
 * request may succeed later. Every other kind asks the client to change something first.
 */
export const GATEWAY_FAULT_KINDS: ReadonlySet<ErrorKind> = new Set<ErrorKind>([
  'STREAM_CAPACITY',
  'JOURNAL_UNAVAILABLE',
  'DISK_FULL',
  'DASHBOARD_NOT_BUILT',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
  'INTERNAL',
]);

export function isErrorKind(value: unknown): value is ErrorKind {
  return typeof value === 'string' && (ERROR_KINDS as readonly string[]).includes(value);
}

/** An error of a kind, with a message saying what to change and optional details (the violations of a 422). */
export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details: unknown = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** An unknown contract, order, account, position, app, watchlist or route. */
export class NotFoundError extends DomainError {
  constructor(kind: NotFoundKind, message: string) {
    super(kind, message);
  }
}

/** Parameters that are well-formed but wrong or in conflict: INVALID_REQUEST. */
export class InvalidRequestError extends DomainError {
  constructor(message: string, details: unknown = null) {
    super('INVALID_REQUEST', message, details);
  }
}
