import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { API_PREFIX, SERVER_PATHS } from '../../src/contract/paths.js';
import { ManualClock } from '../../src/domain/time.js';
import { buildApp } from '../../src/server/app.js';
import { MONDAY_MORNING } from '../helpers/app.js';
import { simGateway } from '../helpers/gateway.js';

const credentials = { apiKey: 'KEY', secretKey: 'SECRET' };

async function exposedApp(appsDir?: string, bindHost = '0.0.0.0', requireAuth = false) {
  const { gateway } = simGateway({
    clock: new ManualClock(MONDAY_MORNING),
    seed: 1,
    clockMode: 'always-open',
    apiKey: 'KEY',
  });
  const identity = { version: 'test', scheme: 'http' as const, protocols: ['HTTP/1.1'], startedAt: Date.now() };
  const app = await buildApp({ gateway, bindHost, credentials, identity, appsDir, requireAuth });
  await app.ready();
  return app;
}

describe('a gateway bound beyond loopback', () => {
  test('refuses to start without keys, on both the config and the app level', async () => {
    assert.throws(
      () => loadConfig({ SJ_HTTP_ADDR: '0.0.0.0:8080' }),
      (error: unknown) => error instanceof ConfigError && /set SJ_API_KEY and SJ_SEC_KEY/.test(error.message),
    );
    const { gateway } = simGateway({
      clock: new ManualClock(MONDAY_MORNING),
      seed: 1,
      clockMode: 'always-open',
      apiKey: null,
    });
    const identity = { version: 'test', scheme: 'http' as const, protocols: ['HTTP/1.1'], startedAt: Date.now() };
    await assert.rejects(buildApp({ gateway, bindHost: '192.168.1.5', identity }), ConfigError);
    assert.equal(loadConfig({ SJ_HTTP_ADDR: '0.0.0.0:8080', SJ_API_KEY: 'k', SJ_SEC_KEY: 's' }).host, '0.0.0.0');
  });

  test('protected routes need Authorization: Bearer <api_key>:<secret_key>, with the official messages', async () => {
    const app = await exposedApp();
    const accounts = (authorization?: string) =>
      app.inject({ method: 'GET', url: '/api/v1/auth/accounts', headers: authorization ? { authorization } : {} });
    const cases: [string | undefined, string][] = [
      [undefined, 'Missing Authorization header'],
      ['Basic abc', 'Invalid Authorization format, expected: Bearer <api_key>:<secret_key>'],
      ['Bearer KEYSECRET', 'Invalid token format, expected: <api_key>:<secret_key>'],
      ['Bearer KEY:WRONG', 'Invalid API credentials'],
    ];
    for (const [authorization, message] of cases) {
      const response = await accounts(authorization);
      assert.equal(response.statusCode, 401, String(authorization));
      assert.deepEqual(response.json(), { code: 401, error: 'UNAUTHORIZED', message, details: null });
      assert.equal(response.headers['www-authenticate'], 'Bearer');
    }
    const allowed = await accounts('Bearer KEY:SECRET');
    assert.equal(allowed.statusCode, 200);
    assert.equal(allowed.json().length, 2);
  });

  test('health, info and the docs stay public', async () => {
    const app = await exposedApp();
    for (const url of ['/api/v1/health', '/api/v1/info', '/openapi.json']) {
      const response = await app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 200, url);
    }
    assert.equal((await app.inject({ method: 'GET', url: '/api/v1/data/contracts/2330' })).statusCode, 401);
  });

  test("the dashboard's page (with or without a query) and its assets need no token; its API calls do", async () => {
    const app = await exposedApp();
    for (const url of ['/', '/?from=bookmark']) {
      const response = await app.inject({ method: 'GET', url });
      assert.notEqual(response.statusCode, 401, url);
      assert.match(String(response.headers['content-type']), /text\/html/, url);
    }
    const asset = await app.inject({ method: 'GET', url: '/assets/missing-a1b2c3d4.js' });
    assert.equal(asset.statusCode, 404, 'a missing asset is not found, not unauthorized');
    const protectedWithQuery = await app.inject({ method: 'GET', url: '/api/v1/auth/accounts?x=/' });
    assert.equal(protectedWithQuery.statusCode, 401);
  });

  test('every route of the API but health and info needs the token, so a new one cannot be left open', async () => {
    const appsDir = mkdtempSync(join(tmpdir(), 'sjgate-apps-'));
    try {
      const app = await exposedApp(appsDir);
      const doc = (await app.inject('/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
      const PUBLIC = new Set([SERVER_PATHS.health, SERVER_PATHS.info]);
      let checked = 0;
      for (const [path, operations] of Object.entries(doc.paths)) {
        if (!path.startsWith(`${API_PREFIX}/`) || PUBLIC.has(path as never)) continue;
        const url = path.replace(/\{[^}]+\}/g, 'x');
        for (const method of Object.keys(operations)) {
          const response = await app.inject({ method: method.toUpperCase() as 'GET', url });
          assert.equal(response.statusCode, 401, `${method.toUpperCase()} ${path}`);
          checked++;
        }
      }
      assert.ok(checked > 50, `only ${checked} operations`);
      for (const url of PUBLIC) assert.equal((await app.inject({ method: 'GET', url })).statusCode, 200, url);
      // An unknown path of the API needs the token as well; the public pages of apps do not.
      assert.equal((await app.inject({ method: 'GET', url: '/api/v1/no/such/route' })).statusCode, 401);
      assert.equal((await app.inject({ method: 'GET', url: '/apps/missing/' })).statusCode, 404);
      await app.close();
    } finally {
      rmSync(appsDir, { recursive: true, force: true });
    }
  });
});

describe('SJ_HTTP_AUTH (server start --auth): the token on a loopback bind too', () => {
  test('the config reads it, and refuses it without keys', () => {
    const keys = { SJ_API_KEY: 'k', SJ_SEC_KEY: 's' };
    assert.equal(loadConfig(keys).httpAuth, false);
    assert.equal(loadConfig({ ...keys, SJ_HTTP_AUTH: 'true' }).httpAuth, true);
    assert.throws(
      () => loadConfig({ SJ_HTTP_AUTH: 'true' }),
      (error: unknown) =>
        error instanceof ConfigError && /SJ_HTTP_AUTH=true.*set SJ_API_KEY and SJ_SEC_KEY/.test(error.message),
    );
    assert.throws(() => loadConfig({ ...keys, SJ_HTTP_AUTH: 'maybe' }), /SJ_HTTP_AUTH must be 'true' or 'false'/);
  });

  test('a loopback gateway asks for the token when told to, and not otherwise', async () => {
    for (const requireAuth of [true, false]) {
      const app = await exposedApp(undefined, '127.0.0.1', requireAuth);
      const bare = await app.inject({ method: 'GET', url: '/api/v1/auth/accounts' });
      assert.equal(bare.statusCode, requireAuth ? 401 : 200, `requireAuth ${requireAuth}`);
      const withToken = await app.inject({
        method: 'GET',
        url: '/api/v1/auth/accounts',
        headers: { authorization: 'Bearer KEY:SECRET' },
      });
      assert.equal(withToken.statusCode, 200);
      assert.equal((await app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode, 200, 'health stays public');
      await app.close();
    }
  });
});
