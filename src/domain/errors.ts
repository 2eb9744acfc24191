// Errors a client can cause. The HTTP layer maps each kind to its status; nothing else may leak.

export class DomainError extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 413 | 422 | 429 | 503,
    message: string,
    readonly details: unknown = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 404: an unknown contract, app, account or route. */
export class NotFoundError extends DomainError {
  constructor(message: string) {
    super(404, message);
  }
}

/** 400: parameters that are well-formed but wrong or in conflict. */
export class InvalidRequestError extends DomainError {
  constructor(message: string, details: unknown = null) {
    super(400, message, details);
  }
}
