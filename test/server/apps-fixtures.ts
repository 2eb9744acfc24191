// Shared by the hosted-apps tests: a gateway over a temporary apps folder, multipart bodies built byte by byte (so
// a test controls every filename exactly), and a look at what is on disk.

import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ManualClock } from '../../src/domain/time.js';
import { buildApp } from '../../src/server/app.js';
import { MONDAY_MORNING } from '../helpers/app.js';
import { simGateway } from '../helpers/gateway.js';

export const BOUNDARY = '----sjgate-test-boundary';

export interface Part {
  /** Raw text of the filename parameter; omitted for a part without one. */
  filename?: string;
  content?: string | Buffer;
  /** The part's field name; `files` unless given. */
  field?: string;
}

export function partHead({ filename, field = 'files' }: Part, boundary = BOUNDARY): string {
  const name = filename === undefined ? '' : `; filename="${filename}"`;
  return `--${boundary}\r\nContent-Disposition: form-data; name="${field}"${name}\r\nContent-Type: application/octet-stream\r\n\r\n`;
}

export function multipart(parts: readonly Part[]): { payload: Buffer; headers: Record<string, string> } {
  const chunks = parts.flatMap((part) => [
    Buffer.from(partHead(part)),
    Buffer.from(part.content ?? ''),
    Buffer.from('\r\n'),
  ]);
  return {
    payload: Buffer.concat([...chunks, Buffer.from(`--${BOUNDARY}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

/** `{path: content}` as parts. */
export const partsOf = (files: Readonly<Record<string, string | Buffer>>): Part[] =>
  Object.entries(files).map(([filename, content]) => ({ filename, content }));

export function tempDir(prefix = 'sjgate-apps-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** In memory (tmpfs) where there is one: for tests that create thousands of files. */
export function memoryTempDir(): string {
  return existsSync('/dev/shm') ? mkdtempSync('/dev/shm/sjgate-apps-') : tempDir();
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export async function appOver(appsDir: string, bindHost = '127.0.0.1'): Promise<FastifyInstance> {
  const { gateway } = simGateway({
    clock: new ManualClock(MONDAY_MORNING),
    seed: 1,
    clockMode: 'always-open',
    apiKey: 'KEY',
  });
  const app = await buildApp({
    gateway,
    bindHost,
    appsDir,
    credentials: { apiKey: 'KEY', secretKey: 'SECRET' },
    identity: { version: 'test', scheme: 'http', protocols: ['HTTP/1.1'], startedAt: Date.now() },
  });
  app.addHook('onClose', async () => gateway.close());
  await app.ready();
  return app;
}

export function upload(app: FastifyInstance, name: string, parts: readonly Part[]) {
  return app.inject({ method: 'POST', url: `/api/v1/apps/${name}`, ...multipart(parts) });
}

/** Every file under `dir`, relative, with '/', sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

/** Entries of the private folders: empty once every upload and deletion has finished. */
export function leftovers(appsDir: string): string[] {
  return ['.staging', '.trash'].flatMap((folder) => readdirSync(join(appsDir, folder)).map((e) => `${folder}/${e}`));
}

export const SAMPLE = {
  'index.html': '<!doctype html><title>demo</title><script type="module" src="./assets/index-B7xk2Q9a.js"></script>',
  'assets/index-B7xk2Q9a.js': 'console.log("demo")',
  'assets/style-Dq3m_x-1.css': 'body { margin: 0 }',
  'favicon.ico': Buffer.from([0, 0, 1, 0]),
  'data/prices.json': '{"2330": 1000}',
};
