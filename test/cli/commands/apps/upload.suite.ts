import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { MAX_APP_BYTES } from '../../../../src/domain/apps.js';
import { appsGateway } from './gateway.js';

const gateway = appsGateway();
const { sjgate, served, folderWith } = gateway;
const BIG = Buffer.alloc(1_500_000, 7);

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
    assert.equal(run.stdout, `Uploaded web: 4 files, 1.4 MB\nOpen http://127.0.0.1:${gateway.port}/apps/web/\n`);
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
    const before = gateway.uploadsReceived;
    const run = await sjgate('apps', 'upload', '--name', 'linked', '--dir', dist);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /has symbolic links, which are not uploaded: alias\.js, sub\/etc; replace them/);
    assert.equal(gateway.uploadsReceived, before);
  });

  test('an app over 50 MB is refused before sending', async () => {
    const dist = folderWith('huge', { 'index.html': 'x', 'video.mp4': '' });
    truncateSync(join(dist, 'video.mp4'), MAX_APP_BYTES); // sparse: 50 MB on paper, nothing on disk
    const before = gateway.uploadsReceived;
    const run = await sjgate('apps', 'upload', '--name', 'huge', '--dir', dist);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /^error: the app is 50\.0 MB \(52428801 bytes\); an app may hold at most 50 MB \(52428800/,
    );
    assert.equal(gateway.uploadsReceived, before);
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
      const before = gateway.uploadsReceived;
      const run = await sjgate('apps', 'upload', '--name', 'odd', '--dir', dist);
      assert.equal(run.code, 1, name);
      assert.match(run.stderr, message);
      assert.equal(gateway.uploadsReceived, before, name);
    }
  });

  test('more folders than an app may have are refused before sending', async () => {
    const files: Record<string, string> = { 'index.html': 'x' };
    for (let i = 0; i < 1_001; i++) files[`f${i}/a.txt`] = '';
    const dist = folderWith('folders', files);
    const before = gateway.uploadsReceived;
    const run = await sjgate('apps', 'upload', '--name', 'folders', '--dir', dist);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^error: the app has 1001 folders; an app may have at most 1000/);
    assert.equal(gateway.uploadsReceived, before);
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
    const both = await sjgate('apps', 'upload', '--name', 'x', '--dir', gateway.work, '--file', 'index.html');
    assert.equal(both.code, 2);
    assert.match(both.stderr, /option '--dir <DIR>' cannot be used with option '--file <PATH\.\.\.>'/);
    const neither = await sjgate('apps', 'upload', '--name', 'x');
    assert.equal(neither.code, 2);
    assert.match(neither.stderr, /give the app as --dir <DIR> or as --file <PATH>\.\.\./);
    const noName = await sjgate('apps', 'upload', '--dir', gateway.work);
    assert.equal(noName.code, 2);
    assert.match(noName.stderr, /required option '--name <NAME>'/);
  });
});

describe('sjgate apps upload --json', () => {
  test('--json FIELDS keeps those fields; a wrong field is refused before anything is sent', async () => {
    const dist = folderWith('json', { 'index.html': 'json' });
    const run = await sjgate('apps', 'upload', '--name', 'json', '--dir', dist, '--json', 'files');
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { files: ['json/index.html'] });
    const before = gateway.uploadsReceived;
    const wrong = await sjgate('apps', 'upload', '--name', 'json', '--dir', dist, '--json', 'url');
    assert.equal(wrong.code, 2);
    assert.equal(wrong.stderr, 'error: unknown JSON field: "url"\navailable fields:\n  name\n  files\n');
    assert.equal(gateway.uploadsReceived, before);
  });
});
