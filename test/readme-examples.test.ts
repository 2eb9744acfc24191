// The README's Python, JavaScript and TypeScript-client examples, run as a user would run them (python3 quotes.py,
// node quotes.mjs; the client's from the package's folder, where `sjgate/client` resolves)
// against a simulated gateway whose market moves (a manual clock stepped in the background).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { streamingGateway } from './cli/streaming.js';

const run = promisify(execFile);

/** The code of the first block of `language` in the README's section `heading`. */
function readmeBlock(heading: string, language: string): string {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf(`## ${heading}\n`));
  const match = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(section);
  assert.ok(match, `a ${language} block under "${heading}"`);
  return match[1] as string;
}

const hasPython = await run('python3', ['--version']).then(
  () => true,
  () => false,
);

describe('the README examples from Python and JavaScript', () => {
  const streaming = streamingGateway();
  const work = mkdtempSync(join(tmpdir(), 'sjgate-readme-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const env = () => ({ ...process.env, SJGATE: `http://127.0.0.1:${streaming.port}` });

  test('JavaScript: places an order and prints three ticks of TXFR1 from the stream', async () => {
    const file = join(work, 'quotes.mjs');
    writeFileSync(file, readmeBlock('From Python and JavaScript', 'js'));
    const { stdout } = await run(process.execPath, [file], { env: env(), timeout: 30_000 });
    const [placed, ...ticks] = stdout.trim().split('\n');
    assert.match(placed ?? '', /^(Submitted|Filled|PartFilled) 委託成功$/);
    assert.equal(ticks.length, 3, stdout);
    for (const tick of ticks) assert.match(tick, /^TXF[A-L]\d \d\d:\d\d:\d\d\.\d+ \d+(\.\d+)?$/);
  });

  test('TypeScript client: places an order and prints three ticks of TXFR1 from the stream', async () => {
    // Run from the package's folder, so `sjgate/client` resolves to the build by the package's own name.
    const program = readmeBlock('From Python and JavaScript', 'ts');
    const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', program], {
      env: env(),
      timeout: 30_000,
    });
    const [placed, ...ticks] = stdout.trim().split('\n');
    assert.match(placed ?? '', /^(Submitted|Filled|PartFilled) 委託成功$/);
    assert.equal(ticks.length, 3, stdout);
    for (const tick of ticks) assert.match(tick, /^TXF[A-L]\d \d\d:\d\d:\d\d\.\d+ \d+(\.\d+)?$/);
  });

  test('Python (standard library only): info, snapshots, and three ticks from the stream', {
    skip: !hasPython,
  }, async () => {
    const file = join(work, 'quotes.py');
    writeFileSync(file, readmeBlock('From Python and JavaScript', 'python'));
    const { stdout } = await run('python3', [file], { env: env(), timeout: 30_000 });
    const lines = stdout.trim().split('\n');
    assert.equal(lines.length, 5, stdout);
    assert.match(lines[0] ?? '', /^\d+(\.\d+)?$/, 'limit_up');
    assert.match(lines[1] ?? '', /^\d+(\.\d+)?$/, 'close');
    for (const tick of lines.slice(2)) assert.match(tick, /^TXF[A-L]\d \d\d:\d\d:\d\d\.\d+ \d+(\.\d+)?$/);
  });
});
