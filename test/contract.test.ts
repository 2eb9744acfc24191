// The route paths of src/contract/ and the routes the server registers are the same set, so a route cannot be added,
// renamed or dropped on one side only: every constant is a path of the OpenAPI document of a full app (the apps API
// included), and every path of that document is a constant (or a dedicated SSE stream).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import {
  API_PATHS,
  API_PREFIX,
  APP_PAGE_PATHS,
  appPagePath,
  appPath,
  CONTRACT_PATHS,
  contractInfoPath,
  contractPath,
  pathOf,
  streamDataPath,
  tickBandsPath,
} from '../src/contract/paths.js';
import { DEDICATED_STREAMS } from '../src/server/sse/families.js';
import { appOver, removeDir, tempDir } from './server/apps-fixtures.js';

/** Every path constant, named by area and key (`orders.placeOrder`). */
const CONSTANTS: [string, string][] = Object.entries(API_PATHS).flatMap(([area, paths]) =>
  Object.entries(paths).map(([key, path]): [string, string] => [`${area}.${key}`, path]),
);
/** The dedicated SSE streams, one route each, built by the helper from the hub's list. */
const STREAMS = DEDICATED_STREAMS.map((stream) => streamDataPath(stream));

describe('the route paths of src/contract/', () => {
  let app: FastifyInstance;
  let appsDir: string;
  let documented: Map<string, string[]>;
  before(
    async () => {
      appsDir = tempDir();
      app = await appOver(appsDir);
      const doc = (await app.inject('/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
      // OpenAPI writes a parameter {code} and a wildcard {*}; Fastify and the constants write :code and *.
      documented = new Map(
        Object.entries(doc.paths).map(([path, operations]) => [
          path.replace('{*}', '*').replace(/\{(\w+)\}/g, ':$1'),
          Object.keys(operations),
        ]),
      );
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

  test('every path constant is a route the server registers', { timeout: 10_000 }, () => {
    const missing = [...CONSTANTS, ...STREAMS.map((path): [string, string] => ['streamDataPath', path])].filter(
      ([, path]) => !documented.has(path),
    );
    assert.deepEqual(missing, []);
    for (const [name, path] of CONSTANTS) {
      const methods = documented.get(path)!;
      assert.ok(
        methods.some((method) => app.hasRoute({ method: method.toUpperCase() as 'GET', url: path })),
        `${name} (${path}) is routed`,
      );
    }
  });

  test('every route of the API has a constant', { timeout: 10_000 }, () => {
    const known = new Set([...CONSTANTS.map(([, path]) => path), ...STREAMS]);
    const unnamed = [...documented.keys()].filter((path) => !known.has(path));
    assert.deepEqual(unnamed, []);
    // Outside the API's prefix, the document lists only the pages of hosted apps.
    assert.deepEqual(
      [...documented.keys()].filter((path) => !path.startsWith(`${API_PREFIX}/`)),
      Object.values(APP_PAGE_PATHS),
    );
    assert.equal(documented.size, known.size);
  });

  test('no two constants name the same path', { timeout: 10_000 }, () => {
    const paths = CONSTANTS.map(([, path]) => path);
    assert.equal(new Set(paths).size, paths.length);
  });

  test('the helpers fill in a parameter, encoded, and the server answers there', { timeout: 10_000 }, async () => {
    assert.equal(contractPath('2330'), `${API_PREFIX}/data/contracts/2330`);
    assert.equal(contractInfoPath('a/b c'), `${API_PREFIX}/data/contracts/a%2Fb%20c/info`);
    assert.equal(tickBandsPath('TWSE_STOCK'), `${API_PREFIX}/data/contracts/tick-bands/TWSE_STOCK`);
    assert.equal(appPath('my-app'), `${API_PREFIX}/apps/my-app`);
    assert.equal(appPagePath('my-app'), '/apps/my-app/');
    assert.equal(streamDataPath('tick_stk'), `${API_PREFIX}/stream/data/tick_stk`);
    assert.throws(() => pathOf(CONTRACT_PATHS.contract, {}), /no value for :code/);
    assert.equal((await app.inject(contractPath('2330'))).json().code, '2330');
    assert.equal((await app.inject(contractInfoPath('2330'))).statusCode, 200);
    // An encoded slash stays one segment: an unknown code, not another route.
    assert.equal((await app.inject(contractInfoPath('23/30'))).statusCode, 404);
  });
});
