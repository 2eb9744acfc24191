// The typed client (src/client/) has a method for every route the server registers and for nothing else: the
// methods are read from a client object itself (each carries its method and route), the routes from the OpenAPI
// document of a full app, so a route added to the server without a client method fails here.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Route, SjgateClient, STREAM_FAMILIES } from '../../src/client/index.js';
import { APP_PAGE_PATHS } from '../../src/contract/paths.js';
import { DEDICATED_STREAMS } from '../../src/server/sse/families.js';
import { appOver, removeDir, tempDir } from '../server/apps-fixtures.js';

const isRoute = (value: unknown): value is Route =>
  typeof value === 'function' && 'method' in value && 'route' in value;

/** `METHOD /route` of every method of the client's groups; a family stream stands for each of its families. */
function clientRoutes(client: SjgateClient): string[] {
  const routes: string[] = [];
  for (const group of Object.values(client)) {
    if (group === null || typeof group !== 'object') continue;
    for (const method of Object.values(group)) {
      if (!isRoute(method)) continue;
      const paths = method.route.endsWith('/:family')
        ? STREAM_FAMILIES.map((family) => method.route.replace(':family', family))
        : [method.route];
      for (const path of paths) routes.push(`${method.method} ${path}`);
    }
  }
  return routes.sort();
}

describe('the client and the routes of the server', () => {
  let app: FastifyInstance;
  let appsDir: string;
  let served: string[];
  before(
    async () => {
      appsDir = tempDir();
      app = await appOver(appsDir);
      const doc = (await app.inject('/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
      const pages = new Set<string>(Object.values(APP_PAGE_PATHS));
      served = Object.entries(doc.paths)
        .map(([path, operations]): [string, string[]] => [
          path.replace('{*}', '*').replace(/\{(\w+)\}/g, ':$1'),
          Object.keys(operations),
        ])
        // The pages of hosted apps are web pages, not the API.
        .filter(([path]) => !pages.has(path))
        .flatMap(([path, methods]) => methods.map((method) => `${method.toUpperCase()} ${path}`))
        .sort();
    },
    { timeout: 30_000 },
  );
  after(
    async () => {
      await app?.close();
      if (appsDir) removeDir(appsDir);
    },
    { timeout: 10_000 },
  );

  test('every route of the API has a client method, and every client method is a route', () => {
    const client = new SjgateClient({ baseUrl: 'http://127.0.0.1:1' });
    const methods = clientRoutes(client);
    assert.ok(served.length > 90, `the document lists the API (${served.length} operations)`);
    assert.deepEqual(
      served.filter((route) => !methods.includes(route)),
      [],
      'routes without a client method',
    );
    assert.deepEqual(
      methods.filter((route) => !served.includes(route)),
      [],
      'client methods without a route',
    );
    assert.equal(new Set(methods).size, methods.length, 'no two client methods send to the same route');
  });

  test("the client's stream families are the server's dedicated streams", () => {
    assert.deepEqual([...STREAM_FAMILIES].sort(), [...DEDICATED_STREAMS].sort());
  });
});
