// Calls to the gateway's REST API. Every call is tagged as dashboard traffic and carries the sign-in token when
// there is one; an error answer becomes an ApiError holding the server's own message.

const TOKEN_KEY = 'sjgate.token';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

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

/** The message of an error envelope `{code, message, details}`, or the status line when the body is not one. */
export function errorMessageOf(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON: fall through
  }
  return body.trim().slice(0, 200) || `HTTP ${status}`;
}

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
    if (response.status === 401) auth.refused();
    throw new ApiError(response.status, errorMessageOf(response.status, text));
  }
  return (text ? JSON.parse(text) : null) as T;
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
