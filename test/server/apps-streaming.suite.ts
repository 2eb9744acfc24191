// Uploads over a real socket: the size limits while the client is still sending, chunked bodies, clients that give
// up half way, reset the connection or stall, how many uploads run at once, and two uploads of one app at the same
// time.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { multipartBody } from '../../src/cli/multipart.js';
import { API_PREFIX } from '../../src/contract/paths.js';
import { MAX_APP_BYTES, MAX_APP_FILES, MAX_PATH_BYTES, MB } from '../../src/domain/apps.js';
import { AppStore } from '../../src/server/apps/store.js';
import { MULTIPART_ALLOWANCE } from '../../src/server/apps/upload.js';
import { appsRoutes, type UploadLimits } from '../../src/server/routes/apps.js';
import {
  appOver,
  BOUNDARY,
  filesUnder,
  leftovers,
  memoryTempDir,
  multipart,
  partHead,
  partsOf,
  removeDir,
  SAMPLE,
  upload,
} from './apps-fixtures.js';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The HTTP answer in `bytes`, once all of it (head and Content-Length bytes of body) is there. */
function parseAnswer(bytes: Buffer): Answer | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const body = bytes.subarray(end + 4);
  if (body.length < Number(headers['content-length'] ?? 0)) return null;
  return { status: Number(statusLine!.split(' ')[1]), headers, body: body.toString('utf8') };
}

interface Exchange {
  answer: Answer | null;
  /** Body bytes written before the answer came (or the client gave up). */
  sent: number;
}

interface GiveUp {
  afterBytes: number;
  /** Awaited before the connection is closed. */
  when: () => Promise<void>;
}

/**
 * Sends `head`, then the body chunk by chunk as fast as the socket takes it, and stops sending as soon as an answer
 * arrives. With `giveUp`, the client closes the connection once it has sent that many body bytes.
 */
async function exchange(port: number, head: string, body: Iterable<Buffer>, giveUp?: GiveUp): Promise<Exchange> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = Buffer.alloc(0);
  let answer: Answer | null = null;
  let closed = false;
  const settled = new Promise<void>((resolve) => {
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      answer ??= parseAnswer(received);
      if (answer) resolve();
    });
    socket.on('close', () => {
      closed = true;
      resolve();
    });
  });
  // Writing after the server answered and closed fails with EPIPE or ECONNRESET, as it should.
  socket.on('error', () => {});
  socket.write(head);
  let sent = 0;
  for (const chunk of body) {
    if (answer !== null || closed) break;
    if (giveUp !== undefined && sent >= giveUp.afterBytes) {
      await giveUp.when();
      socket.destroy();
      return { answer: null, sent };
    }
    sent += chunk.length;
    if (!socket.write(chunk)) await Promise.race([once(socket, 'drain').catch(() => {}), settled]);
  }
  await settled;
  socket.destroy();
  return { answer, sent };
}

function requestHead(method: string, path: string, headers: Record<string, string | number> = {}): string {
  const lines = Object.entries(headers).map(([key, value]) => `${key}: ${value}\r\n`);
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('')}\r\n`;
}

const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** An app of index.html and one file of `size` bytes, generated as it is sent. */
function* bigApp(size: number): Generator<Buffer> {
  yield Buffer.from(`${partHead({ filename: 'index.html' })}<p>big</p>\r\n${partHead({ filename: 'big.bin' })}`);
  const block = Buffer.alloc(256 * 1024, 0x61);
  for (let left = size; left > 0; left -= block.length) yield left >= block.length ? block : block.subarray(0, left);
  yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
}

function* inChunks(bytes: Buffer, size: number): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > 30_000) assert.fail(`${what} did not happen within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let dir: string;
let app: FastifyInstance;
let port: number;
let served: Buffer[];

const fetchBytes = async (path: string) =>
  Buffer.from(await (await fetch(`http://127.0.0.1:${port}${path}`)).arrayBuffer());
const SERVED_PATHS = ['/apps/demo/', '/apps/demo/assets/index-B7xk2Q9a.js', '/apps/demo/favicon.ico'];

async function assertDemoUntouched() {
  assert.deepEqual(await Promise.all(SERVED_PATHS.map(fetchBytes)), served);
  assert.deepEqual(filesUnder(`${dir}/demo`), Object.keys(SAMPLE).sort());
  assert.deepEqual(leftovers(dir), []);
}

before(async () => {
  dir = memoryTempDir();
  app = await appOver(dir);
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
  assert.equal((await upload(app, 'demo', partsOf(SAMPLE))).statusCode, 200);
  served = await Promise.all(SERVED_PATHS.map(fetchBytes));
  assert.equal(served[0]!.toString(), SAMPLE['index.html']);
});
after(async () => {
  await app.close();
  removeDir(dir);
});

describe('upload size limits over a socket', () => {
  test('a body that grows past 50 MB is refused with 413 while streaming, and nothing is kept', async () => {
    const length = MAX_APP_BYTES + MULTIPART_ALLOWANCE;
    const head = requestHead('POST', '/api/v1/apps/demo', { 'content-type': MULTIPART_TYPE, 'content-length': length });
    const { answer } = await exchange(port, head, bigApp(MAX_APP_BYTES + 512 * 1024));
    assert.ok(answer, 'an answer arrives');
    assert.equal(answer.status, 413, answer.body);
    assert.equal(answer.headers.connection, 'close');
    const body = JSON.parse(answer.body);
    assert.equal(body.code, 413);
    assert.match(body.message, /the upload is over the limit; an app may hold at most 50 MB \(52428800 bytes\)/);
    await assertDemoUntouched();
  });

  test('a Content-Length over the limit is refused before the body is read', async () => {
    const length = MAX_APP_BYTES + MULTIPART_ALLOWANCE + 1;
    const head = requestHead('POST', '/api/v1/apps/demo', { 'content-type': MULTIPART_TYPE, 'content-length': length });
    const { answer, sent } = await exchange(port, head, bigApp(MAX_APP_BYTES));
    assert.ok(answer, 'an answer arrives');
    assert.equal(answer.status, 413, answer.body);
    assert.equal(answer.headers.connection, 'close');
    const shown = (length / MB).toFixed(1);
    assert.ok(JSON.parse(answer.body).message.startsWith(`the upload is ${shown} MB; an app may hold at most 50 MB`));
    assert.ok(sent < MAX_APP_BYTES, `the client could stop early (sent ${sent} bytes)`);
    await assertDemoUntouched();
  });

  test('the largest app the limits allow is admitted, however long its file names', async () => {
    // MAX_APP_FILES files with the longest paths and MAX_APP_BYTES of content, framed as the CLI frames them
    const files = Array.from({ length: MAX_APP_FILES }, (_, i) => ({
      name: `${String(i).padStart(5, '0')}/${'n'.repeat(MAX_PATH_BYTES - 6)}`,
      path: '',
      size: i === 0 ? MAX_APP_BYTES : 0,
    }));
    const { length } = multipartBody(files);
    // Only the headers matter: a first part with a bad name shows the body is read, where a 413 would come at once.
    const head = requestHead('POST', '/api/v1/apps/demo', { 'content-type': MULTIPART_TYPE, 'content-length': length });
    const { answer } = await exchange(port, head, [multipart([{ filename: '../x', content: 'x' }]).payload]);
    assert.ok(answer, 'an answer arrives');
    assert.equal(answer.status, 400, answer.body);
    assert.match(JSON.parse(answer.body).message, /^invalid file name "\.\.\/x"/);
    await assertDemoUntouched();
  });

  test('a chunked upload (no Content-Length) is refused with 411 asking for one', async () => {
    const { payload } = multipart(partsOf({ 'index.html': 'chunked' }));
    const head = requestHead('POST', '/api/v1/apps/demo', {
      'content-type': MULTIPART_TYPE,
      'transfer-encoding': 'chunked',
    });
    const chunked = Buffer.from(
      `${payload.length.toString(16)}\r\n${payload.toString('latin1')}\r\n0\r\n\r\n`,
      'latin1',
    );
    const { answer } = await exchange(port, head, [chunked]);
    assert.ok(answer);
    assert.equal(answer.status, 411, answer.body);
    assert.deepEqual(JSON.parse(answer.body), {
      code: 411,
      error: 'LENGTH_REQUIRED',
      message:
        'an upload needs a Content-Length header (a chunked upload is refused); send the body with its length, ' +
        'as curl -F and sjgate apps upload do',
      details: null,
    });
    await assertDemoUntouched();
  });

  test('a client that gives up half way leaves the app as it was and no staging behind', async () => {
    const head = requestHead('POST', '/api/v1/apps/demo', {
      'content-type': MULTIPART_TYPE,
      'content-length': 10 * 1024 * 1024,
    });
    const staged = () => leftovers(dir).filter((entry) => entry.startsWith('.staging/'));
    const whenStaging = () => eventually(() => staged().length === 1, 'staging the upload');
    const giveUp = { afterBytes: 2 * 1024 * 1024, when: whenStaging };
    const { answer, sent } = await exchange(port, head, bigApp(10 * 1024 * 1024), giveUp);
    assert.equal(answer, null);
    assert.ok(sent >= 2 * 1024 * 1024);
    await eventually(() => leftovers(dir).length === 0, 'removing the staging folder');
    await assertDemoUntouched();
    // the gateway carries on
    assert.equal((await fetch(`http://127.0.0.1:${port}/api/v1/apps`)).status, 200);
  });
});

describe('two uploads of one app at once', () => {
  const version = (tag: string) => {
    // one file over the multipart parser's default limit (1 MiB), which would otherwise cut it short
    const files: Record<string, string> = { 'index.html': `version ${tag}`, [`${tag}.bin`]: tag.repeat(1_500_000) };
    for (let i = 0; i < 20; i++) files[`${tag}/part-${i}.js`] = tag.repeat(20_000);
    return files;
  };

  test('end with exactly one of them, complete', async () => {
    const versions = { a: version('a'), b: version('b') };
    for (let round = 0; round < 4; round++) {
      const sends = Object.values(versions).map((files) => {
        const { payload } = multipart(partsOf(files));
        const head = requestHead('POST', '/api/v1/apps/race', {
          'content-type': MULTIPART_TYPE,
          'content-length': payload.length,
        });
        return exchange(port, head, inChunks(payload, 64 * 1024));
      });
      const answers = await Promise.all(sends);
      assert.deepEqual(
        answers.map(({ answer }) => answer?.status),
        [200, 200],
      );
      const onDisk = filesUnder(`${dir}/race`);
      const winner = Object.values(versions).find((files) => Object.keys(files).sort().join() === onDisk.join());
      assert.ok(winner, `the app on disk is one whole version: ${onDisk.slice(0, 3).join(', ')}...`);
      assert.equal(await (await fetch(`http://127.0.0.1:${port}/apps/race/`)).text(), winner['index.html']);
      const tag = winner['index.html']!.slice(-1);
      assert.equal((await fetchBytes(`/apps/race/${tag}.bin`)).length, 1_500_000);
      assert.deepEqual(leftovers(dir), []);
    }
  });
});

describe('names over a socket, as a client sends them', () => {
  test("'..' spelled %2e%2e is an invalid name, never the apps folder's parent", async () => {
    for (const [method, path] of [
      ['GET', '/apps/%2e%2e/'],
      ['GET', '/apps/%2E%2E/demo/index.html'],
      ['DELETE', '/api/v1/apps/%2e%2e'],
    ] as const) {
      const { answer } = await exchange(port, requestHead(method, path), []);
      assert.ok(answer);
      assert.equal(answer.status, 400, `${method} ${path}: ${answer.body}`);
      assert.match(JSON.parse(answer.body).message, /invalid app name "\.\."/);
    }
    const { payload } = multipart(partsOf({ 'index.html': 'x' }));
    const head = requestHead('POST', '/api/v1/apps/%2e%2e', {
      'content-type': MULTIPART_TYPE,
      'content-length': payload.length,
    });
    const { answer } = await exchange(port, head, [payload]);
    assert.equal(answer?.status, 400);
    assert.deepEqual(leftovers(dir), []);
  });
});

/**
 * A gateway of the apps routes alone over `appsDir`, with the upload limits given, listening on a port; `handling()`
 * is how many uploads are still in their route handler. A hook that takes a moment before each handler (as one that
 * looks something up would) leaves room for a client to go away before the body is touched.
 */
async function uploadsGateway(appsDir: string, limits: UploadLimits) {
  const gateway = Fastify({ forceCloseConnections: true });
  gateway.addHook('preHandler', () => new Promise((resolve) => setTimeout(resolve, 1)));
  let handling = 0;
  gateway.addHook('onRoute', (route) => {
    if (route.method !== 'POST') return;
    const handler = route.handler;
    route.handler = async function (request, reply) {
      handling++;
      try {
        return await handler.call(this, request, reply);
      } finally {
        handling--;
      }
    };
  });
  await gateway.register(appsRoutes(await AppStore.open(appsDir), limits), { prefix: API_PREFIX });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  return { gateway, port: (gateway.server.address() as { port: number }).port, handling: () => handling };
}

/** Opens a connection and sends `bytes`, leaving it open. */
async function openAndSend(port: number, bytes: Buffer): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  await new Promise((resolve) => socket.write(bytes, resolve));
  return socket;
}

const uploadHead = (length: number, extra: Record<string, string> = {}) =>
  requestHead('POST', '/api/v1/apps/held', { 'content-type': MULTIPART_TYPE, 'content-length': length, ...extra });

describe('clients that vanish or stall', () => {
  let uploadsDir: string;
  let uploads: Awaited<ReturnType<typeof uploadsGateway>>;
  const staging = () => leftovers(uploadsDir);

  before(async () => {
    uploadsDir = memoryTempDir();
    uploads = await uploadsGateway(uploadsDir, { maxUploads: 2, progress: { windowMs: 300, minBytes: 20 } });
  });
  after(async () => {
    await uploads.gateway.close();
    removeDir(uploadsDir);
  });

  test('connections reset right after a whole small body leave no upload pending and no staging folder', async () => {
    for (let round = 0; round < 80; round++) {
      const size = [100, 3_000, 20_000, 60_000][round % 4]!;
      const { payload } = multipart(partsOf({ 'index.html': 'r'.repeat(size) }));
      // every other one sends more than its Content-Length and asks for the connection to be closed
      const head =
        round % 2 === 0 ? uploadHead(payload.length) : uploadHead(payload.length - 10, { connection: 'close' });
      const socket = await openAndSend(uploads.port, Buffer.concat([Buffer.from(head), payload]));
      socket.resetAndDestroy();
    }
    await eventually(() => uploads.handling() === 0 && staging().length === 0, 'ending every upload');
    const { payload } = multipart(partsOf({ 'index.html': 'after the resets' }));
    const { answer } = await exchange(uploads.port, uploadHead(payload.length), [payload]);
    assert.equal(answer?.status, 200, answer?.body);
  });

  test('an upload whose body stalls is dropped with its connection and its staging folder', async () => {
    const { payload } = multipart(partsOf({ 'index.html': 'stalled', 'big.bin': Buffer.alloc(200_000, 1) }));
    const socket = await openAndSend(
      uploads.port,
      Buffer.concat([Buffer.from(uploadHead(payload.length)), payload.subarray(0, 100_000)]),
    );
    await eventually(() => staging().length === 1, 'staging the first part');
    const started = Date.now();
    await Promise.race([
      once(socket, 'close'),
      new Promise((_, reject) => setTimeout(() => reject(new Error('the connection stayed open')), 30_000).unref()),
    ]);
    assert.ok(Date.now() - started >= 150, 'not before the idle time');
    await eventually(() => uploads.handling() === 0 && staging().length === 0, 'discarding the upload');
  });

  test('a slow upload that keeps sending is not dropped', async () => {
    const { payload } = multipart(partsOf({ 'index.html': 'slow but steady' }));
    const slowly = async function* () {
      for (const chunk of inChunks(payload, Math.ceil(payload.length / 10))) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        yield chunk;
      }
    };
    const socket = await openAndSend(uploads.port, Buffer.from(uploadHead(payload.length)));
    const answer = new Promise<Buffer>((resolve) => {
      let received = Buffer.alloc(0);
      socket.on('data', (data: Buffer) => {
        received = Buffer.concat([received, data]);
        if (parseAnswer(received)) resolve(received);
      });
    });
    const started = Date.now();
    for await (const chunk of slowly()) socket.write(chunk);
    assert.equal(parseAnswer(await answer)?.status, 200);
    assert.ok(Date.now() - started > 900, 'the upload took three times the idle time');
    socket.destroy();
  });

  test('uploads trickled a byte at a time are dropped, so they cannot hold every place', {
    timeout: 20_000,
  }, async () => {
    const { payload } = multipart(partsOf({ 'index.html': 'x', 'big.bin': Buffer.alloc(10_000) }));
    const trickled = await Promise.all(
      [0, 1].map(() =>
        openAndSend(uploads.port, Buffer.concat([Buffer.from(uploadHead(payload.length)), payload.subarray(0, 300)])),
      ),
    );
    await eventually(() => uploads.handling() === 2, 'two uploads under way');
    let sent = 300;
    // One byte each every 50 ms: 6 bytes a window, below the 20 the limits ask for.
    const trickle = setInterval(() => {
      for (const socket of trickled) if (!socket.destroyed) socket.write(payload.subarray(sent, sent + 1));
      sent++;
    }, 50);
    try {
      // Dropped means closed, by a FIN or, when a byte was still on its way, a reset: either ends the upload.
      for (const socket of trickled) socket.on('error', () => undefined);
      await Promise.all(trickled.map((socket) => new Promise((resolve) => socket.once('close', resolve))));
      await eventually(() => uploads.handling() === 0 && staging().length === 0, 'discarding the trickled uploads');
      const { answer } = await exchange(uploads.port, uploadHead(payload.length), [payload]);
      assert.equal(answer?.status, 200, answer?.body);
    } finally {
      clearInterval(trickle);
      for (const socket of trickled) socket.destroy();
    }
  });

  test('uploads beyond the most at once are refused with 429 and Retry-After until one ends', async () => {
    const { payload } = multipart(partsOf({ 'index.html': 'x', 'big.bin': Buffer.alloc(100_000) }));
    const held = await Promise.all(
      [0, 1].map(() =>
        openAndSend(uploads.port, Buffer.concat([Buffer.from(uploadHead(payload.length)), payload.subarray(0, 500)])),
      ),
    );
    await eventually(() => uploads.handling() === 2, 'two uploads under way');
    const { answer } = await exchange(uploads.port, uploadHead(payload.length), [payload]);
    assert.ok(answer);
    assert.equal(answer.status, 429, answer.body);
    assert.equal(answer.headers['retry-after'], '5');
    assert.deepEqual(JSON.parse(answer.body), {
      code: 429,
      error: 'UPLOAD_CAPACITY',
      message: 'at most 2 uploads may run at once; try again in a few seconds',
      details: null,
    });
    for (const socket of held) socket.destroy();
    await eventually(() => uploads.handling() === 0, 'the held uploads ending');
    const again = await exchange(uploads.port, uploadHead(payload.length), [payload]);
    assert.equal(again.answer?.status, 200, again.answer?.body);
    assert.deepEqual(staging(), []);
  });
});
