// Response serializers compiled on a route's first answer rather than when the app starts: compiling every route's
// response schemas took a large part of the daemon's start-up. The compiler is the one Fastify itself uses
// (fast-json-stringify, loaded from Fastify's own dependencies), with the same options (no shared schemas here).

import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

type Serialize = (data: unknown) => string;
type FastJsonStringify = (schema: object, options?: object) => Serialize;

const fastJsonStringify = createRequire(import.meta.resolve('fastify'))('fast-json-stringify') as FastJsonStringify;

function lazySerializer({ schema }: { schema: unknown }): Serialize {
  let compiled: Serialize | undefined;
  return (data) => {
    compiled ??= fastJsonStringify(schema as object, { schema: {} });
    return compiled(data);
  };
}

export const serializationPlugin = fp(
  async (app: FastifyInstance) => {
    app.setSerializerCompiler(lazySerializer);
  },
  { name: 'serialization', fastify: '5.x' },
);
