// Hosted apps in the real gateway: kept under <home>/apps, uploaded by the CLI over the Unix socket and by a
// browser-style FormData over TCP, and still there after a restart.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { startGateway } from '../../src/server/main.js';
import { runSjgate } from '../helpers/cli.js';
import { multipart, partsOf } from '../server/apps-fixtures.js';

const home = mkdtempSync(join(tmpdir(), 'sjgate-apps-e2e-'));
const savedHome = process.env.SJ_HOME_PATH;
after(() => {
  rmSync(home, { recursive: true, force: true });
  if (savedHome === undefined) delete process.env.SJ_HOME_PATH;
  else process.env.SJ_HOME_PATH = savedHome;
});

const start = () => startGateway(loadConfig({ SJ_HOME_PATH: home, SJ_HTTP_ADDR: '127.0.0.1:0' }), () => undefined);

test('apps uploaded by the CLI and by FormData are kept in the data home and survive a restart', async () => {
  const dist = join(home, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<h1>cli</h1>');
  writeFileSync(join(dist, 'assets', 'app-C0ffee42.js'), 'export {}');

  const first = await start();
  try {
    // --port 0 names the socket of this gateway (started on port 0), so the upload streams over the Unix socket
    process.env.SJ_HOME_PATH = home;
    const run = await runSjgate(0, ['apps', 'upload', '--name', 'cli', '--dir', dist]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Uploaded cli: 2 files, 21 B\n/);

    const form = new FormData();
    form.append('files', new Blob(['<h1>form</h1>'], { type: 'text/html' }), 'index.html');
    form.append('files', new Blob(['body{}']), 'css/site.css');
    const response = await fetch(`http://127.0.0.1:${first.port}/api/v1/apps/form`, { method: 'POST', body: form });
    assert.deepEqual(await response.json(), { name: 'form', files: ['form/css/site.css', 'form/index.html'] });
  } finally {
    await first.close();
  }
  assert.deepEqual(readdirSync(join(home, 'apps')).sort(), ['.staging', '.trash', 'cli', 'form']);

  const second = await start();
  try {
    const base = `http://127.0.0.1:${second.port}`;
    assert.deepEqual(await (await fetch(`${base}/api/v1/apps`)).json(), { apps: ['cli', 'form'] });
    assert.equal(await (await fetch(`${base}/apps/cli/`)).text(), '<h1>cli</h1>');
    const asset = await fetch(`${base}/apps/cli/assets/app-C0ffee42.js`);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(await (await fetch(`${base}/apps/form/css/site.css`)).text(), 'body{}');
  } finally {
    await second.close();
  }
});

interface H2Answer {
  status: number;
  body: string;
}

/** POSTs `repeat` copies of `chunk` over HTTP/2 (honouring flow control) and collects the answer. */
function postOverH2(url: string, headers: Record<string, string | number>, chunk: Buffer, repeat: number) {
  const session = connect(url, { rejectUnauthorized: false });
  return new Promise<H2Answer>((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': '/api/v1/apps/h2', ...headers });
    let status = 0;
    let body = '';
    stream.on('response', (head) => {
      status = Number(head[':status']);
    });
    stream.on('data', (data: Buffer) => {
      body += data.toString();
    });
    stream.on('close', () => resolve({ status, body }));
    stream.on('error', reject);
    let sent = 0;
    const pump = () => {
      while (sent < repeat) {
        sent++;
        if (!stream.write(chunk)) return void stream.once('drain', pump);
      }
      stream.end();
    };
    pump();
  }).finally(() => session.close());
}

test('over HTTP/2 an upload works, and a refusal arrives while the client is still sending', async () => {
  const tls = join(home, 'tls');
  mkdirSync(tls);
  const [cert, key] = [join(tls, 'cert.pem'), join(tls, 'key.pem')];
  const subject = ['-subj', '/CN=localhost', '-days', '1', '-nodes', '-newkey', 'rsa:2048'];
  execFileSync('openssl', ['req', '-x509', ...subject, '-keyout', key, '-out', cert], { stdio: 'ignore' });
  const env = { SJ_HOME_PATH: tls, SJ_HTTP_ADDR: '127.0.0.1:0', SJ_HTTP_TLS_CERT: cert, SJ_HTTP_TLS_KEY: key };
  const gateway = await startGateway(loadConfig(env), () => undefined);
  try {
    const url = `https://127.0.0.1:${gateway.port}`;
    const { headers, payload } = multipart(partsOf({ 'index.html': 'over h2' }));
    const ok = await postOverH2(url, { ...headers, 'content-length': payload.length }, payload, 1);
    assert.deepEqual(ok, { status: 200, body: JSON.stringify({ name: 'h2', files: ['h2/index.html'] }) });
    const tooBig = await postOverH2(
      url,
      { ...headers, 'content-length': 200 * 1024 * 1024 },
      Buffer.alloc(1 << 20),
      200,
    );
    assert.equal(tooBig.status, 413);
    assert.match(JSON.parse(tooBig.body).message, /^the upload is 200\.0 MB; an app may hold at most 50 MB/);
  } finally {
    await gateway.close();
  }
});
