// A gateway bound beyond loopback over real sockets: a client without credentials that resets its connection right
// after sending a request must not get it executed (Node reports no remote address for a reset socket, which once
// passed for "came over the Unix socket"). Requests over the owner-only Unix socket still need no token.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { type RunningGateway, startGateway } from '../../src/server/main.js';

const ATTEMPTS = 20;
const BEARER = 'Bearer KEY:SECRET';
const home = mkdtempSync(join(tmpdir(), 'sjgate-auth-reset-'));
let gateway: RunningGateway | undefined;
after(async () => {
  await gateway?.close();
  rmSync(home, { recursive: true, force: true });
});

const ORDER = JSON.stringify({
  contract: { code: 'TXFR1' },
  futures_order: { action: 'Buy', price: 0, quantity: 1, price_type: 'MKT', order_type: 'IOC' },
});

/** Sends a request without credentials and resets the connection (TCP RST) as soon as it is written. */
function sendAndReset(port: number, path: string, body: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      const head =
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
      // In one turn of the loop: the request and the reset reach the kernel before the server reads either.
      socket.write(head + body);
      socket.resetAndDestroy();
    });
    socket.on('close', () => resolve());
  });
}

type Target = { port: number } | { socketPath: string };

function call(target: Target, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = request({ ...target, host: '127.0.0.1', method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    if (body !== undefined) req.setHeader('content-type', 'application/json');
    req.end(body);
  });
}

test('a reset connection without credentials gets nothing executed; the Unix socket needs no token', {
  timeout: 30_000,
}, async () => {
  gateway = await startGateway(
    loadConfig({
      SJ_HOME_PATH: home,
      SJ_HTTP_ADDR: '0.0.0.0:0',
      SJ_API_KEY: 'KEY',
      SJ_SEC_KEY: 'SECRET',
      SJ_SIM_LIMITS: 'off',
    }),
    () => undefined,
  );
  const { port, socketPath } = gateway;
  for (let i = 0; i < ATTEMPTS; i++) await sendAndReset(port, '/api/v1/order/place_order', ORDER);
  // Requests are handled in the order they arrive: once later authorized calls are answered, the resets were seen.
  for (let i = 0; i < 5; i++) await call({ port }, 'GET', '/api/v1/health');
  const overTcp = await call({ port }, 'POST', '/api/v1/order/trades', { authorization: BEARER });
  assert.equal(overTcp.status, 200);
  assert.deepEqual(overTcp.body, [], 'no order may be placed by a client without credentials');

  const unauthorized = await call({ port }, 'POST', '/api/v1/order/trades');
  assert.equal(unauthorized.status, 401);
  assert.deepEqual(unauthorized.body, {
    code: 401,
    error: 'UNAUTHORIZED',
    message: 'Missing Authorization header',
    details: null,
  });
  const overSocket = await call({ socketPath }, 'POST', '/api/v1/order/trades');
  assert.equal(overSocket.status, 200, 'the owner-only Unix socket needs no token');
  assert.deepEqual(overSocket.body, []);
  // The order the resets carried is a valid one: over the Unix socket it is placed.
  const placed = await call({ socketPath }, 'POST', '/api/v1/order/place_order', {}, ORDER);
  assert.equal(placed.status, 200, JSON.stringify(placed.body));
  assert.equal((placed.body as { status: { status: string } }).status.status, 'Filled');
});
