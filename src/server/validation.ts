// Strict validation: bodies are never coerced and unknown fields are rejected; query and path values arrive as
// text, so they are coerced to the declared types. Every violation is reported, not just the first.

import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifyRequest } from 'fastify';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const common = { allErrors: true, strict: false, useDefaults: true } as const;
const bodyAjv = addFormats(new Ajv({ ...common, coerceTypes: false, removeAdditional: false }));
const textAjv = addFormats(new Ajv({ ...common, coerceTypes: 'array', removeAdditional: false }));

export function registerValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object),
  );
}

/** preValidation of account-scoped POSTs: no body means the default account, as `{}` does. */
export async function emptyBodyIsDefault(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}
