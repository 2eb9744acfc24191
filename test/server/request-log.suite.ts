// The request log: one line per request, and no secret in it (the bearer token, cookies, keys in a body or a query).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../src/domain/time.js';
import { createLogger } from '../../src/log.js';
import { buildApp } from '../../src/server/app.js';
import { loggedUrl } from '../../src/server/plugins/request-log.js';
import { MONDAY_MORNING } from '../helpers/app.js';
import { simGateway } from '../helpers/gateway.js';

const API_KEY = 'KEY4f2a9c';
const SECRET_KEY = 'SECRETb71e0d';
const SECRETS = [API_KEY, SECRET_KEY, 'COOKIE93ac', 'QUERYTOKEN5e1', 'QUERYKEY77d2', 'BODYKEY1c9f', 'BODYSECRET0a4b'];

async function loggedApp(errorsOnly = false) {
  const lines: string[] = [];
  const { gateway } = simGateway({
    clock: new ManualClock(MONDAY_MORNING),
    seed: 1,
    clockMode: 'always-open',
    apiKey: null,
  });
  const app = await buildApp({
    gateway,
    bindHost: '0.0.0.0',
    credentials: { apiKey: API_KEY, secretKey: SECRET_KEY },
    identity: { version: 'test', scheme: 'http', protocols: ['HTTP/1.1'], startedAt: Date.now() },
    requestLog: { logger: createLogger((line) => lines.push(line)), errorsOnly },
  });
  await app.ready();
  return { app, lines };
}

describe('the request log', () => {
  test('one line per request: method, URL, status, time and listener', async () => {
    const { app, lines } = await loggedApp();
    await app.inject({ method: 'GET', url: '/api/v1/health' });
    await app.inject({ method: 'GET', url: '/api/v1/auth/accounts' });
    await app.inject({ method: 'GET', url: '/api/v1/no/such/route' });
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(logged.length, 3, lines.join(''));
    assert.deepEqual(
      logged.map(({ method, url, status, listener }) => ({ method, url, status, listener })),
      [
        { method: 'GET', url: '/api/v1/health', status: 200, listener: 'tcp' },
        { method: 'GET', url: '/api/v1/auth/accounts', status: 401, listener: 'tcp' },
        { method: 'GET', url: '/api/v1/no/such/route', status: 401, listener: 'tcp' },
      ],
    );
    for (const line of logged) assert.equal(typeof line.ms, 'number');
    await app.close();
  });

  test('the default level writes only requests answered with an error', async () => {
    const { app, lines } = await loggedApp(true);
    await app.inject({ method: 'GET', url: '/api/v1/health' });
    await app.inject({ method: 'GET', url: '/api/v1/auth/accounts' });
    await app.inject({ method: 'GET', url: '/api/v1/health' });
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      logged.map(({ url, status }) => ({ url, status })),
      [{ url: '/api/v1/auth/accounts', status: 401 }],
    );
    await app.close();
  });

  test('no secret is written: the token, cookies, keys in a query or in a body of /api/v1/auth/*', async () => {
    const { app, lines } = await loggedApp();
    const headers = { authorization: `Bearer ${API_KEY}:${SECRET_KEY}`, cookie: 'session=COOKIE93ac' };
    const answers = [
      await app.inject({
        method: 'GET',
        url: '/api/v1/auth/accounts?token=QUERYTOKEN5e1&api_key=QUERYKEY77d2',
        headers,
      }),
      await app.inject({
        method: 'POST',
        url: '/api/v1/auth/default_account',
        headers,
        payload: { api_key: 'BODYKEY1c9f', secret_key: 'BODYSECRET0a4b' },
      }),
      await app.inject({
        method: 'GET',
        url: '/api/v1/auth/usage',
        headers: { authorization: 'Bearer BODYKEY1c9f:x' },
      }),
    ];
    assert.deepEqual(
      answers.map((answer) => answer.statusCode),
      [200, 422, 401],
    );
    const log = lines.join('');
    assert.equal(lines.length, 3, log);
    for (const secret of SECRETS) assert.ok(!log.includes(secret), `${secret} is in the log:\n${log}`);
    assert.match(log, /token=\[redacted\]&api_key=\[redacted\]/);
    await app.close();
  });

  test('a logged object that holds a secret has it redacted', () => {
    const lines: string[] = [];
    const logger = createLogger((line) => lines.push(line));
    logger.info({
      req: { headers: { authorization: `Bearer ${API_KEY}:${SECRET_KEY}`, cookie: 'COOKIE93ac' } },
      body: { api_key: 'BODYKEY1c9f', secret_key: 'BODYSECRET0a4b' },
    });
    const log = lines.join('');
    for (const secret of SECRETS) assert.ok(!log.includes(secret), `${secret} is in the log:\n${log}`);
  });

  test('query parameters that may hold a secret have their value replaced, others are kept', () => {
    assert.equal(loggedUrl('/api/v1/health'), '/api/v1/health');
    assert.equal(
      loggedUrl('/a?last_event_id=42&access_token=t&X-API-KEY=k&api%5Fkey=k&password=p&q=1&flag'),
      '/a?last_event_id=42&access_token=[redacted]&X-API-KEY=[redacted]&api%5Fkey=[redacted]&password=[redacted]&q=1&flag',
    );
  });
});
