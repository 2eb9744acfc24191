// Calls to the gateway's REST API. Every call is tagged as dashboard traffic and carries the sign-in token when
// there is one; an error answer becomes an ApiError holding the server's kind of error and its own message.

const TOKEN_KEY = 'sjgate.token';

/**
 * The kinds of error (the envelope's `error` field) the dashboard acts on; docs/errors.md lists them all. Any other
 * kind is shown by its message.
 */
export type ErrorKind = 'UNAUTHORIZED' | 'UNKNOWN_EVENT_ID';

/** An error answer: its kind (null when the body is not the gateway's envelope) and message. */
export interface ErrorAnswer {
  kind: string | null;
  message: string;
}

export class ApiError extends Error {
  readonly kind: string | null;
  constructor(
    readonly status: number,
    answer: ErrorAnswer,
  ) {
    super(answer.message);
    this.kind = answer.kind;
  }
}

/** Whether an error answer is of `kind`. */
export const isKind = (answer: { kind: string | null }, kind: ErrorKind): boolean => answer.kind === kind;

// --- sign-in state: a gateway bound beyond loopback answers 401 until the page sends `Bearer api_key:secret_key`

const authListeners = new Set<() => void>();
let signInNeeded = false;

export const auth = {
  subscribe(listener: () => void) {
    authListeners.add(listener);
    return () => authListeners.delete(listener);
  },
  needed: () => signInNeeded,
  token: () => sessionStorage.getItem(TOKEN_KEY),
  save(token: string) {
    sessionStorage.setItem(TOKEN_KEY, token);
  },
  refused() {
    if (signInNeeded) return;
    signInNeeded = true;
    for (const listener of authListeners) listener();
  },
};

export function requestHeaders(token = auth.token()): Record<string, string> {
  const headers: Record<string, string> = { 'X-Shioaji-Activity': 'dashboard' };
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/**
 * The kind and message of an error envelope `{code, error, message, details}`; for a body that is not one, no kind
 * and the body or the status line as the message.
 */
export function errorOf(status: number, body: string): ErrorAnswer {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
    if (typeof parsed.message === 'string') {
      return { kind: typeof parsed.error === 'string' ? parsed.error : null, message: parsed.message };
    }
  } catch {
    // not JSON: fall through
  }
  return { kind: null, message: body.trim().slice(0, 200) || `HTTP ${status}` };
}

/** The message of an error answer. */
export const errorMessageOf = (status: number, body: string): string => errorOf(status, body).message;

export async function api<T>(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<T> {
  const headers = requestHeaders();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) {
    const error = new ApiError(response.status, errorOf(response.status, text));
    if (isKind(error, 'UNAUTHORIZED')) auth.refused();
    throw error;
  }
  return (text ? JSON.parse(text) : null) as T;
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
