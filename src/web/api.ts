// The dashboard's client of the gateway: the typed client of src/client/, every call tagged as dashboard traffic and
// carrying the sign-in token when there is one. An error answer is an ApiError holding the server's kind of error
// and its own message; an UNAUTHORIZED one asks for sign-in.

import { ApiError, errorBodyOf, SjgateClient } from '../client/index.js';

export { ApiError };

const TOKEN_KEY = 'sjgate.token';

/**
 * The kinds of error (the envelope's `error` field) the dashboard acts on; docs/errors.md lists them all. Any other
 * kind is shown by its message.
 */
export type ErrorKind = 'UNAUTHORIZED' | 'UNKNOWN_EVENT_ID';

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

const DASHBOARD_TRAFFIC = { 'X-Shioaji-Activity': 'dashboard' };

/** A client of this page's gateway with the token given, or the one signed in with. */
export function dashboardClient(token?: string): SjgateClient {
  return new SjgateClient({
    headers: DASHBOARD_TRAFFIC,
    token: token ?? (() => auth.token()),
    onError: (error) => {
      if (token === undefined && isKind(error, 'UNAUTHORIZED')) auth.refused();
    },
  });
}

/** The dashboard's client. */
export const client = dashboardClient();

/** The headers of a request the client cannot send (an upload with progress): dashboard traffic, the token. */
export const requestHeaders = (): Record<string, string> => client.headers();

/** An error answer as an ApiError (asking for sign-in when it is UNAUTHORIZED). */
export function refusal(status: number, body: string): ApiError {
  const error = new ApiError(status, errorBodyOf(status, body));
  if (isKind(error, 'UNAUTHORIZED')) auth.refused();
  return error;
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
