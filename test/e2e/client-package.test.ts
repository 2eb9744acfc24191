// The package exports its client as `sjgate/client` (package.json "exports", built into dist/ by `npm test`): a Node
// program resolves it by the package's name, with its type declarations, and talks to a gateway with it; the built
// client loads nothing of the package but itself and the API contract.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { testApp } from '../helpers/app.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIST_CLIENT = join(ROOT, 'dist', 'client');

/** A program importing the package by name, run from the package's own folder (self-reference through "exports"). */
const PROGRAM = `
const { SjgateClient, ApiError, STREAM_FAMILIES } = await import('sjgate/client');
const client = new SjgateClient({ baseUrl: process.argv[1] });
const health = await client.server.health();
let refused = null;
try { await client.contracts.get('NOPE'); } catch (error) { refused = error instanceof ApiError ? error.kind : String(error); }
console.log(JSON.stringify({ status: health.status, refused, families: STREAM_FAMILIES.length }));
`;

describe('sjgate/client from the built package', () => {
  let gateway: Awaited<ReturnType<typeof testApp>>;
  let url: string;
  before(async () => {
    gateway = await testApp();
    await gateway.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(gateway.app.server.address() as { port: number }).port}`;
  });
  after(() => gateway?.app.close());

  test('resolves by the package name and talks to a gateway', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', PROGRAM, url], {
      cwd: ROOT,
      timeout: 20_000,
    });
    assert.deepEqual(JSON.parse(stdout), { status: 'healthy', refused: 'CONTRACT_NOT_FOUND', families: 14 });
  });

  test('ships its type declarations where "exports" points', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const entry = manifest.exports['./client'];
    assert.ok(existsSync(join(ROOT, entry.default)), `${entry.default} is built`);
    assert.match(readFileSync(join(ROOT, entry.types), 'utf8'), /export declare class SjgateClient/);
  });

  test('loads only its own modules, the API contract and eventsource-parser', () => {
    const imported = new Set<string>();
    for (const file of readdirSync(DIST_CLIENT).filter((name) => name.endsWith('.js'))) {
      const text = readFileSync(join(DIST_CLIENT, file), 'utf8');
      for (const [, specifier] of text.matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)) {
        imported.add(specifier!);
      }
    }
    const outside = [...imported].filter(
      (specifier) => !/^\.\/[\w-]+\.js$/.test(specifier) && !/^\.\.\/contract\/[\w-]+\.js$/.test(specifier),
    );
    assert.deepEqual(outside, ['eventsource-parser']);
  });
});
