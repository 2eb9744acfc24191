import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { multipartBody } from '../../src/cli/multipart.js';
import { removeDir, tempDir } from '../server/apps-fixtures.js';

const BIG = Buffer.alloc(1_500_000, 7);
const work = tempDir('sjgate-cli-multipart-');
after(() => removeDir(work));

/** Writes `files` under a new folder of the work area; its path. */
function folderWith(name: string, files: Record<string, string | Buffer>): string {
  const root = join(work, name);
  mkdirSync(root, { recursive: true });
  for (const [path, content] of Object.entries(files)) writeFileSync(join(root, path), content);
  return root;
}

describe('multipartBody', () => {
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
});
