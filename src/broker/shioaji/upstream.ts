// A call to SinoPac through the session, with the bridge's errors turned into the gateway's kinds: what the client
// must change (INVALID_REQUEST, *_NOT_FOUND) apart from what may pass by waiting (UPSTREAM_UNAVAILABLE, _TIMEOUT).

import { DomainError, InvalidRequestError, NotFoundError, type NotFoundKind } from '../../domain/errors.js';
import type { BridgeSession } from './session.js';
import { BridgeError } from './sidecar.js';

export type UpstreamCall = <T>(method: string, params?: object, notFound?: NotFoundKind) => Promise<T>;

export function upstreamCaller(session: BridgeSession): UpstreamCall {
  return async <T>(method: string, params: object = {}, notFound: NotFoundKind = 'CONTRACT_NOT_FOUND') => {
    try {
      return await session.call<T>(method, params);
    } catch (error) {
      throw domainErrorOf(error, notFound);
    }
  };
}

export function domainErrorOf(error: unknown, notFound: NotFoundKind): Error {
  if (!(error instanceof BridgeError)) return error instanceof Error ? error : new Error(String(error));
  const message = error.hint ? `${error.message} (${error.hint})` : error.message;
  // Only what the sidecar found wrong with the request is the client's to change; SinoPac's own refusals and
  // failures (its server errors, a suspension, a lost login or certificate) may pass by waiting.
  if (error.kind === 'invalid') return new InvalidRequestError(message);
  if (error.kind === 'not_found') return new NotFoundError(notFound, message);
  if (error.kind === 'timeout') return new DomainError('UPSTREAM_TIMEOUT', message);
  if (error.kind === 'protocol') return new DomainError('INTERNAL', `bridge protocol: ${message}`);
  return new DomainError('UPSTREAM_UNAVAILABLE', message);
}
