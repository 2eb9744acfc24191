// Response serializers compiled on a route's first answer rather than when the app starts: compiling every route's
// response schemas took a large part of the daemon's start-up. The compiler is the one Fastify itself uses
// (fast-json-stringify, loaded from Fastify's own dependencies), with the same options (no shared schemas here).

import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

type Serialize = (data: unknown) => string;
type FastJsonStringify = (schema: object, options?: object) => Serialize;

const fastJsonStringify = createRequire(import.meta.resolve('fastify'))('fast-json-stringify') as FastJsonStringify;

const SIMPLE_TYPES: ReadonlySet<unknown> = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/** `{type: 'string'}`, nothing else: a branch of a nullable union as TypeBox writes it. */
const isBareType = (branch: unknown): branch is { type: string } =>
  typeof branch === 'object' &&
  branch !== null &&
  Object.keys(branch).length === 1 &&
  SIMPLE_TYPES.has((branch as { type?: unknown }).type);

/**
 * The schema with each anyOf of bare simple types (TypeBox's `Union([String(), Null()])`) written as one type list
 * (`type: ['string', 'null']`), which serializes the same valid values: fast-json-stringify picks an anyOf branch by
 * validating the value with Ajv, compiled on first use (about 100 ms for /health's nullable fields at start-up), and a
 * type list without it. Only the serializer sees this copy; the route's schema (validation, OpenAPI) is untouched.
 */
export function withTypeLists(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withTypeLists);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = withTypeLists(value);
  const { anyOf } = schema as { anyOf?: unknown };
  if (Array.isArray(anyOf) && anyOf.length > 1 && anyOf.every(isBareType) && !('type' in schema)) {
    delete copy.anyOf;
    copy.type = anyOf.map((branch) => branch.type);
  }
  return copy;
}

/** The serializer Fastify would use for `schema`, compiled on its first call. */
export function lazySerializer({ schema }: { schema: unknown }): Serialize {
  let compiled: Serialize | undefined;
  return (data) => {
    compiled ??= fastJsonStringify(withTypeLists(schema) as object, { schema: {} });
    return compiled(data);
  };
}

export const serializationPlugin = fp(
  async (app: FastifyInstance) => {
    app.setSerializerCompiler(lazySerializer);
  },
  { name: 'serialization', fastify: '5.x' },
);
