// Checks of the error envelope {code, error, message, details} that every error answer carries.

import assert from 'node:assert/strict';
import { type ErrorKind, isErrorKind } from '../../src/domain/errors.js';
import { STATUS_OF_KIND } from '../../src/server/plugins/errors.js';

/**
 * The body is the envelope of an error answered with `status`: its kind is one of the kinds, the status table gives
 * that kind `status`, and `code` is `status`. With `kind`, the kind must be that one.
 */
export function assertErrorKind(body: unknown, status: number, kind?: ErrorKind): void {
  const envelope = body as { code?: unknown; error?: unknown };
  assert.deepEqual(Object.keys(envelope).sort(), ['code', 'details', 'error', 'message'], JSON.stringify(body));
  assert.equal(envelope.code, status);
  assert.ok(isErrorKind(envelope.error), `error ${JSON.stringify(envelope.error)} is a kind`);
  assert.equal(STATUS_OF_KIND[envelope.error], status, `${envelope.error} is answered with ${status}`);
  if (kind !== undefined) assert.equal(envelope.error, kind);
}
