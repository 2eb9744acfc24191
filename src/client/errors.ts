// The error of every failed call: the HTTP status and the gateway's JSON error envelope (docs/errors.md).

/** The error body of every API failure. */
export interface ApiErrorBody {
  code: number;
  /** The kind of error (docs/errors.md); null when the answer was not the API's envelope (a proxy's page). */
  error: string | null;
  message: string;
  details: unknown;
}

/** The gateway answered with an error status. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
  }

  /** The kind of error the gateway named (`UNAUTHORIZED`, `VALIDATION_ERROR`, ...), or null. */
  get kind(): string | null {
    return this.body.error;
  }
}

/** The API's error envelope from an answer's text, or one made from whatever else came back. */
export function errorBodyOf(status: number, text: string): ApiErrorBody {
  try {
    const parsed = JSON.parse(text) as Partial<ApiErrorBody> | null;
    if (parsed !== null && typeof parsed === 'object' && typeof parsed.message === 'string') {
      return {
        code: typeof parsed.code === 'number' ? parsed.code : status,
        error: typeof parsed.error === 'string' ? parsed.error : null,
        message: parsed.message,
        details: parsed.details ?? null,
      };
    }
  } catch {
    // not JSON: fall through
  }
  const trimmed = text.trim().slice(0, 500);
  return { code: status, error: null, message: trimmed === '' ? `HTTP ${status}` : trimmed, details: null };
}
