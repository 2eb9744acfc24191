import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { assertErrorKind } from '../helpers/errors.js';
import {
  appOver,
  filesUnder,
  leftovers,
  memoryTempDir,
  multipart,
  type Part,
  partsOf,
  removeDir,
  SAMPLE,
  tempDir,
  upload,
} from './apps-fixtures.js';

type Json = Record<string, unknown>;

function assertEnvelope(response: LightMyRequestResponse, status: number, message: RegExp) {
  assert.equal(response.statusCode, status, response.body);
  assert.match(response.headers['content-type'] as string, /^application\/json/);
  const body = response.json() as Json;
  assertErrorKind(body, status);
  assert.equal(body.code, status);
  assert.match(body.message as string, message);
}

let dir: string;
let app: FastifyInstance;
const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
const list = async () => (await get('/api/v1/apps')).json().apps as string[];

before(async () => {
  // In memory where possible: one test writes 10,000 files. The restart tests below use the disk.
  dir = memoryTempDir();
  app = await appOver(dir);
});
after(async () => {
  await app.close();
  removeDir(dir);
});

describe('an uploaded app', () => {
  test('upload answers the app name and its files, sorted; the list shows it', async () => {
    const response = await upload(app, 'demo', partsOf(SAMPLE));
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), {
      name: 'demo',
      files: [
        'demo/assets/index-B7xk2Q9a.js',
        'demo/assets/style-Dq3m_x-1.css',
        'demo/data/prices.json',
        'demo/favicon.ico',
        'demo/index.html',
      ],
    });
    assert.deepEqual(await list(), ['demo']);
    assert.deepEqual(filesUnder(join(dir, 'demo')), Object.keys(SAMPLE).sort());
    assert.deepEqual(leftovers(dir), []);
  });

  test('/apps/<name>/ serves index.html; /apps/<name> redirects there keeping the query', async () => {
    const index = await get('/apps/demo/');
    assert.equal(index.statusCode, 200);
    assert.equal(index.body, SAMPLE['index.html']);
    assert.equal(index.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(index.headers['cache-control'], 'no-cache');
    assert.equal(index.headers['x-content-type-options'], 'nosniff');
    assert.equal(index.headers['content-length'], String(Buffer.byteLength(SAMPLE['index.html'])));
    const redirect = await get('/apps/demo?tab=orders');
    assert.equal(redirect.statusCode, 308);
    assert.equal(redirect.headers.location, '/apps/demo/?tab=orders');
    assertEnvelope(await get('/apps/nothing'), 404, /no app 'nothing'/);
    assertEnvelope(await get('/apps/nothing/'), 404, /no app 'nothing'.*GET \/api\/v1\/apps/);
  });

  test('assets are served with their types; hashed build files are immutable, others revalidated', async () => {
    const cases: [string, string, string][] = [
      ['assets/index-B7xk2Q9a.js', 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'],
      ['assets/style-Dq3m_x-1.css', 'text/css; charset=utf-8', 'public, max-age=31536000, immutable'],
      ['data/prices.json', 'application/json; charset=utf-8', 'no-cache'],
      ['favicon.ico', 'image/x-icon', 'no-cache'],
      ['index.html', 'text/html; charset=utf-8', 'no-cache'],
    ];
    for (const [path, type, caching] of cases) {
      const response = await get(`/apps/demo/${path}`);
      assert.equal(response.statusCode, 200, path);
      assert.equal(response.headers['content-type'], type, path);
      assert.equal(response.headers['cache-control'], caching, path);
      assert.equal(response.headers['x-content-type-options'], 'nosniff', path);
      assert.deepEqual(response.rawPayload, Buffer.from(SAMPLE[path as keyof typeof SAMPLE]), path);
    }
  });

  test('every common web file type has its Content-Type', async () => {
    const types: Record<string, string> = {
      'index.html': 'text/html; charset=utf-8',
      'm.mjs': 'text/javascript; charset=utf-8',
      'i.svg': 'image/svg+xml; charset=utf-8',
      'i.png': 'image/png',
      'i.JPG': 'image/jpeg',
      'i.webp': 'image/webp',
      'f.woff2': 'font/woff2',
      'w.wasm': 'application/wasm',
      'a.js.map': 'application/json; charset=utf-8',
      'r.txt': 'text/plain; charset=utf-8',
      'x.unknownext': 'application/octet-stream',
    };
    const response = await upload(app, 'types', partsOf(Object.fromEntries(Object.keys(types).map((f) => [f, 'x']))));
    assert.equal(response.statusCode, 200, response.body);
    for (const [file, type] of Object.entries(types)) {
      assert.equal((await get(`/apps/types/${file}`)).headers['content-type'], type, file);
    }
    assert.equal((await app.inject({ method: 'DELETE', url: '/api/v1/apps/types' })).statusCode, 200);
  });

  test('only names with a build hash (8 characters, a digit and a letter) are cached for good', async () => {
    const { cacheControlOf } = await import('../../src/server/apps/send-file.js');
    const hashed = ['index-kPfHlel1.js', 'index-Cw2fOP81.css', 'logo.3f9a1c2b.svg', 'vendor-react-C_4x-9aZ.js'];
    for (const name of hashed) assert.equal(cacheControlOf(name), 'public, max-age=31536000, immutable', name);
    const ordinary = [
      'app-settings-v2.js',
      'background-Landscape.jpg',
      'data-20240101.json',
      'chart-2024-report.csv',
      'index-BpXkaQzR.js',
      'some-component.js',
      'index-abc12.js',
      'index-kPfHlel12.js',
      'logo.svg',
    ];
    for (const name of ordinary) assert.equal(cacheControlOf(name), 'no-cache', name);
  });

  test('revalidation answers 304 by ETag or Last-Modified; HEAD has the headers without the body', async () => {
    const first = await get('/apps/demo/data/prices.json');
    const etag = first.headers.etag as string;
    const modified = first.headers['last-modified'] as string;
    assert.match(etag, /^"[0-9a-z-]+"$/);
    assert.ok(!Number.isNaN(Date.parse(modified)));
    const byTag = await get('/apps/demo/data/prices.json', { 'if-none-match': `"other", ${etag}` });
    assert.equal(byTag.statusCode, 304);
    assert.equal(byTag.body, '');
    assert.equal(byTag.headers.etag, etag);
    assert.equal(byTag.headers['cache-control'], 'no-cache');
    assert.equal((await get('/apps/demo/data/prices.json', { 'if-none-match': `W/${etag}` })).statusCode, 304);
    assert.equal((await get('/apps/demo/data/prices.json', { 'if-none-match': '"other"' })).statusCode, 200);
    assert.equal((await get('/apps/demo/data/prices.json', { 'if-modified-since': modified })).statusCode, 304);
    const earlier = new Date(Date.parse(modified) - 1000).toUTCString();
    assert.equal((await get('/apps/demo/data/prices.json', { 'if-modified-since': earlier })).statusCode, 200);
    const head = await app.inject({ method: 'HEAD', url: '/apps/demo/data/prices.json' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    assert.equal(head.headers['content-length'], String(SAMPLE['data/prices.json'].length));
    assert.equal(head.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(head.headers.etag, etag);
  });

  test('client-side routes get index.html; a missing file with an extension is a 404 envelope', async () => {
    for (const route of ['orders', 'orders/42', 'assets/', 'data', 'a%252e%252e']) {
      const response = await get(`/apps/demo/${route}`);
      assert.equal(response.statusCode, 200, route);
      assert.equal(response.body, SAMPLE['index.html'], route);
      assert.equal(response.headers['cache-control'], 'no-cache', route);
    }
    assertEnvelope(await get('/apps/demo/assets/missing-B7xk2Q9a.js'), 404, /app 'demo' has no file assets\/missing/);
    const missing = await get('/apps/demo/missing.png');
    assertEnvelope(missing, 404, /no file missing\.png/);
    assert.equal(missing.json().error, 'APP_FILE_NOT_FOUND');
  });

  test('a file asked for as a folder (a trailing slash) is a 404 naming its address', async () => {
    assertEnvelope(
      await get('/apps/demo/index.html/'),
      404,
      /^app 'demo' has no folder index\.html: it is a file, at \/apps\/demo\/index\.html$/,
    );
    assertEnvelope(await get('/apps/demo/assets/index-B7xk2Q9a.js/'), 404, /no folder assets\/index-B7xk2Q9a\.js/);
    assert.equal((await get('/apps/demo/orders/')).body, SAMPLE['index.html'], 'a client-side route still works');
  });

  test('readers during re-uploads get the old app or the new one, whole, never a 404', async () => {
    const version = (tag: string) => ({ 'index.html': tag.repeat(100), 'assets/app.js': tag.repeat(100_000) });
    assert.equal((await upload(app, 'atomic', partsOf(version('a')))).statusCode, 200);
    let uploading = true;
    let reads = 0;
    const bad: string[] = [];
    const reader = async () => {
      while (uploading) {
        for (const [path, length] of [
          ['', 100],
          ['assets/app.js', 100_000],
          ['orders', 100],
        ] as const) {
          const response = await get(`/apps/atomic/${path}`);
          reads++;
          const whole = /^(a+|b+)$/.test(response.body) && response.body.length === length;
          if (response.statusCode !== 200 || !whole) bad.push(`${path}: ${response.statusCode} ${response.body}`);
        }
      }
    };
    const readers = Array.from({ length: 4 }, reader);
    for (let round = 0; round < 40; round++) {
      const response = await upload(app, 'atomic', partsOf(version(round % 2 === 0 ? 'b' : 'a')));
      assert.equal(response.statusCode, 200, response.body);
    }
    uploading = false;
    await Promise.all(readers);
    assert.deepEqual(bad.slice(0, 3), []);
    assert.ok(reads > 200, `${reads} reads`);
    assert.equal((await app.inject({ method: 'DELETE', url: '/api/v1/apps/atomic' })).statusCode, 200);
    assert.deepEqual(leftovers(dir), []);
  });

  test('an upload replaces the whole app: old files are gone, new ones served at once', async () => {
    await upload(app, 'swap', partsOf({ 'index.html': 'v1', 'old.js': 'old', 'keep/a.txt': 'a1' }));
    const before = await get('/apps/swap/keep/a.txt');
    const response = await upload(app, 'swap', partsOf({ 'index.html': 'v2', 'new.js': 'new', 'keep/a.txt': 'a2' }));
    assert.deepEqual(response.json(), { name: 'swap', files: ['swap/index.html', 'swap/keep/a.txt', 'swap/new.js'] });
    assert.equal((await get('/apps/swap/')).body, 'v2');
    assert.equal((await get('/apps/swap/new.js')).body, 'new');
    assertEnvelope(await get('/apps/swap/old.js'), 404, /no file old\.js/);
    const after = await get('/apps/swap/keep/a.txt', { 'if-none-match': before.headers.etag as string });
    assert.equal(after.statusCode, 200, 'a replaced file is not "not modified"');
    assert.equal(after.body, 'a2');
    assert.deepEqual(filesUnder(join(dir, 'swap')), ['index.html', 'keep/a.txt', 'new.js']);
    assert.deepEqual(leftovers(dir), []);
  });

  test('backslashes from Windows clients separate folders', async () => {
    const response = await upload(app, 'win', partsOf({ 'index.html': 'w', 'assets\\\\app.js': 'js' }));
    assert.deepEqual(response.json().files, ['win/assets/app.js', 'win/index.html']);
    assert.equal((await get('/apps/win/assets/app.js')).body, 'js');
  });

  test('delete answers {deleted}; then the app is gone and deleting again is a 404 envelope', async () => {
    await upload(app, 'gone', partsOf({ 'index.html': 'bye' }));
    const response = await app.inject({ method: 'DELETE', url: '/api/v1/apps/gone' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { deleted: 'gone' });
    assert.ok(!(await list()).includes('gone'));
    assert.ok(!existsSync(join(dir, 'gone')));
    assertEnvelope(await get('/apps/gone/'), 404, /no app 'gone'/);
    assertEnvelope(await app.inject({ method: 'DELETE', url: '/api/v1/apps/gone' }), 404, /no app 'gone'/);
    assert.deepEqual(leftovers(dir), []);
  });

  test('names are 1-64 letters, digits, ".", "_", "-"; the longest and the odd characters work', async () => {
    const longest = `A${'b'.repeat(63)}`;
    for (const name of [longest, 'My_App-1.0']) {
      assert.equal((await upload(app, name, partsOf({ 'index.html': name }))).statusCode, 200, name);
      assert.equal((await get(`/apps/${name}/`)).body, name);
      assert.equal((await app.inject({ method: 'DELETE', url: `/api/v1/apps/${name}` })).statusCode, 200);
    }
  });
});

describe('apps survive a restart', () => {
  test('a new gateway over the same folder lists and serves them', async () => {
    const other = tempDir();
    try {
      const first = await appOver(other);
      await upload(first, 'kept', partsOf(SAMPLE));
      await first.close();
      const second = await appOver(other);
      assert.deepEqual((await second.inject({ method: 'GET', url: '/api/v1/apps' })).json(), { apps: ['kept'] });
      const asset = await second.inject({ method: 'GET', url: '/apps/kept/assets/index-B7xk2Q9a.js' });
      assert.equal(asset.body, SAMPLE['assets/index-B7xk2Q9a.js']);
      await second.close();
    } finally {
      removeDir(other);
    }
  });

  test('opening repairs a crash: staging leftovers go, an app caught mid-replace comes back, a deleted one does not', async () => {
    const other = tempDir();
    try {
      const write = (path: string, text: string) => {
        mkdirSync(join(other, path, '..'), { recursive: true });
        writeFileSync(join(other, path), text);
      };
      write('.staging/half~1/index.html', 'half written');
      write('.trash/replaced~caught~1/index.html', 'the app before the crash');
      write('.trash/replaced~live~1/index.html', 'replaced, already live');
      write('live/index.html', 'the new live app');
      write('.trash/deleted~removed~1/index.html', 'deleted before the crash');
      const reopened = await appOver(other);
      const names = (await reopened.inject({ method: 'GET', url: '/api/v1/apps' })).json().apps;
      assert.deepEqual(names, ['caught', 'live']);
      assert.equal((await reopened.inject({ method: 'GET', url: '/apps/caught/' })).body, 'the app before the crash');
      assert.equal((await reopened.inject({ method: 'GET', url: '/apps/live/' })).body, 'the new live app');
      assert.deepEqual(leftovers(other), []);
      await reopened.close();
    } finally {
      removeDir(other);
    }
  });
});

describe('hostile input', () => {
  const RULE = /invalid app name .*1 to 64 characters of letters, digits/;

  test('bad app names are a 400 stating the rule, on every route', async () => {
    // ('..' itself is tested over a socket: inject() resolves %2e%2e as a URL would)
    const bad = ['.hidden', '..x', 'a%2Fb', 'A'.repeat(65), 'a%00b', 'name.', '-dash', 'a%20b', 'caf%C3%A9', 'a~b'];
    for (const name of bad) {
      assertEnvelope(await upload(app, name, partsOf({ 'index.html': 'x' })), 400, RULE);
      assertEnvelope(await app.inject({ method: 'DELETE', url: `/api/v1/apps/${name}` }), 400, RULE);
      assertEnvelope(await get(`/apps/${name}/`), 400, RULE);
    }
    const empty = await upload(app, '', partsOf({ 'index.html': 'x' }));
    assert.ok(empty.statusCode === 404 || empty.statusCode === 400, empty.body);
    assert.deepEqual(await list(), ['demo', 'swap', 'win']);
    assert.deepEqual(leftovers(dir), []);
  });

  const refusedPaths: [string, RegExp][] = [
    ['/etc/passwd', /absolute path/],
    ['C:\\x', /Windows drive path/],
    ['c:/x', /Windows drive path/],
    ['assets/a:b.js', /contains ':'/],
    ['../index.html', /'\.\.' segment/],
    ['a/../../x', /'\.\.' segment/],
    ['./index.html', /'\.' or '\.\.' segment/],
    ['a//b', /empty/],
    ['a/', /empty/],
    ['', /the name is empty/],
    ['a\u0001b', /control character/],
    ['a\tb', /control character/],
    [`${'s'.repeat(256)}.js`, /longer than 255 bytes/],
    [`${'d/'.repeat(510)}long.js`, /longer than 1024 bytes/],
    [`${'d/'.repeat(32)}deep.js`, /deeper than 32 levels/],
  ];

  for (const [filename, message] of refusedPaths) {
    test(`file name ${JSON.stringify(filename.slice(0, 40))} is refused with 400 and nothing is kept`, async () => {
      const response = await upload(app, 'demo', [...partsOf({ 'index.html': 'new' }), { filename, content: 'x' }]);
      assertEnvelope(response, 400, message);
      assert.match(response.json().message, /invalid file name/);
      assert.equal((await get('/apps/demo/')).body, SAMPLE['index.html'], 'the app before is untouched');
      assert.deepEqual(leftovers(dir), []);
    });
  }

  test('a NUL in a file name is refused', async () => {
    const response = await upload(app, 'nul', [
      ...partsOf({ 'index.html': 'x' }),
      { filename: 'a\u0000b', content: 'x' },
    ]);
    assertEnvelope(response, 400, /./);
    assert.equal(response.json().message, 'invalid file name "a\\u0000b": it contains a control character');
    assert.ok(!(await list()).includes('nul'));
  });

  const refusedUploads: [string, Part[], RegExp][] = [
    ['a duplicate path', partsOf({ 'index.html': 'a' }).concat({ filename: 'index.html', content: 'b' }), /twice/],
    ['a file that is also a folder', partsOf({ 'index.html': 'a', lib: 'x', 'lib/a.js': 'y' }), /"lib" is both/],
    ['a folder that is also a file', partsOf({ 'index.html': 'a', 'lib/a.js': 'y', lib: 'x' }), /"lib" is both/],
    ['no files at all', [], /no files: send each file as a part named 'files'/],
    ['a part with another name', [{ field: 'file', filename: 'index.html', content: 'x' }], /unexpected part "file"/],
    ['a text field', [...partsOf({ 'index.html': 'x' }), { field: 'note', content: 'hi' }], /unexpected part "note"/],
    ['a files part without filename', [{ content: 'x' }], /part named 'files' has no filename/],
    ['no index.html', partsOf({ 'main.js': 'x' }), /no index\.html at its root, the entry point/],
    [
      'the folder instead of its contents',
      partsOf({ 'dist/index.html': 'x', 'dist/assets/a.js': 'y' }),
      /it has dist\/index\.html: upload the contents of the folder dist, not the folder itself/,
    ],
  ];

  for (const [what, parts, message] of refusedUploads) {
    test(`${what} is a 400 and nothing is kept`, async () => {
      assertEnvelope(await upload(app, 'demo', parts), 400, message);
      assert.equal((await get('/apps/demo/')).body, SAMPLE['index.html']);
      assert.deepEqual(leftovers(dir), []);
    });
  }

  test('more than 1,000 folders is a 400, however few the files', async () => {
    const parts: Part[] = partsOf({ 'index.html': 'x' });
    for (let i = 0; i < 1_001; i++) parts.push({ filename: `f${i}/a.txt` });
    assertEnvelope(await upload(app, 'folders', parts), 400, /^the upload has more than 1000 folders, the most/);
    const deep: Part[] = partsOf({ 'index.html': 'x' });
    for (let i = 0; i < 40; i++) deep.push({ filename: `${i}/${'d/'.repeat(30)}a.txt` });
    assertEnvelope(await upload(app, 'folders', deep), 400, /^the upload has more than 1000 folders/);
    assert.ok(!(await list()).includes('folders'));
    assert.deepEqual(leftovers(dir), []);
  });

  test('more than 10,000 files is a 400', async () => {
    const parts: Part[] = partsOf({ 'index.html': 'x' });
    for (let i = 0; i < 10_000; i++) parts.push({ filename: `f/${i}.txt` });
    const response = await upload(app, 'many', parts);
    assertEnvelope(response, 400, /the upload has more than 10000 files, the most an app may have/);
    assert.ok(!(await list()).includes('many'));
    assert.deepEqual(leftovers(dir), []);
  });

  test('a body that is not multipart is a 415 naming the format, and broken multipart a 400', async () => {
    const json = await app.inject({ method: 'POST', url: '/api/v1/apps/demo', payload: { files: [] } });
    assertEnvelope(json, 415, /multipart\/form-data: send each file as a part named 'files'/);
    const noBoundary = await app.inject({
      method: 'POST',
      url: '/api/v1/apps/demo',
      headers: { 'content-type': 'multipart/form-data' },
      payload: 'x',
    });
    assertEnvelope(noBoundary, 400, /not valid multipart\/form-data/);
    const { headers, payload } = multipart(partsOf({ 'index.html': 'cut' }));
    const cut = await app.inject({
      method: 'POST',
      url: '/api/v1/apps/demo',
      headers,
      payload: payload.subarray(0, 90),
    });
    assertEnvelope(cut, 400, /not valid multipart|ended before/);
    assert.equal((await get('/apps/demo/')).body, SAMPLE['index.html']);
    assert.deepEqual(leftovers(dir), []);
  });

  test("only the multipart parser's own errors are the client's (400); any other error stays a server error", async () => {
    const { receiveUpload } = await import('../../src/server/apps/upload.js');
    const { AppRefusal } = await import('../../src/server/apps/paths.js');
    const { StagedApp } = await import('../../src/server/apps/staging.js');
    const failing = (error: Error) => ({
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }),
    });
    const staged = new StagedApp(join(dir, '.staging', 'never-written'));
    for (const message of [
      'Unexpected end of multipart data',
      'Part terminated early due to unexpected end of multipart data',
      'Multipart: Boundary not found',
    ]) {
      await assert.rejects(receiveUpload(failing(new Error(message)), staged), (error: unknown) => {
        assert.ok(error instanceof AppRefusal, message);
        assert.equal(error.kind, 'INVALID_REQUEST');
        assert.equal(error.message, `the body is not valid multipart/form-data (${message})`);
        return true;
      });
    }
    const bug = new Error('Cannot read properties of undefined');
    await assert.rejects(receiveUpload(failing(bug), staged), (error: unknown) => error === bug);
    const typeError = new TypeError('x is not a function');
    await assert.rejects(receiveUpload(failing(typeError), staged), (error: unknown) => error === typeError);
  });

  test('multipart is parsed for uploads only: other routes still refuse it with 415', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/data/contracts/combo',
      ...multipart(partsOf({ 'index.html': 'x' })),
    });
    assertEnvelope(response, 415, /send application\/json/);
  });

  test('encoded traversal in the URL never leaves the app folder', async () => {
    writeFileSync(join(dir, 'secret.txt'), 'outside the app');
    const attempts = [
      '/apps/demo/..%2f..%2fpackage.json',
      '/apps/demo/..%2fsecret.txt',
      '/apps/demo/%2e%2e/secret.txt',
      '/apps/demo/assets/..%2F..%2Fsecret.txt',
      '/apps/demo/..%5csecret.txt',
      '/apps/demo/%00',
      '/apps/demo/index.html%00.js',
      '/apps/demo//etc/passwd',
    ];
    for (const url of attempts) {
      const response = await get(url);
      assert.ok([400, 404].includes(response.statusCode), `${url}: ${response.statusCode}`);
      assert.doesNotMatch(response.body, /outside the app|"name": "sjgate"|root:/, url);
      assert.match(response.headers['content-type'] as string, /^application\/json/, url);
    }
    assertEnvelope(await get('/apps/demo/..%2f..%2fpackage.json'), 400, /invalid path "\.\.\/\.\.\/package\.json"/);
    const doubled = await get('/apps/demo/%252e%252e%252fsecret.txt');
    assert.doesNotMatch(doubled.body, /outside the app/);
  });

  test('symbolic links planted in an app are never followed', async () => {
    const outside = tempDir('sjgate-outside-');
    try {
      writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET');
      writeFileSync(join(outside, 'index.html'), 'TOP SECRET PAGE');
      symlinkSync(join(outside, 'secret.txt'), join(dir, 'demo', 'secret.txt'));
      symlinkSync(join(outside, 'secret.txt'), join(dir, 'demo', 'secret'));
      symlinkSync('/etc/passwd', join(dir, 'demo', 'passwd.txt'));
      symlinkSync(outside, join(dir, 'demo', 'linked'));
      symlinkSync(outside, join(dir, 'evil'));
      for (const path of ['secret.txt', 'secret', 'passwd.txt', 'linked/secret.txt', 'linked/index.html', 'linked']) {
        const response = await get(`/apps/demo/${path}`);
        assert.doesNotMatch(response.body, /TOP SECRET|root:/, path);
        assertEnvelope(response, 404, /has no file/);
      }
      assertEnvelope(await get('/apps/evil/'), 404, /no app 'evil'/);
      assert.ok(!(await list()).includes('evil'), 'a link is not an app');
      // a link at index.html is not served either
      const page = tempDir();
      const other = await appOver(page);
      await upload(other, 'x', partsOf({ 'index.html': 'real' }));
      removeDir(join(page, 'x', 'index.html'));
      symlinkSync(join(outside, 'index.html'), join(page, 'x', 'index.html'));
      assertEnvelope(await other.inject({ method: 'GET', url: '/apps/x/' }), 404, /has no index\.html/);
      await other.close();
      removeDir(page);
    } finally {
      for (const link of ['secret.txt', 'secret', 'passwd.txt', 'linked']) removeDir(join(dir, 'demo', link));
      removeDir(join(dir, 'evil'));
      removeDir(outside);
    }
  });

  test('a byte-for-byte copy of the app is what is served after all the refusals', async () => {
    for (const [path, content] of Object.entries(SAMPLE)) {
      assert.deepEqual(readFileSync(join(dir, 'demo', path)), Buffer.from(content), path);
    }
  });
});

describe('the apps API on an exposed gateway', () => {
  test('uploads need the bearer token; the pages stay public', async () => {
    const exposedDir = tempDir();
    const exposed = await appOver(exposedDir, '0.0.0.0');
    try {
      const refused = await exposed.inject({
        method: 'POST',
        url: '/api/v1/apps/pub',
        ...multipart(partsOf({ 'index.html': 'hi' })),
      });
      assertEnvelope(refused, 401, /Missing Authorization header/);
      const { headers, payload } = multipart(partsOf({ 'index.html': 'hi' }));
      const allowed = await exposed.inject({
        method: 'POST',
        url: '/api/v1/apps/pub',
        headers: { ...headers, authorization: 'Bearer KEY:SECRET' },
        payload,
      });
      assert.equal(allowed.statusCode, 200, allowed.body);
      assert.equal((await exposed.inject({ method: 'GET', url: '/apps/pub/' })).body, 'hi');
      assertEnvelope(await exposed.inject({ method: 'GET', url: '/api/v1/apps' }), 401, /Missing Authorization/);
    } finally {
      await exposed.close();
      removeDir(exposedDir);
    }
  });
});

describe('documentation', () => {
  test('the OpenAPI document covers the apps API under the tag apps', async () => {
    const paths = (await get('/openapi.json')).json().paths as Record<string, Record<string, Json>>;
    const upload = paths['/api/v1/apps/{name}']!.post!;
    assert.deepEqual(upload.tags, ['apps']);
    const content = (upload.requestBody as { content: Json }).content;
    assert.ok(content['multipart/form-data'], 'the upload is documented as multipart');
    for (const status of ['200', '400', '411', '413', '415']) assert.ok((upload.responses as Json)[status], status);
    assert.deepEqual(paths['/api/v1/apps']!.get!.tags, ['apps']);
    assert.deepEqual(paths['/api/v1/apps/{name}']!.delete!.tags, ['apps']);
    assert.ok(paths['/apps/{name}']?.get);
  });
});
