// What the daemon asks the sidecar to log in with: SJ_RECEIVE_WINDOW (`server start --receive-window`) reaches
// the SDK's login as receive_window. Over the fake sidecar, which records each login's parameters.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BridgeSession } from '../../../src/broker/shioaji/session.js';

const FAKE = fileURLToPath(new URL('./fake-bridge.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'sjgate-login-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function loginParams(receiveWindowMs: number | undefined): Promise<Record<string, unknown>> {
  const file = join(dir, `logins-${receiveWindowMs ?? 'default'}.jsonl`);
  const session = await BridgeSession.open({
    python: FAKE,
    env: { FAKE_BRIDGE_LOGINS: file },
    credentials: { apiKey: 'key', secretKey: 'secret' },
    ca: null,
    simulation: true,
    receiveWindowMs,
    log: () => undefined,
    maintenanceAt: null,
  });
  await session.close();
  const [first] = readFileSync(file, 'utf8').trim().split('\n');
  return JSON.parse(first ?? '{}') as Record<string, unknown>;
}

test('the login carries the receive window given, 30000 ms by default', { timeout: 20_000 }, async () => {
  assert.equal((await loginParams(5_000)).receive_window, 5_000);
  const defaults = await loginParams(undefined);
  assert.equal(defaults.receive_window, 30_000);
  assert.equal(defaults.simulation, true);
});
