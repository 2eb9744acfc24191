// The OpenAPI document, generated from the route schemas, at /openapi.json and as interactive docs at /docs.

import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { errorResponses } from './schemas/common.js';

/** The JSON pointer of a POST operation in the document, for links (`~` and `/` escaped as RFC 6901 says). */
export function postOperationRef(path: string): string {
  return operationRef(path, 'post');
}

/** The same for any method; a route's `:name` parameter is written `{name}`, as the document writes it. */
export function operationRef(path: string, method: 'get' | 'post' | 'put' | 'delete'): string {
  const documented = path.replace(/:(\w+)/g, '{$1}');
  return `#/paths/${documented.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}`;
}

export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    transform: documentRouterErrors,
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'sjgate',
        version,
        description:
          '[← Back to the dashboard](/) · [OpenAPI document](/openapi.json)\n\n' +
          'The Shioaji trading API of the Taiwan market over HTTP, with a built-in market simulator. ' +
          'Errors are {code, error, message, details}: code is the HTTP status and error a stable, machine-readable ' +
          'kind (an enum; each kind has one status).',
      },
      tags: [
        { name: 'info' },
        { name: 'health' },
        { name: 'auth' },
        { name: 'contracts' },
        { name: 'data' },
        { name: 'order' },
        { name: 'portfolio' },
        { name: 'stream' },
        { name: 'apps' },
        { name: 'watchlist' },
        { name: 'monitor' },
      ],
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    theme: { title: 'sjgate API' },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/**
 * The router refuses a path parameter longer than Fastify's maxParamLength (100 characters) with a 414 before the
 * route validates anything, so every route with a path parameter documents that 414.
 */
function documentRouterErrors({ schema, url }: { schema: FastifySchema; url: string }) {
  if (schema === undefined || !url.includes('/:')) return { schema, url };
  const response = (schema.response ?? {}) as Record<string, unknown>;
  return { schema: { ...schema, response: { ...response, ...errorResponses(414) } }, url };
}
