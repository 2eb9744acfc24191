import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ApiError, DaemonClient, UnreachableError, urlOf, withQuery } from '../../src/cli/client.js';
import { freePort } from '../helpers/net.js';

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(value));
}

/** A throwaway server that records what it was sent and answers with `handler` (default: who it is). */
async function fakeServer(
  name: string,
  listenOn: { path: string } | { port: 0; host: '127.0.0.1' },
  handler?: Handler,
) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'], body });
      if (handler) handler(req, res, body);
      else json(res, 200, { server: name });
    });
  });
  await new Promise<void>((resolve) => server.listen(listenOn, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? (address as AddressInfo).port : 0;
  return {
    seen,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on. */

describe('DaemonClient', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sjgate-client-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('prefers the Unix socket when both answer', async () => {
    const socketPath = join(dir, 'both.sock');
    const unix = await fakeServer('socket', { path: socketPath });
    const tcp = await fakeServer('tcp', { port: 0, host: '127.0.0.1' });
    try {
      const client = new DaemonClient({ socketPath, host: '127.0.0.1', port: tcp.port });
      assert.deepEqual(await client.server.health(), { server: 'socket' });
      assert.equal(client.transport, 'socket');
      assert.equal(tcp.seen.length, 0);
    } finally {
      await unix.close();
      await tcp.close();
    }
  });

  test('falls back to TCP when the socket is missing or stale', async () => {
    const tcp = await fakeServer('tcp', { port: 0, host: '127.0.0.1' });
    const stale = join(dir, 'stale.sock');
    writeFileSync(stale, '');
    try {
      for (const socketPath of [join(dir, 'missing.sock'), stale]) {
        const client = new DaemonClient({ socketPath, host: '127.0.0.1', port: tcp.port });
        assert.deepEqual(await client.server.health(), { server: 'tcp' });
        assert.equal(client.transport, 'tcp');
      }
    } finally {
      await tcp.close();
    }
  });

  test('sends the bearer credentials over TCP only, and traces each request when asked', async () => {
    const authorizations: (string | undefined)[] = [];
    const record: Handler = (req, res) => {
      authorizations.push(req.headers.authorization);
      json(res, 200, {});
    };
    const socketPath = join(dir, 'auth.sock');
    const unix = await fakeServer('socket', { path: socketPath }, record);
    const tcp = await fakeServer('tcp', { port: 0, host: '127.0.0.1' }, record);
    try {
      const authorization = 'Bearer key:secret';
      await new DaemonClient({ socketPath, host: '127.0.0.1', port: tcp.port, authorization }).server.info();
      const overTcp = new DaemonClient({ socketPath: null, host: '127.0.0.1', port: tcp.port, authorization });
      const lines: string[] = [];
      overTcp.trace = (line) => lines.push(line);
      await overTcp.orders.trades({});
      assert.deepEqual(authorizations, [undefined, authorization], 'none over the socket, the token over TCP');
      assert.equal(lines.length, 1);
      assert.match(lines[0] ?? '', /^POST \/api\/v1\/order\/trades → 200 over tcp in \d+ ms$/);
    } finally {
      await unix.close();
      await tcp.close();
    }
  });

  test('an error envelope becomes an ApiError with its message and details', async () => {
    const socketPath = join(dir, 'errors.sock');
    const envelope = { code: 404, error: 'CONTRACT_NOT_FOUND', message: 'Contract not found: NOPE', details: null };
    const unix = await fakeServer('socket', { path: socketPath }, (_req, res) => json(res, 404, envelope));
    try {
      const client = new DaemonClient({ socketPath, host: '127.0.0.1', port: await freePort() });
      await assert.rejects(client.contracts.get('NOPE'), (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.status, 404);
        assert.equal(error.message, 'Contract not found: NOPE');
        assert.deepEqual(error.body, envelope);
        return true;
      });
    } finally {
      await unix.close();
    }
  });

  test('an error without an envelope still carries the status and the text', async () => {
    const socketPath = join(dir, 'plain.sock');
    const unix = await fakeServer('socket', { path: socketPath }, (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway\n');
    });
    try {
      const client = new DaemonClient({ socketPath, host: '127.0.0.1', port: await freePort() });
      await assert.rejects(client.server.info(), { name: 'ApiError', message: 'bad gateway', status: 502 });
    } finally {
      await unix.close();
    }
  });

  test('nothing answering is an UnreachableError naming both places', async () => {
    const port = await freePort();
    const socketPath = join(dir, 'nobody.sock');
    const client = new DaemonClient({ socketPath, host: '127.0.0.1', port });
    await assert.rejects(client.server.health(), (error: unknown) => {
      assert.ok(error instanceof UnreachableError);
      assert.match(error.message, new RegExp(`${socketPath} or http://127\\.0\\.0\\.1:${port}`));
      return true;
    });
    assert.equal(client.transport, null);
  });

  test('posts JSON and returns the JSON answer; text answers come back as text', async () => {
    const socketPath = join(dir, 'post.sock');
    const unix = await fakeServer('socket', { path: socketPath }, (req, res, body) => {
      if (req.url === '/api/v1/stream/receivers') {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Market data receivers are available');
      } else json(res, 200, { echo: JSON.parse(body) });
    });
    try {
      const client = new DaemonClient({ socketPath, host: '127.0.0.1', port: await freePort() });
      const body = { account_type: 'S', broker_id: '9A95', account_id: '1234567' } as const;
      assert.deepEqual(await client.auth.setDefaultAccount(body), { echo: body });
      assert.equal(unix.seen[0]?.method, 'POST');
      assert.equal(unix.seen[0]?.contentType, 'application/json');
      assert.equal(await client.stream.receivers(), 'Market data receivers are available');
    } finally {
      await unix.close();
    }
  });

  test('sends the query with values encoded and the missing ones left out', async () => {
    const socketPath = join(dir, 'query.sock');
    const unix = await fakeServer('socket', { path: socketPath });
    try {
      const client = new DaemonClient({ socketPath, host: '127.0.0.1', port: await freePort() });
      await client.contracts.options({ root: 'TXO', option_right: undefined, strike_min: 40000 });
      assert.equal(unix.seen[0]?.url, '/api/v1/data/contracts/options?root=TXO&strike_min=40000');
    } finally {
      await unix.close();
    }
  });
});

describe('withQuery and urlOf', () => {
  test('encodes keys and values and leaves out undefined', () => {
    assert.equal(withQuery('/p', {}), '/p');
    assert.equal(withQuery('/p', { a: undefined }), '/p');
    assert.equal(withQuery('/p', { q: 'a b&c=d/é', n: 1, b: false }), '/p?q=a%20b%26c%3Dd%2F%C3%A9&n=1&b=false');
  });

  test('brackets IPv6 hosts', () => {
    assert.equal(urlOf('127.0.0.1', 8080), 'http://127.0.0.1:8080');
    assert.equal(urlOf('::1', 8080), 'http://[::1]:8080');
  });
});
