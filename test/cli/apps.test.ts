import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { appUrl } from '../../src/cli/commands/apps/app-url.js';
import { multipartBody } from '../../src/cli/multipart.js';
import { formatProgress, ProgressLine } from '../../src/cli/progress.js';
import { MAX_APP_BYTES } from '../../src/domain/apps.js';
import { runSjgate } from '../helpers/cli.js';
import { appOver, memoryTempDir, removeDir, tempDir } from '../server/apps-fixtures.js';

let appsDir: string;
let work: string;
let app: FastifyInstance;
let port: number;
let uploadsReceived = 0;
const savedHome = process.env.SJ_HOME_PATH;

const sjgate = (...args: string[]) => runSjgate(port, args);
const served = async (path: string) => {
  const response = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
};

/** Writes `files` under a new folder of the work area; its path. */
function folderWith(name: string, files: Record<string, string | Buffer>): string {
  const root = join(work, name);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  mkdirSync(root, { recursive: true });
  return root;
}

const BIG = Buffer.alloc(1_500_000, 7);

before(async () => {
  appsDir = memoryTempDir();
  work = tempDir('sjgate-cli-apps-');
  // A data home without a socket, so the client goes over TCP to the gateway of this test.
  process.env.SJ_HOME_PATH = join(work, 'home');
  app = await appOver(appsDir);
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
  app.server.on('request', (request) => {
    if (request.method === 'POST') uploadsReceived++;
  });
});
after(async () => {
  await app.close();
  removeDir(appsDir);
  removeDir(work);
  if (savedHome === undefined) delete process.env.SJ_HOME_PATH;
  else process.env.SJ_HOME_PATH = savedHome;
});

describe('sjgate apps upload --dir', () => {
  test('uploads the folder with its layout and says where to open it', async () => {
    const dist = folderWith('dist', {
      'index.html': '<h1>web</h1>',
      'assets/index-B7xk2Q9a.js': 'console.log(1)',
      'assets/big.bin': BIG,
      'data/數據 "q".json': '{}',
    });
    const run = await sjgate('apps', 'upload', '--name', 'web', '--dir', dist);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `Uploaded web: 4 files, 1.4 MB\nOpen http://127.0.0.1:${port}/apps/web/\n`);
    assert.equal(run.stderr, '', 'no progress bar when stderr is not a terminal');
    assert.equal((await served('/apps/web/')).body.toString(), '<h1>web</h1>');
    assert.deepEqual((await served('/apps/web/assets/big.bin')).body, BIG);
    assert.equal((await served(`/apps/web/data/${encodeURIComponent('數據 "q".json')}`)).body.toString(), '{}');
  });

  test('--format json prints the API answer', async () => {
    const dist = folderWith('small', { 'index.html': 'small', 'a/b.css': 'b{}' });
    const run = await sjgate('--format', 'json', 'apps', 'upload', '--name', 'small', '--dir', dist);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { name: 'small', files: ['small/a/b.css', 'small/index.html'] });
  });

  test('symbolic links in the folder are refused by name, before anything is sent', async () => {
    const dist = folderWith('linked', { 'index.html': 'x', 'real.js': 'y' });
    symlinkSync(join(dist, 'real.js'), join(dist, 'alias.js'));
    mkdirSync(join(dist, 'sub'));
    symlinkSync('/etc', join(dist, 'sub', 'etc'));
    const before = uploadsReceived;
    const run = await sjgate('apps', 'upload', '--name', 'linked', '--dir', dist);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /has symbolic links, which are not uploaded: alias\.js, sub\/etc; replace them/);
    assert.equal(uploadsReceived, before);
  });

  test('an app over 50 MB is refused before sending', async () => {
    const dist = folderWith('huge', { 'index.html': 'x', 'video.mp4': '' });
    truncateSync(join(dist, 'video.mp4'), MAX_APP_BYTES); // sparse: 50 MB on paper, nothing on disk
    const before = uploadsReceived;
    const run = await sjgate('apps', 'upload', '--name', 'huge', '--dir', dist);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /^error: the app is 50\.0 MB \(52428801 bytes\); an app may hold at most 50 MB \(52428800/,
    );
    assert.equal(uploadsReceived, before);
  });

  test('a folder without index.html at its top is refused, pointing at the folder that has it', async () => {
    const project = folderWith('project', { 'dist/index.html': 'x', 'src/main.ts': 'y' });
    const run = await sjgate('apps', 'upload', '--name', 'p', '--dir', project);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /no index\.html at the top of the app; there is dist\/index\.html: upload that folder's/);
    assert.ok(run.stderr.includes(`--dir ${join(project, 'dist')}`), run.stderr);
    const empty = folderWith('empty', {});
    assert.match((await sjgate('apps', 'upload', '--name', 'e', '--dir', empty)).stderr, /nothing to upload/);
  });

  test('names the gateway would refuse or change are refused by name, before anything is sent', async () => {
    const cases: [string, RegExp][] = [
      ['a\\b.js', /the file "a\\\\b\.js" cannot be uploaded: it contains '\\', which the gateway reads as a folder/],
      ['chart:1.js', /the file "chart:1\.js" cannot be uploaded: it contains ':', which file names of an app may not/],
      ['tab\there.js', /the file "tab\\there\.js" cannot be uploaded: it contains a control character; rename it/],
    ];
    for (const [[name, message], i] of cases.map((c, i) => [c, i] as const)) {
      const dist = folderWith(`odd-${i}`, { 'index.html': 'x', [name]: 'y' });
      const before = uploadsReceived;
      const run = await sjgate('apps', 'upload', '--name', 'odd', '--dir', dist);
      assert.equal(run.code, 1, name);
      assert.match(run.stderr, message);
      assert.equal(uploadsReceived, before, name);
    }
  });

  test('more folders than an app may have are refused before sending', async () => {
    const files: Record<string, string> = { 'index.html': 'x' };
    for (let i = 0; i < 1_001; i++) files[`f${i}/a.txt`] = '';
    const dist = folderWith('folders', files);
    const before = uploadsReceived;
    const run = await sjgate('apps', 'upload', '--name', 'folders', '--dir', dist);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^error: the app has 1001 folders; an app may have at most 1000/);
    assert.equal(uploadsReceived, before);
  });

  test("the gateway's refusal arrives even while the client is still sending", async () => {
    const dist = folderWith('refused', { 'index.html': 'x', 'big.bin': Buffer.alloc(8 * 1024 * 1024) });
    const run = await sjgate('apps', 'upload', '--name', '..', '--dir', dist);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^error: invalid app name "\.\.": an app name is 1 to 64 characters/);
    const json = await sjgate('--format', 'json', 'apps', 'upload', '--name', 'a b', '--dir', dist);
    assert.equal(JSON.parse(json.stdout).code, 400);
  });
});

describe('sjgate apps upload --file', () => {
  test('relative paths keep their folders, absolute ones only their name', async () => {
    const dist = folderWith('files', { 'index.html': 'files', 'assets/app.js': 'app', 'x/extra.txt': 'extra' });
    const cwd = process.cwd();
    process.chdir(dist);
    try {
      const run = await sjgate(
        '--format',
        'json',
        'apps',
        'upload',
        '--name',
        'files',
        '--file',
        './x/../index.html',
        '--file',
        'assets/app.js',
        '--file',
        join(dist, 'x', 'extra.txt'),
      );
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout).files, ['files/assets/app.js', 'files/extra.txt', 'files/index.html']);
      const outside = await sjgate('apps', 'upload', '--name', 'files', '--file', 'index.html', '--file', '../x.js');
      assert.equal(outside.code, 2);
      assert.match(outside.stderr, /--file \.\.\/x\.js is outside the current folder; give its absolute path/);
    } finally {
      process.chdir(cwd);
    }
    assert.equal((await served('/apps/files/extra.txt')).body.toString(), 'extra');
  });

  test('a missing file, a folder and two files with one name are usage errors', async () => {
    const dist = folderWith('bad-files', { 'index.html': 'i', 'a/index.html': 'j' });
    const missing = await sjgate('apps', 'upload', '--name', 'b', '--file', join(dist, 'nope.js'));
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.js: no such file or folder/);
    const folder = await sjgate('apps', 'upload', '--name', 'b', '--file', join(dist, 'a'));
    assert.match(folder.stderr, /is not a file/);
    const twice = await sjgate(
      'apps',
      'upload',
      '--name',
      'b',
      '--file',
      join(dist, 'index.html'),
      '--file',
      join(dist, 'a', 'index.html'),
    );
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /would both be index\.html in the app/);
  });

  test('--dir and --file are exclusive, and one of them is needed', async () => {
    const both = await sjgate('apps', 'upload', '--name', 'x', '--dir', work, '--file', 'index.html');
    assert.equal(both.code, 2);
    assert.match(both.stderr, /option '--dir <DIR>' cannot be used with option '--file <PATH\.\.\.>'/);
    const neither = await sjgate('apps', 'upload', '--name', 'x');
    assert.equal(neither.code, 2);
    assert.match(neither.stderr, /give the app as --dir <DIR> or as --file <PATH>\.\.\./);
    const noName = await sjgate('apps', 'upload', '--dir', work);
    assert.equal(noName.code, 2);
    assert.match(noName.stderr, /required option '--name <NAME>'/);
  });
});

describe('sjgate apps list and delete', () => {
  test('list shows names and addresses; json is the API answer', async () => {
    const table = await sjgate('apps', 'list');
    assert.equal(table.code, 0, table.stderr);
    for (const name of ['files', 'small', 'web']) {
      assert.ok(table.stdout.includes(`http://127.0.0.1:${port}/apps/${name}/`), table.stdout);
    }
    assert.match(table.stdout, /name\s.*url/);
    const json = await sjgate('--format', 'json', 'apps', 'list');
    assert.deepEqual(JSON.parse(json.stdout), { apps: ['files', 'small', 'web'] });
  });

  test('delete removes the app; deleting it again is an error from the gateway', async () => {
    const run = await sjgate('apps', 'delete', '--name', 'small');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'Deleted app small\n');
    assert.equal((await served('/apps/small/')).status, 404);
    const again = await sjgate('--format', 'json', 'apps', 'delete', '--name', 'small');
    assert.equal(again.code, 1);
    assert.deepEqual(JSON.parse(again.stdout), {
      code: 404,
      error: 'APP_NOT_FOUND',
      message: "no app 'small' is uploaded; GET /api/v1/apps lists the apps",
      details: null,
    });
    assert.match(again.stderr, /^error: no app 'small' is uploaded/);
  });
});

describe('pieces of the upload', () => {
  test('the multipart body is exactly as long as announced, and streamed from disk', async () => {
    const dist = folderWith('body', { 'index.html': 'abc', 'a "b".txt': '', 'big.bin': BIG });
    const files = ['index.html', 'a "b".txt', 'big.bin'].map((name) => ({
      name,
      path: join(dist, name),
      size: readFileSync(join(dist, name)).length,
    }));
    const seen: number[] = [];
    const body = multipartBody(files, (sent) => seen.push(sent));
    const bytes = Buffer.concat(await (body.open() as Readable).toArray());
    assert.equal(bytes.length, body.length);
    assert.equal(seen.at(-1), body.length);
    assert.ok(seen.length > 3, 'progress is reported as the body is read');
    assert.match(bytes.toString('latin1'), /filename="a \\"b\\"\.txt"/);
    assert.match(body.contentType, /^multipart\/form-data; boundary=----sjgate-[0-9a-f]{24}$/);
    // a file that shrank after it was measured fails the upload instead of sending a short body
    writeFileSync(join(dist, 'big.bin'), 'short');
    await assert.rejects((multipartBody(files).open() as Readable).toArray(), /big\.bin changed while it was/);
  });

  test('the address of an app follows the bind address and scheme', () => {
    assert.equal(appUrl({ host: '127.0.0.1', port: 8080, tls: null }, 'web'), 'http://127.0.0.1:8080/apps/web/');
    assert.equal(appUrl({ host: '0.0.0.0', port: 80, tls: null }, 'web'), 'http://127.0.0.1:80/apps/web/');
    const tls = { certPath: 'c', keyPath: 'k' };
    assert.equal(appUrl({ host: '::1', port: 8443, tls }, 'web'), 'https://[::1]:8443/apps/web/');
  });
});

describe('the progress bar', () => {
  const MB = 1024 * 1024;

  test('shows the label, a bar of the fraction sent, the percentage and the sizes in MB', () => {
    assert.equal(
      formatProgress('Uploading myapp', 2.4 * MB, 5 * MB, 12),
      'Uploading myapp [██████░░░░░░] 48%  2.4/5.0 MB',
    );
    assert.equal(formatProgress('Up', 0, 5 * MB, 4), 'Up [░░░░] 0%  0.0/5.0 MB');
    assert.equal(formatProgress('Up', 5 * MB, 5 * MB, 4), 'Up [████] 100%  5.0/5.0 MB');
    assert.equal(formatProgress('Up', 0, 0, 4), 'Up [████] 100%  0.0/0.0 MB');
  });

  test('redraws in place at most ten times a second and erases itself at the end', () => {
    const writes: string[] = [];
    let now = 1_000;
    const line = new ProgressLine({ write: (text) => writes.push(text) }, 'Up', 10 * MB, () => now);
    line.update(1 * MB);
    now += 50;
    line.update(2 * MB);
    now += 60;
    line.update(3 * MB);
    assert.equal(writes.length, 2, 'the update 50 ms after the first is skipped');
    assert.ok(writes.every((text) => text.startsWith('\r')));
    assert.match(writes[1]!, /30%/);
    line.clear();
    assert.equal(writes.at(-1), '\r\x1b[2K');
    const silent: string[] = [];
    new ProgressLine({ write: (text) => silent.push(text) }, 'Up', 1).clear();
    assert.deepEqual(silent, [], 'nothing to erase when nothing was drawn');
  });
});
