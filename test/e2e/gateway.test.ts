// The gateway in this process on real sockets: TCP and Unix socket, stale and live sockets, TLS, start-up errors.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { type RunningGateway, startGateway } from '../../src/server/main.js';

const homes: string[] = [];
const gateways: RunningGateway[] = [];
after(async () => {
  await Promise.all(gateways.map((g) => g.close().catch(() => undefined)));
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function freshHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'sjgate-gw-'));
  homes.push(home);
  return home;
}

async function start(env: NodeJS.ProcessEnv): Promise<RunningGateway> {
  const gateway = await startGateway(loadConfig(env), () => undefined);
  gateways.push(gateway);
  return gateway;
}

function getOverSocket(socketPath: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path, headers: { host: 'localhost' } }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('gateway listeners', () => {
  test('serves the same API on TCP and on an owner-only Unix socket', async () => {
    const home = freshHome();
    const gateway = await start({ SJ_HOME_PATH: home, SJ_HTTP_ADDR: '127.0.0.1:0' });
    assert.ok(gateway.port > 0);
    const overTcp = await (await fetch(`http://127.0.0.1:${gateway.port}/api/v1/data/contracts/2330`)).json();
    const overSocket = await getOverSocket(gateway.socketPath, '/api/v1/data/contracts/2330');
    assert.equal(overSocket.status, 200);
    assert.deepEqual(JSON.parse(overSocket.body), overTcp);
    assert.equal(statSync(gateway.socketPath).mode & 0o777, 0o600);
    assert.equal(statSync(home).mode & 0o777, 0o700);
  });

  test('removes a stale socket left by a dead process', async () => {
    const home = freshHome();
    const socketPath = join(home, 'server-0.sock');
    mkdirSync(home, { recursive: true });
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(socketPath, resolve));
    // Closing a server normally unlinks its socket; recreate the file as a dead process would leave it.
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    writeFileSync(socketPath, '');
    const gateway = await start({ SJ_HOME_PATH: home, SJ_HTTP_ADDR: '127.0.0.1:0' });
    const health = await getOverSocket(gateway.socketPath, '/api/v1/health');
    assert.equal(JSON.parse(health.body).status, 'healthy');
  });

  test('never steals the socket of a live gateway', async () => {
    const home = freshHome();
    const first = await start({ SJ_HOME_PATH: home, SJ_HTTP_ADDR: '127.0.0.1:0' });
    await assert.rejects(
      startGateway(loadConfig({ SJ_HOME_PATH: home, SJ_HTTP_ADDR: '127.0.0.1:0' }), () => undefined),
      /another gateway is already serving on .*server-0\.sock/,
    );
    const health = await getOverSocket(first.socketPath, '/api/v1/health');
    assert.equal(health.status, 200);
  });

  test('a port in use is a clear start-up error', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await assert.rejects(
        startGateway(loadConfig({ SJ_HOME_PATH: freshHome(), SJ_HTTP_ADDR: `127.0.0.1:${port}` }), () => undefined),
        (error: unknown) => error instanceof ConfigError && /port \d+ on 127\.0\.0\.1 is in use/.test(error.message),
      );
    } finally {
      blocker.close();
    }
  });

  test('production without the bridge installed fails fast, naming the interpreter and the command that installs it', async () => {
    const home = freshHome();
    const started = Date.now();
    await assert.rejects(
      startGateway(
        loadConfig({ SJ_HOME_PATH: home, SJ_PRODUCTION: 'true', SJ_API_KEY: 'k', SJ_SEC_KEY: 's' }),
        () => undefined,
      ),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.includes(`cannot run ${join(home, 'python', 'bin', 'python')}`) &&
        error.message.includes('sjgate setup production'),
    );
    assert.ok(Date.now() - started < 5_000, 'a missing interpreter is reported at once, not after a timeout');
  });

  test('serves https when a certificate pair is configured; the socket stays plaintext', async () => {
    const home = freshHome();
    const cert = join(home, 'cert.pem');
    const key = join(home, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
      ],
      { stdio: 'ignore' },
    );
    const gateway = await start({
      SJ_HOME_PATH: home,
      SJ_HTTP_ADDR: '127.0.0.1:0',
      SJ_HTTP_TLS_CERT: cert,
      SJ_HTTP_TLS_KEY: key,
    });
    const info = JSON.parse((await getOverSocket(gateway.socketPath, '/api/v1/info')).body);
    assert.equal(info.scheme, 'https');
    assert.deepEqual(info.protocols, ['HTTP/1.1', 'HTTP/2']);
    assert.equal(info.uds_plaintext, true);
    // The gateway runs in this process, so the client must not block the event loop.
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port: gateway.port, path: '/api/v1/health', rejectUnauthorized: false },
        (res) => {
          let text = '';
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end();
    });
    assert.equal(JSON.parse(body).status, 'healthy');
  });
});

describe('gateway bound beyond loopback', () => {
  test('TCP clients need the bearer credential; the owner-only Unix socket does not', async () => {
    const gateway = await start({
      SJ_HOME_PATH: freshHome(),
      SJ_HTTP_ADDR: '0.0.0.0:0',
      SJ_API_KEY: 'KEY',
      SJ_SEC_KEY: 'SECRET',
    });
    const url = `http://127.0.0.1:${gateway.port}/api/v1/auth/accounts`;
    const refused = await fetch(url);
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as { message: string }).message, 'Missing Authorization header');
    const allowed = await fetch(url, { headers: { authorization: 'Bearer KEY:SECRET' } });
    assert.equal(allowed.status, 200);
    const overSocket = await getOverSocket(gateway.socketPath, '/api/v1/auth/accounts');
    assert.equal(overSocket.status, 200);
    assert.equal(JSON.parse(overSocket.body).length, 2);
  });
});
