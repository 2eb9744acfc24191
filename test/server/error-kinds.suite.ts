// Every error answer names its kind in `error`, and its status is the one the edge's table gives that kind.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, test } from 'node:test';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { ERROR_KINDS, type ErrorKind, GATEWAY_FAULT_KINDS, isErrorKind } from '../../src/domain/errors.js';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { type AppOptions, buildApp } from '../../src/server/app.js';
import { clientErrorKind, errorsPlugin, handleClientError, STATUS_OF_KIND } from '../../src/server/plugins/errors.js';
import { dashboardRoutes } from '../../src/server/routes/dashboard.js';
import { MONDAY_MORNING, testApp } from '../helpers/app.js';
import { assertErrorKind } from '../helpers/errors.js';
import { simGateway } from '../helpers/gateway.js';

type Json = Record<string, unknown>;

const apps: FastifyInstance[] = [];
const dirs: string[] = [];
after(async () => {
  await Promise.all(apps.map((app) => app.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const identity = { version: 'test', scheme: 'http' as const, protocols: ['HTTP/1.1'], startedAt: Date.now() };

async function gateway(options: Partial<AppOptions> = {}, at = MONDAY_MORNING, clockMode = 'always-open' as const) {
  const { gateway } = simGateway({ clock: new ManualClock(at), seed: 1, clockMode, apiKey: null });
  const app = await buildApp({ gateway, bindHost: '127.0.0.1', rateLimits: false, identity, ...options });
  await app.ready();
  apps.push(app);
  return app;
}

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sjgate-error-kinds-'));
  dirs.push(dir);
  return dir;
};

/** Answers `request` and checks it is an error of `kind` at the status of the table. */
async function assertAnswer(app: FastifyInstance, request: InjectOptions, kind: ErrorKind): Promise<Json> {
  const response = await app.inject(request);
  assert.equal(response.statusCode, STATUS_OF_KIND[kind], `${kind}: ${response.body}`);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  const body = response.json() as Json;
  assertErrorKind(body, response.statusCode, kind);
  assert.equal(typeof body.message, 'string');
  return body;
}

describe('the table from kind to status', () => {
  test('gives every kind one status, and nothing else', () => {
    assert.deepEqual(Object.keys(STATUS_OF_KIND).sort(), [...ERROR_KINDS].sort());
    assert.equal(new Set(ERROR_KINDS).size, ERROR_KINDS.length, 'each kind once');
    for (const kind of ERROR_KINDS) {
      assert.match(kind, /^[A-Z][A-Z_]*[A-Z]$/, 'kinds are UPPER_SNAKE_CASE');
      const status = STATUS_OF_KIND[kind];
      assert.ok(Number.isInteger(status) && status >= 400 && status < 600, `${kind}: ${status}`);
      assert.ok(isErrorKind(kind));
    }
    assert.ok(!isErrorKind('NOT_A_KIND'));
  });

  test('the gateway-fault kinds are exactly the 5xx ones; every kind named NOT_FOUND is a 404', () => {
    for (const kind of ERROR_KINDS) {
      assert.equal(GATEWAY_FAULT_KINDS.has(kind), STATUS_OF_KIND[kind] >= 500, kind);
      if (kind.endsWith('_NOT_FOUND')) assert.equal(STATUS_OF_KIND[kind], 404, kind);
    }
  });

  test('a client error that comes with only a status gets a kind of that status, or INVALID_REQUEST', () => {
    for (const status of [400, 404, 408, 411, 413, 414, 415, 431]) {
      assert.equal(STATUS_OF_KIND[clientErrorKind(status)], status, String(status));
    }
    assert.equal(clientErrorKind(418), 'INVALID_REQUEST');
  });
});

describe('error answers of the gateway', () => {
  test('not found: contract, tick rule, order, account, position, profit_loss, route', async () => {
    const { app } = await testApp();
    apps.push(app);
    await assertAnswer(app, { method: 'GET', url: '/api/v1/data/contracts/NOPE' }, 'CONTRACT_NOT_FOUND');
    await assertAnswer(
      app,
      { method: 'GET', url: '/api/v1/data/contracts/tick-bands/NOPE?security_type=FUT' },
      'TICK_RULE_NOT_FOUND',
    );
    const cancel = { method: 'POST' as const, url: '/api/v1/order/cancel_order', payload: { trade_id: 'nope' } };
    await assertAnswer(app, cancel, 'ORDER_NOT_FOUND');
    const account = { broker_id: 'X000', account_id: '0000000' };
    await assertAnswer(
      app,
      { method: 'POST', url: '/api/v1/auth/default_account', payload: account },
      'ACCOUNT_NOT_FOUND',
    );
    const detail = { detail_id: 999 };
    await assertAnswer(
      app,
      { method: 'POST', url: '/api/v1/portfolio/position_detail', payload: detail },
      'POSITION_NOT_FOUND',
    );
    await assertAnswer(
      app,
      { method: 'POST', url: '/api/v1/portfolio/profit_loss_detail', payload: detail },
      'PROFIT_LOSS_NOT_FOUND',
    );
    await assertAnswer(app, { method: 'GET', url: '/api/v1/nope' }, 'ROUTE_NOT_FOUND');
  });

  test('a wrong request: invalid, not valid JSON, against the schema, an unknown event id, a reused key', async () => {
    const { app } = await testApp();
    apps.push(app);
    await assertAnswer(
      app,
      { method: 'GET', url: '/api/v1/data/contracts/futures?root=TXF&underlying_code=2330' },
      'INVALID_REQUEST',
    );
    const json = { 'content-type': 'application/json' };
    await assertAnswer(
      app,
      { method: 'POST', url: '/api/v1/data/snapshots', headers: json, payload: '{' },
      'INVALID_JSON',
    );
    const violation = await assertAnswer(
      app,
      { method: 'POST', url: '/api/v1/data/snapshots', payload: { contracts: 'all' } },
      'VALIDATION_FAILED',
    );
    assert.ok(Array.isArray(violation.details));
    await assertAnswer(
      app,
      { method: 'GET', url: '/api/v1/stream/data', headers: { 'last-event-id': 'yesterday' } },
      'UNKNOWN_EVENT_ID',
    );
    const order = (quantity: number) => ({
      contract: { code: '2330' },
      stock_order: { action: 'Buy', price: 1000, quantity, price_type: 'LMT', order_type: 'ROD' },
    });
    const place = (quantity: number): InjectOptions => ({
      method: 'POST',
      url: '/api/v1/order/place_order',
      headers: { 'idempotency-key': 'error-kinds-1' },
      payload: order(quantity),
    });
    assert.equal((await app.inject(place(1))).statusCode, 200);
    await assertAnswer(app, place(2), 'IDEMPOTENCY_KEY_REUSED');
  });

  test('trading_limits outside its hours is OUTSIDE_HOURS', async () => {
    const app = await gateway({}, taipeiInstant('2026-11-21', '10:00'), 'exchange' as never);
    await assertAnswer(app, { method: 'POST', url: '/api/v1/portfolio/trading_limits', payload: {} }, 'OUTSIDE_HOURS');
  });

  test('the body and the URL: too large, of another type, a bad escape, a parameter too long', async () => {
    const { app } = await testApp();
    apps.push(app);
    const big = JSON.stringify({ contracts: [{ code: 'x'.repeat(300 * 1024) }] });
    await assertAnswer(
      app,
      { method: 'POST', url: '/api/v1/data/snapshots', headers: { 'content-type': 'application/json' }, payload: big },
      'TOO_LARGE',
    );
    await assertAnswer(
      app,
      { method: 'POST', url: '/api/v1/data/snapshots', headers: { 'content-type': 'text/plain' }, payload: 'x' },
      'UNSUPPORTED_MEDIA_TYPE',
    );
    await assertAnswer(app, { method: 'GET', url: '/api/v1/data/contracts/%E0%A4%A' }, 'MALFORMED_URL');
    await assertAnswer(app, { method: 'GET', url: `/api/v1/data/contracts/${'A'.repeat(5000)}/info` }, 'URL_TOO_LONG');
  });

  test('the guards: a foreign Host, a foreign Origin, no credentials', async () => {
    const { app } = await testApp();
    apps.push(app);
    await assertAnswer(
      app,
      { method: 'GET', url: '/api/v1/info', headers: { host: 'evil.example.com' } },
      'FORBIDDEN_HOST',
    );
    await assertAnswer(
      app,
      { method: 'GET', url: '/api/v1/info', headers: { host: 'localhost', origin: 'https://evil.example.com' } },
      'FORBIDDEN_ORIGIN',
    );
    const exposed = await gateway({ bindHost: '0.0.0.0', credentials: { apiKey: 'KEY', secretKey: 'SECRET' } });
    await assertAnswer(exposed, { method: 'GET', url: '/api/v1/auth/accounts' }, 'UNAUTHORIZED');
  });

  test('limits: the call rate, the streams cap', async () => {
    const limited = await gateway({ rateLimits: true });
    const balance = { method: 'POST' as const, url: '/api/v1/portfolio/account_balance', payload: {} };
    for (let i = 0; i < 25; i++) assert.equal((await limited.inject(balance)).statusCode, 200);
    await assertAnswer(limited, balance, 'RATE_LIMITED');
    const capped = await gateway({ streams: { maxConnections: 0 } });
    await assertAnswer(capped, { method: 'GET', url: '/api/v1/stream/data' }, 'STREAM_CAPACITY');
  });

  test('apps: an app that is not there, a file an app does not have', async () => {
    const app = await gateway({ appsDir: tempDir() });
    await assertAnswer(app, { method: 'DELETE', url: '/api/v1/apps/nope' }, 'APP_NOT_FOUND');
    await assertAnswer(app, { method: 'GET', url: '/apps/nope/' }, 'APP_NOT_FOUND');
    await assertAnswer(app, { method: 'GET', url: '/apps/Not%20A%20Name/' }, 'INVALID_REQUEST');
  });

  test("the gateway's faults: its disk full, its journal failing, a bug, the dashboard not built", async () => {
    const app = Fastify();
    apps.push(app);
    await app.register(errorsPlugin);
    const failing = (code: string) => () => {
      throw Object.assign(new Error(`${code}: /secret/path`), { code });
    };
    app.get('/full', failing('SQLITE_FULL'));
    app.get('/enospc', failing('ENOSPC'));
    app.get('/ioerr', failing('SQLITE_IOERR_WRITE'));
    app.get('/bug', () => {
      throw new TypeError('x is not a function');
    });
    app.get('/teapot', () => {
      throw Object.assign(new Error('short and stout'), { statusCode: 418 });
    });
    await app.register(dashboardRoutes({ root: tempDir() }));
    for (const url of ['/full', '/enospc']) {
      const body = await assertAnswer(app, { method: 'GET', url }, 'DISK_FULL');
      assert.doesNotMatch(String(body.message), /secret/);
    }
    await assertAnswer(app, { method: 'GET', url: '/ioerr' }, 'JOURNAL_UNAVAILABLE');
    await assertAnswer(app, { method: 'GET', url: '/bug' }, 'INTERNAL');
    await assertAnswer(app, { method: 'GET', url: '/teapot' }, 'INVALID_REQUEST');
    await assertAnswer(
      app,
      { method: 'GET', url: '/', headers: { accept: 'application/json' } },
      'DASHBOARD_NOT_BUILT',
    );
  });

  test('HTTP that Node refuses: malformed, headers too large, too slow', async () => {
    const cases: [string, ErrorKind][] = [
      ['HPE_INVALID_METHOD', 'MALFORMED_HTTP'],
      ['HPE_HEADER_OVERFLOW', 'HEADERS_TOO_LARGE'],
      ['ERR_HTTP_REQUEST_TIMEOUT', 'REQUEST_TIMEOUT'],
    ];
    for (const [code, kind] of cases) {
      const socket = new PassThrough();
      const written: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => written.push(chunk));
      const ended = new Promise((resolve) => socket.on('end', resolve));
      handleClientError(Object.assign(new Error(code), { code }), socket);
      await ended;
      const [head, body] = Buffer.concat(written).toString().split('\r\n\r\n', 2) as [string, string];
      const status = STATUS_OF_KIND[kind];
      assert.match(head, new RegExp(`^HTTP/1\\.1 ${status} `), code);
      assertErrorKind(JSON.parse(body), status, kind);
    }
  });
});

describe('the OpenAPI document', () => {
  test('every error response is the ErrorEnvelope, whose error lists every kind', async () => {
    const { app } = await testApp();
    apps.push(app);
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as Json;
    let checked = 0;
    for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
          if (Number(status) < 400) continue;
          const where = `${method} ${path} ${status}`;
          const content = response.content as Record<string, { schema: Json }>;
          const schema = content['application/json']!.schema;
          const properties = schema.properties as Record<string, Json>;
          assert.deepEqual(Object.keys(properties).sort(), ['code', 'details', 'error', 'message'], where);
          assert.deepEqual([...(schema.required as string[])].sort(), ['code', 'details', 'error', 'message'], where);
          assert.deepEqual(properties.error!.enum, [...ERROR_KINDS], where);
          checked++;
        }
      }
    }
    assert.ok(checked > 50, `${checked} error responses checked`);
  });
});
