// Which web pages may call the API from a browser: the gateway's own, pages on this machine (a client's dev server
// on any port of localhost, 127.0.0.1 or [::1]), and origins listed in SJ_HTTP_CORS_ORIGINS; those get CORS
// answers and preflights; every other origin is refused with the envelope, preflight included.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { ManualClock } from '../../src/domain/time.js';
import { buildApp } from '../../src/server/app.js';
import { MONDAY_MORNING } from '../helpers/app.js';
import { simGateway } from '../helpers/gateway.js';

const LISTED = 'https://desk.example.com:8443';
let app: FastifyInstance;

/** The app with LISTED in SJ_HTTP_CORS_ORIGINS, and loopback pages allowed unless told. */
async function appWithOrigins(corsLoopback = true): Promise<FastifyInstance> {
  const { gateway } = simGateway({
    clock: new ManualClock(MONDAY_MORNING),
    seed: 1,
    clockMode: 'always-open',
    apiKey: null,
  });
  const built = await buildApp({
    gateway,
    bindHost: '127.0.0.1',
    corsOrigins: [LISTED],
    corsLoopback,
    rateLimits: false,
    identity: { version: 'test', scheme: 'http', protocols: ['HTTP/1.1'], startedAt: Date.now() },
  });
  await built.ready();
  return built;
}

before(async () => {
  app = await appWithOrigins();
});
after(() => app.close());

const host = 'localhost:8080';

describe('cross-origin pages', () => {
  test('a page on any loopback port calls the API and reads the answer', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:4200', 'https://localhost']) {
      const response = await app.inject({ method: 'GET', url: '/api/v1/auth/accounts', headers: { host, origin } });
      assert.equal(response.statusCode, 200, origin);
      assert.equal(response.headers['access-control-allow-origin'], origin);
      assert.match(String(response.headers.vary), /Origin/);
      assert.equal((response.json() as unknown[]).length, 2);
    }
  });

  test('its preflight is answered for the API methods and headers, cached 600 s', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/order/place_order',
      headers: {
        host,
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, idempotency-key',
      },
    });
    assert.equal(response.statusCode, 204);
    assert.equal(response.headers['access-control-allow-origin'], 'http://localhost:5173');
    assert.match(String(response.headers['access-control-allow-methods']), /POST/);
    assert.match(String(response.headers['access-control-allow-methods']), /DELETE/);
    assert.match(String(response.headers['access-control-allow-headers']), /Idempotency-Key/);
    assert.equal(response.headers['access-control-max-age'], '600');
  });

  test('an origin listed in SJ_HTTP_CORS_ORIGINS is allowed; another site is refused, its preflight too', async () => {
    const listed = await app.inject({ method: 'GET', url: '/api/v1/info', headers: { host, origin: LISTED } });
    assert.equal(listed.statusCode, 200);
    assert.equal(listed.headers['access-control-allow-origin'], LISTED);
    for (const method of ['GET', 'OPTIONS'] as const) {
      const refused = await app.inject({
        method,
        url: '/api/v1/info',
        headers: { host, origin: 'https://evil.example.com', 'access-control-request-method': 'GET' },
      });
      assert.equal(refused.statusCode, 403, method);
      assert.equal(refused.headers['access-control-allow-origin'], undefined);
      const body = refused.json() as { error: string; message: string };
      assert.equal(body.error, 'FORBIDDEN_ORIGIN');
      assert.match(body.message, /SJ_HTTP_CORS_ORIGINS lists others/);
    }
  });

  test('a request without an Origin gets no CORS headers but varies by Origin; its OPTIONS is an unknown route', async () => {
    const plain = await app.inject({ method: 'GET', url: '/api/v1/data/contracts/2330/info', headers: { host } });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers.vary, 'Origin');
    assert.equal(plain.headers['access-control-allow-origin'], undefined);
    const options = await app.inject({ method: 'OPTIONS', url: '/api/v1/info', headers: { host } });
    assert.equal(options.statusCode, 404);
    assert.equal((options.json() as { code: number }).code, 404);
    const crossRead = await app.inject({
      method: 'GET',
      url: '/api/v1/info',
      headers: { host, origin: 'http://localhost:5173' },
    });
    assert.equal(crossRead.headers['access-control-expose-headers'], 'Retry-After, Location, Content-Disposition');
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/no/such/path',
      headers: { host, origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['content-length'], '0');
    assert.equal(preflight.body, '');
  });

  test('a same-origin page needs no CORS headers', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/info',
      headers: { host, origin: 'http://localhost:8080' },
    });
    assert.equal(response.statusCode, 200);
  });
});

describe('SJ_HTTP_CORS_LOOPBACK=off', () => {
  test('pages on other loopback ports are refused too; listed origins still pass', async () => {
    const strict = await appWithOrigins(false);
    try {
      const local = await strict.inject({
        method: 'GET',
        url: '/api/v1/auth/accounts',
        headers: { host, origin: 'http://localhost:5173' },
      });
      assert.equal(local.statusCode, 403);
      assert.equal((local.json() as { error: string }).error, 'FORBIDDEN_ORIGIN');
      const listed = await strict.inject({ method: 'GET', url: '/api/v1/info', headers: { host, origin: LISTED } });
      assert.equal(listed.statusCode, 200);
      const own = await strict.inject({
        method: 'GET',
        url: '/api/v1/info',
        headers: { host, origin: 'http://localhost:8080' },
      });
      assert.equal(own.statusCode, 200);
    } finally {
      await strict.close();
    }
    assert.equal(loadConfig({ SJ_HTTP_CORS_LOOPBACK: 'off' }).corsLoopback, false);
    assert.equal(loadConfig({}).corsLoopback, true);
  });
});

describe('SJ_HTTP_CORS_ORIGINS', () => {
  test('takes a comma list of origins; refuses * and anything with a path', () => {
    assert.deepEqual(loadConfig({ SJ_HTTP_CORS_ORIGINS: `${LISTED}, http://10.0.0.5:3000/` }).corsOrigins, [
      LISTED,
      'http://10.0.0.5:3000',
    ]);
    assert.deepEqual(loadConfig({}).corsOrigins, []);
    assert.throws(() => loadConfig({ SJ_HTTP_CORS_ORIGINS: '*' }), /cannot be '\*': any web page could then trade/);
    assert.throws(() => loadConfig({ SJ_HTTP_CORS_ORIGINS: 'https://a.example.com/app' }), /is not an origin/);
    assert.throws(() => loadConfig({ SJ_HTTP_CORS_ORIGINS: 'ftp://a.example.com' }), /is not an origin/);
    assert.throws(() => loadConfig({ SJ_HTTP_CORS_ORIGINS: 'not a url' }), /is not an origin/);
  });
});
