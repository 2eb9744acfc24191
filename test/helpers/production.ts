// The gateway in production mode, in this process, with SinoPac replaced by the bridge's scripted session: the real
// sidecar process and the real SDK models, only SinoPac's network answers scripted (python/README.md).

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { type RunningGateway, startGateway } from '../../src/server/main.js';

export const BRIDGE_PYTHON = resolve('python', '.venv', 'bin', 'python');

/** Why the production tests cannot run here, or null; CI (SJ_PYTHON_TESTS=required) fails instead of skipping. */
export function productionSkip(): string | false {
  if (existsSync(BRIDGE_PYTHON)) return false;
  if (process.env.SJ_PYTHON_TESTS === 'required') throw new Error(`${BRIDGE_PYTHON} is missing (see .ci/run)`);
  return "python/.venv is missing: python3 -m venv python/.venv && python/.venv/bin/pip install -e 'python[test]'";
}

export interface ProductionGateway {
  gateway: RunningGateway;
  base: string;
  home: string;
  log: string[];
  /** Where the scripted SinoPac keeps its orders across sidecar restarts. */
  statePath: string;
  /** Stops the gateway; the home (journal, SinoPac's state) is removed unless kept for a restart. */
  close(options?: { keepHome?: boolean }): Promise<void>;
}

export const KEYS = { SJ_API_KEY: 'scripted-api-key', SJ_SEC_KEY: `3${'1'.repeat(43)}` };

/** Starts the gateway on the scripted session; the scenario's state lives in a fresh home. */
export async function startProduction(
  scenario: Record<string, unknown> = {},
  env: Record<string, string> = {},
  /** A home kept by an earlier gateway's close: its journal and SinoPac's state carry over, as in a restart. */
  reuseHome?: string,
): Promise<ProductionGateway> {
  const home = reuseHome ?? mkdtempSync(join(tmpdir(), 'sjgate-prod-'));
  const statePath = join(home, 'sinopac.json');
  const scenarioPath = join(home, 'scenario.json');
  writeFileSync(scenarioPath, JSON.stringify({ state_path: statePath, ...scenario }));
  // The sidecar inherits the daemon's environment, at every restart too.
  process.env.SJGATE_BRIDGE_SCRIPT = scenarioPath;
  const log: string[] = [];
  try {
    const config = loadConfig({
      SJ_HOME_PATH: join(home, 'data'),
      SJ_HTTP_ADDR: '127.0.0.1:0',
      SJ_BACKEND: 'shioaji',
      SJ_PYTHON: BRIDGE_PYTHON,
      ...KEYS,
      ...env,
    });
    const gateway = await startGateway(config, (line) => log.push(line));
    return {
      gateway,
      base: `http://127.0.0.1:${gateway.port}/api/v1`,
      home,
      log,
      statePath,
      async close(options = {}) {
        await gateway.close();
        if (!options.keepHome) rmSync(home, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
}

export async function getJson<T = Record<string, unknown>>(url: string): Promise<T> {
  const response = await fetch(url);
  return (await response.json()) as T;
}

export async function postJson(url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Polls until the check passes; rejects with the last value after timeoutMs. */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not there after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
