// Starts and stops a real sjgate daemon through the CLI, on a free port and a temporary data home.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface Daemon {
  port: number;
  home: string;
  env: NodeJS.ProcessEnv;
  baseUrl: string;
  cli(...args: string[]): Promise<{ stdout: string; stderr: string }>;
  stop(): Promise<void>;
}

/** A daemon's settings on a free port, in `home` or else a new temporary data home. */
export async function daemonEnv(extra: NodeJS.ProcessEnv = {}, home?: string): Promise<Omit<Daemon, 'stop'>> {
  const port = await freePort();
  home ??= mkdtempSync(join(tmpdir(), 'sjgate-bench-'));
  const env = { ...process.env, ...extra, SJ_HOME_PATH: home, SJ_HTTP_ADDR: `127.0.0.1:${port}` };
  const cli = (...args: string[]) => run(process.execPath, [CLI, ...args], { env });
  return { port, home, env, baseUrl: `http://127.0.0.1:${port}`, cli };
}

export async function startDaemon(extra: NodeJS.ProcessEnv = {}): Promise<Daemon> {
  const daemon = await daemonEnv(extra);
  await daemon.cli('server', 'start');
  return {
    ...daemon,
    async stop() {
      await daemon.cli('server', 'stop').catch(() => undefined);
      rmSync(daemon.home, { recursive: true, force: true });
    },
  };
}
