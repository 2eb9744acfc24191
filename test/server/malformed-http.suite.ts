// Requests that Node's HTTP parser refuses never reach a route: over TCP and over the Unix socket they are answered
// with the error envelope, not Fastify's own `{error, message, statusCode}` or an empty 400.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { type RunningGateway, startGateway } from '../../src/server/main.js';

const home = mkdtempSync(join(tmpdir(), 'sjgate-malformed-'));
let gateway: RunningGateway;
before(async () => {
  gateway = await startGateway(loadConfig({ SJ_HOME_PATH: home, SJ_HTTP_ADDR: '127.0.0.1:0' }), () => undefined);
});
after(async () => {
  await gateway.close();
  rmSync(home, { recursive: true, force: true });
});

/** Sends raw bytes and returns everything the server wrote until it closed the connection. */
function exchange(target: { port: number } | { path: string }, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = 'port' in target ? connect(target.port, '127.0.0.1') : connect(target.path);
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.write(raw);
  });
}

const MALFORMED: [string, string, RegExp][] = [
  [
    'a Content-Length that is not a number',
    'POST /api/v1/order/trades HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n{}',
    /Content-Length/i,
  ],
  [
    'Content-Length with chunked',
    'POST /api/v1/order/trades HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    /Transfer-Encoding|Content-Length/i,
  ],
  ['a space inside the target', 'GET /api/v1 health HTTP/1.1\r\nHost: localhost\r\n\r\n', /not valid HTTP/],
  ['a method no one knows', 'FROB / HTTP/1.1\r\nHost: localhost\r\n\r\n', /not valid HTTP/],
];

describe('malformed HTTP gets the envelope', () => {
  for (const [what, raw, why] of MALFORMED) {
    test(what, { timeout: 10_000 }, async () => {
      for (const target of [{ port: gateway.port }, { path: gateway.socketPath }]) {
        const answer = await exchange(target, raw);
        const [head, body] = answer.split('\r\n\r\n', 2) as [string, string];
        assert.match(head, /^HTTP\/1\.1 400 Bad Request\r\n/, answer);
        assert.match(head, /content-type: application\/json/i);
        const envelope = JSON.parse(body) as { code: number; error: string; message: string; details: unknown };
        assert.equal(envelope.code, 400);
        assert.equal(envelope.error, 'MALFORMED_HTTP');
        assert.equal(envelope.details, null);
        assert.match(envelope.message, /^the request is not valid HTTP\/1\.1: /);
        assert.match(envelope.message, why);
      }
    });
  }

  test('headers too large are 431 in the envelope', { timeout: 10_000 }, async () => {
    const raw = `GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
    const answer = await exchange({ port: gateway.port }, raw);
    assert.match(answer, /^HTTP\/1\.1 431 /);
    const envelope = JSON.parse(answer.split('\r\n\r\n', 2)[1]!);
    assert.equal(envelope.code, 431);
    assert.equal(envelope.error, 'HEADERS_TOO_LARGE');
  });
});
