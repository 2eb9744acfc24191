// Strict validation: bodies are never coerced and unknown fields are rejected; query and path values arrive as
// text, so they are coerced to the declared types. Only finite numbers pass anywhere: JSON.parse turns 1e400 into
// Infinity, and Ajv's coercion turns the text "1e400" into Infinity without checking it, so both are caught here
// rather than by each field. Every violation is reported, but the work and the answer stay bounded: an array longer
// than its schema's maxItems is reported alone, without validating each of its items.

import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** A validation problem as Ajv reports it; errors.ts turns each into a {loc, msg, type} of the 422. */
export interface ValidationProblem {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

/** The most problems a walk of the data collects: more cannot be shown anyway (errors.ts caps the details). */
const MAX_PROBLEMS = 100;

// Each part has two validators: the first stops at the first problem (the cost of a valid request), the second
// lists every problem and is only compiled and run for a request that has failed.
const common = { strict: false, strictNumbers: true, useDefaults: true, removeAdditional: false } as const;
const ajvs = (coerceTypes: false | 'array') => ({
  first: addFormats(new Ajv({ ...common, coerceTypes, allErrors: false })),
  every: addFormats(new Ajv({ ...common, coerceTypes, allErrors: true })),
});
const BODY = ajvs(false);
const TEXT = ajvs('array');

type Validator = ((data: unknown, context?: Parameters<ValidateFunction>[1]) => boolean) & {
  errors?: ValidationProblem[] | null;
  schemaEnv?: unknown;
};

/**
 * The validator of one part of one route. Both of its Ajv functions are compiled when the route is first called, not
 * when the app starts: compiling every route's schemas was the largest part of the daemon's start-up.
 */
function compileValidator(schema: object, part: ReturnType<typeof ajvs>, text: boolean): Validator {
  let compiled: ValidateFunction | undefined;
  const first: ValidateFunction = ((data: unknown, context?: Parameters<ValidateFunction>[1]) => {
    compiled ??= part.first.compile(schema);
    return compiled(data, context);
  }) as ValidateFunction;
  let every: ValidateFunction | undefined;
  // Text coerced to a number may be Infinity (Ajv coerces in place, so the walk follows the validation); a body
  // cannot hold one (the JSON body parser refuses it).
  const nonFinite = (data: unknown) => (text && holdsNonFinite(data) ? nonFiniteNumbers(data) : NO_PROBLEMS);
  const validate: Validator = (data, context) => {
    if (first(data, context) && nonFinite(data).length === 0) return true;
    const oversized = oversizedArrays(schema, data);
    if (oversized.length > 0) {
      validate.errors = [...nonFinite(data), ...oversized];
      return false;
    }
    every ??= part.every.compile(schema);
    every(data, context);
    validate.errors = [...nonFinite(data), ...((every.errors ?? []) as ValidationProblem[])];
    return validate.errors.length === 0;
  };
  // Fastify passes the parent of the data only to a validator with a schemaEnv (any), and Ajv needs it to coerce a
  // root; the real one exists only once compiled.
  validate.schemaEnv = { compiledOnFirstCall: true };
  return validate;
}

/** The validators and the body parser of the whole app; the errors plugin turns what they refuse into a 422 or 400. */
export const validationPlugin = fp(
  async (app: FastifyInstance) => {
    app.setValidatorCompiler(({ schema, httpPart }) =>
      httpPart === 'body'
        ? compileValidator(schema as object, BODY, false)
        : compileValidator(schema as object, TEXT, true),
    );
    // Bodies are JSON only: without this, Fastify's built-in text/plain parser hands the raw string to the route
    // (fetch() sends a string body as text/plain), which then fails as "body must be object" instead of 415.
    app.removeContentTypeParser('text/plain');
    registerJsonBodyParser(app);
  },
  { name: 'validation', fastify: '5.x', dependencies: ['errors'] },
);

/** preValidation of account-scoped POSTs: no body means the default account, as `{}` does. */
export async function emptyBodyIsDefault(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

// ---------------------------------------------------------------------------------------------------------------
// JSON bodies

/** An exponent of three digits or more (e400, E+0309): where JSON.parse may have made a number infinite. */
const LARGE_EXPONENT = /[eE]\+?0*[1-9]\d\d/;
/** Without an exponent a number needs 309 digits to overflow; a run of 300 is looked at. */
const LONG_DIGIT_RUN = 300;

/**
 * Whether JSON.parse may have made a number of this text infinite. Only such a body is walked, so an ordinary body
 * costs one scan. The digit runs are counted by hand: /\d{300}/ restarts at every digit and takes ~90 ms on a body
 * of 299-digit numbers.
 */
function mayOverflow(text: string): boolean {
  if (LARGE_EXPONENT.test(text)) return true;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      if (++run >= LONG_DIGIT_RUN) return true;
    } else {
      run = 0;
    }
  }
  return false;
}

/** A validation error as Fastify's validators raise it, so that the error handler answers it as any other 422. */
class NonFiniteNumberError extends Error {
  readonly statusCode = 422;
  readonly validationContext = 'body';
  constructor(readonly validation: ValidationProblem[]) {
    super('the body holds a number too large to represent');
  }
}

/**
 * application/json with Fastify's own parser (which refuses __proto__ and constructor.prototype keys), and a body
 * holding a number that is not finite (1e400, -1e400) is a 422 naming where, before any route or hook sees it.
 */
function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // The default parser is synchronous; its type allows a promise.
    void parse(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      const problems = mayOverflow(body as string) ? nonFiniteNumbers(value) : [];
      if (problems.length > 0) return done(new NonFiniteNumberError(problems), undefined);
      done(null, value);
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Walks of the data

const pointer = (path: string, key: string | number) =>
  `${path}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;

const NO_PROBLEMS: readonly ValidationProblem[] = Object.freeze([]);

/**
 * Whether the data holds a number that is not finite. Run on the parameters and query of every request, so it builds
 * no path and no entry list (nonFiniteNumbers does, for the rare data that holds one).
 */
export function holdsNonFinite(data: unknown): boolean {
  const stack: unknown[] = [data];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const key in value) if (Object.hasOwn(value, key)) stack.push((value as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/** Where the data holds a number that is not finite; iterative, since a body may nest deeper than the stack. */
export function nonFiniteNumbers(data: unknown): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  const stack: [unknown, string][] = [[data, '']];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) {
        problems.push({
          instancePath: path,
          schemaPath: '',
          keyword: 'finite',
          message: 'must be a finite number',
          params: { value },
        });
      }
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], pointer(path, i)]);
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], pointer(path, entries[i]![0])]);
    }
  }
  return problems;
}

interface SchemaNode {
  maxItems?: number;
  items?: unknown;
  properties?: Record<string, unknown>;
  anyOf?: unknown[];
  oneOf?: unknown[];
  allOf?: unknown[];
}

/**
 * The arrays of the data longer than their schema allows. Ajv with allErrors validates every item of such an array
 * all the same (a 125,000-item body made 250,000 errors); reported alone, the answer names the bound instead.
 */
export function oversizedArrays(schema: unknown, data: unknown, path = '', problems: ValidationProblem[] = []) {
  if (typeof schema !== 'object' || schema === null || problems.length >= MAX_PROBLEMS) return problems;
  const node = schema as SchemaNode;
  if (Array.isArray(data)) {
    if (typeof node.maxItems === 'number' && data.length > node.maxItems) {
      problems.push({
        instancePath: path,
        schemaPath: '',
        keyword: 'maxItems',
        message: `must NOT have more than ${node.maxItems} items (it has ${data.length})`,
        params: { limit: node.maxItems },
      });
    } else if (typeof node.items === 'object' && node.items !== null && !Array.isArray(node.items)) {
      for (let i = 0; i < data.length; i++) oversizedArrays(node.items, data[i], pointer(path, i), problems);
    }
  } else if (typeof data === 'object' && data !== null && node.properties) {
    for (const [key, property] of Object.entries(node.properties)) {
      if (Object.hasOwn(data, key)) {
        oversizedArrays(property, (data as Record<string, unknown>)[key], pointer(path, key), problems);
      }
    }
  }
  for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) {
    oversizedArrays(branch, data, path, problems);
  }
  return problems;
}
