// The fast lane answers a repeated contract info lookup before Fastify does, over real sockets (app.inject goes
// straight to Fastify's handler). A cached URL gets the same refusals as through Fastify (Host, Origin, token), the
// monitor counts what the lane answers, and the lane stands aside when it cannot apply every check.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingHttpHeaders, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { ManualClock, taipeiInstant } from '../../src/domain/time.js';
import { VenueCalls } from '../../src/gateway/venue-calls.js';
import { type AppOptions, buildApp } from '../../src/server/app.js';
import { closeSocketServer, listenOnSocket } from '../../src/server/listen.js';
import { MONDAY_MORNING } from '../helpers/app.js';
import { simGateway } from '../helpers/gateway.js';

const INFO = '/api/v1/data/contracts/2330/info';
const CREDENTIALS = { apiKey: 'KEY', secretKey: 'SECRET' };
const TOKEN = 'Bearer KEY:SECRET';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

type Target = { port: number } | { socketPath: string };

function get(target: Target, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request({ ...target, host: '127.0.0.1', path, method, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** The headers that say what an answer is (Date and the connection's own left out). */
const answerHeaders = ({ headers }: Answer | { headers: Record<string, unknown> }) =>
  Object.fromEntries(
    Object.entries(headers).filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name.toLowerCase())),
  );

const apps: FastifyInstance[] = [];
after(async () => {
  for (const app of apps) await app.close();
});

async function listening(options: Partial<AppOptions> = {}) {
  const clock = new ManualClock(MONDAY_MORNING);
  const venueCalls = new VenueCalls();
  const { gateway } = simGateway({ clock, seed: 1, clockMode: 'always-open', apiKey: 'KEY', venueCalls });
  const app = await buildApp({
    monitor: { venueCalls },
    gateway,
    bindHost: '127.0.0.1',
    rateLimits: false,
    identity: { version: 'test', scheme: 'http', protocols: ['HTTP/1.1'], startedAt: Date.now() },
    ...options,
  });
  apps.push(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, clock, tcp: { port }, venueCalls };
}

let shared: ReturnType<typeof listening> | undefined;
/** One app with the default options for the tests that only look at their own requests. */
const plainApp = () => {
  shared ??= listening();
  return shared;
};

/** Asks twice: the first answer comes from the route (and is kept), the second from the lane. */
async function primed(target: Target, app: FastifyInstance, headers: Record<string, string> = {}) {
  const first = await get(target, INFO, headers);
  assert.equal(first.status, 200, first.body);
  const before = app.fastLane.answered;
  const second = await get(target, INFO, headers);
  assert.equal(app.fastLane.answered, before + 1, 'the second request is the lane’s');
  return { first, second };
}

describe('fast lane', { timeout: 30_000 }, () => {
  test('answers a repeated lookup with the bytes and headers Fastify sent', async () => {
    const { app, tcp } = await plainApp();
    const { first, second } = await primed(tcp, app);
    assert.equal(second.body, first.body);
    assert.deepEqual(answerHeaders(second), answerHeaders(first));
    assert.equal(second.headers['keep-alive'], first.headers['keep-alive'], 'the server keeps Fastify’s timeouts');
    const injected = await app.inject({ method: 'GET', url: INFO });
    assert.equal(second.body, injected.body);
    assert.deepEqual(answerHeaders(second), answerHeaders(injected));
  });

  test('a cached URL with a bad Host or Origin gets the refusal Fastify gives, not the lane’s answer', async () => {
    const { app, tcp } = await plainApp();
    await primed(tcp, app);
    const refused: Record<string, string>[] = [
      { host: 'evil.example' },
      { host: 'evil.example:80' },
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: 'not a url' },
    ];
    for (const headers of refused) {
      const before = app.fastLane.answered;
      const answer = await get(tcp, INFO, headers);
      const injected = await app.inject({ method: 'GET', url: INFO, headers: { host: '127.0.0.1', ...headers } });
      assert.equal(answer.status, 403, JSON.stringify(headers));
      assert.equal(answer.body, injected.body);
      assert.match(JSON.parse(answer.body).error, /^FORBIDDEN_(HOST|ORIGIN)$/);
      assert.equal(app.fastLane.answered, before, 'refused by Fastify, not answered by the lane');
    }
  });

  test('an allowed cross origin still gets its CORS headers (from Fastify)', async () => {
    const { app, tcp } = await plainApp();
    await primed(tcp, app);
    const origin = 'http://localhost:5173';
    const before = app.fastLane.answered;
    const answer = await get(tcp, INFO, { origin });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['access-control-allow-origin'], origin);
    assert.equal(answer.headers.vary, 'Origin');
    assert.equal(app.fastLane.answered, before);
    const preflight = await get(tcp, INFO, { origin, 'access-control-request-method': 'GET' }, 'OPTIONS');
    assert.equal(preflight.status, 204);
  });

  test('with a token required, a cached URL needs it on TCP, with the same 401s; the Unix socket needs none', async () => {
    const socketDir = mkdtempSync(join(tmpdir(), 'sjgate-lane-'));
    const socketPath = join(socketDir, 'sjgate.sock');
    const { app, tcp } = await listening({ credentials: CREDENTIALS, requireAuth: true });
    const socketServer = await listenOnSocket(app, socketPath);
    try {
      await primed(tcp, app, { authorization: TOKEN });
      for (const authorization of [undefined, 'Bearer KEY:WRONG', 'Basic abc']) {
        const headers: Record<string, string> = authorization ? { authorization } : {};
        const before = app.fastLane.answered;
        const answer = await get(tcp, INFO, headers);
        const injected = await app.inject({ method: 'GET', url: INFO, headers });
        assert.equal(answer.status, 401, String(authorization));
        assert.equal(answer.body, injected.body);
        assert.equal(answer.headers['www-authenticate'], 'Bearer');
        assert.equal(app.fastLane.answered, before);
      }
      const local = await primed({ socketPath }, app);
      assert.equal(local.second.status, 200);
    } finally {
      await closeSocketServer(socketServer, socketPath);
      rmSync(socketDir, { recursive: true, force: true });
    }
  });

  test('the monitor counts what the lane answers, with the route’s pattern and the request’s origin', async () => {
    const { app, tcp } = await listening();
    await primed(tcp, app);
    for (let i = 0; i < 3; i++) await get(tcp, INFO, { 'x-shioaji-activity': 'dashboard' });
    const metrics = async (origin: string) =>
      (await app.inject({ method: 'GET', url: `/api/v1/monitor/metrics?origin=${origin}` })).json() as {
        endpoints: { endpoint: string; requests: number; errors: number }[];
      };
    const endpoint = (body: Awaited<ReturnType<typeof metrics>>) =>
      body.endpoints.find((entry) => entry.endpoint === '/api/v1/data/contracts/:code/info');
    assert.deepEqual(
      { requests: endpoint(await metrics('user'))?.requests, errors: endpoint(await metrics('user'))?.errors },
      { requests: 2, errors: 0 },
    );
    assert.equal(endpoint(await metrics('dashboard'))?.requests, 3);
  });

  test('a new listing day is not answered from the lane', async () => {
    const { app, clock, tcp } = await listening();
    const { second } = await primed(tcp, app);
    assert.equal(JSON.parse(second.body).update_date, '2026-11-23');
    clock.set(taipeiInstant('2026-11-24', '10:00'));
    const before = app.fastLane.answered;
    const next = await get(tcp, INFO);
    assert.equal(JSON.parse(next.body).update_date, '2026-11-24');
    assert.equal(app.fastLane.answered, before);
    await primed(tcp, app);
  });

  test('HEAD, a GET with a body and an unknown code go to Fastify', async () => {
    const { app, tcp } = await plainApp();
    await primed(tcp, app);
    const before = app.fastLane.answered;
    assert.equal((await get(tcp, INFO, {}, 'HEAD')).status, 200);
    assert.equal((await get(tcp, INFO, { 'content-length': '0' })).status, 200);
    const unknown = await get(tcp, '/api/v1/data/contracts/ZZZZ9/info');
    assert.equal(unknown.status, 404);
    assert.equal((await get(tcp, '/api/v1/data/contracts/ZZZZ9/info')).status, 404);
    assert.equal(app.fastLane.answered, before);
  });

  test('stays closed when every request must get a line in the request log', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const { app, tcp } = await listening({ requestLog: { logger, errorsOnly: false } });
    for (let i = 0; i < 2; i++) assert.equal((await get(tcp, INFO)).status, 200);
    assert.equal(app.fastLane.answered, 0);
    assert.equal(lines.filter((line) => line.includes('/contracts/2330/info')).length, 2);
  });

  test('the info route has no hook beyond those the lane applies (a new one must be taught to the lane)', async () => {
    const hooksOf = (app: FastifyInstance) => {
      const lines = app.printRoutes({ includeHooks: true, commonPrefix: false, method: 'GET' }).split('\n');
      // A tree of path segments: the info route is the `/info` under `/:code` of the contracts.
      const contracts = lines.findIndex((line) => line.includes('data/contracts'));
      const start = lines.findIndex((line, index) => index > contracts && line.endsWith('── /info (GET)'));
      const hooks: string[] = [];
      for (const line of lines.slice(start + 1)) {
        if (!line.includes('•')) break;
        hooks.push(line.slice(line.indexOf('•') + 1).trim());
      }
      return hooks;
    };
    const common = ['(onSend) ["readErrorKind()"]', '(onResponse) ["reportRequest()"]'];
    const open = await plainApp();
    assert.deepEqual(hooksOf(open.app), [
      '(onRequest) ["hostAndOriginGuard()","cors()","measureRequest()"]',
      ...common,
    ]);
    const guarded = await listening({ credentials: CREDENTIALS, requireAuth: true, rateLimits: true });
    assert.deepEqual(hooksOf(guarded.app), [
      '(onRequest) ["hostAndOriginGuard()","cors()","measureRequest()","bearerAuth()"]',
      ...common,
    ]);
  });

  test('a request whose client gives up before the answer stops counting in flight', async () => {
    const { tcp, venueCalls } = await plainApp();
    const until = async (done: () => boolean, what: string) => {
      for (let attempt = 0; attempt < 200 && !done(); attempt++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(done(), what);
    };
    const socket = connect(tcp.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    // Half a body: the request waits for the rest, counted in flight.
    socket.write(
      'POST /api/v1/order/place_order HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100\r\n\r\n{"contract":',
    );
    await until(() => venueCalls.inFlight.size === 1, 'the request is in flight');
    socket.destroy();
    await until(() => venueCalls.inFlight.size === 0, 'it stops counting when its connection closes');
  });
});
