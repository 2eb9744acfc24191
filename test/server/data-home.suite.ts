// A data home made with the usual umask (0755 folders, 0644 files) keeps trading data readable by every user of the
// machine: the gateway tightens it at start, and says so in its log.

import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { startGateway } from '../../src/server/main.js';

const root = mkdtempSync(join(tmpdir(), 'sjgate-home-modes-'));
after(() => rmSync(root, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;

test('a home readable by others is made owner-only: the home, the journal, the apps folder', {
  timeout: 30_000,
}, async () => {
  const home = join(root, 'home');
  mkdirSync(join(home, 'apps'), { recursive: true });
  chmodSync(home, 0o755);
  chmodSync(join(home, 'apps'), 0o755);
  writeFileSync(join(home, 'subscriptions.json'), '[]\n', { mode: 0o644 });
  const lines: string[] = [];
  const gateway = await startGateway(loadConfig({ SJ_HOME_PATH: home, SJ_HTTP_ADDR: '127.0.0.1:0' }), (line) =>
    lines.push(line),
  );
  try {
    assert.equal(modeOf(home), 0o700);
    assert.equal(modeOf(join(home, 'apps')), 0o700);
    assert.equal(modeOf(join(home, 'sjgate.db')), 0o600);
    assert.equal(modeOf(join(home, 'subscriptions.json')), 0o600);
    assert.equal(modeOf(gateway.socketPath), 0o600);
    assert.ok(
      lines.some((line) => line.includes(`tightened the permissions of ${home} from 0755 to 0700`)),
      lines.join('\n'),
    );
  } finally {
    await gateway.close();
  }
});

test('a new home is owner-only from the start, and nothing is logged about it', { timeout: 30_000 }, async () => {
  const home = join(root, 'fresh');
  const lines: string[] = [];
  const gateway = await startGateway(loadConfig({ SJ_HOME_PATH: home, SJ_HTTP_ADDR: '127.0.0.1:0' }), (line) =>
    lines.push(line),
  );
  try {
    assert.equal(modeOf(home), 0o700);
    assert.equal(modeOf(join(home, 'sjgate.db')), 0o600);
    assert.ok(!lines.some((line) => line.startsWith('tightened')), lines.join('\n'));
  } finally {
    await gateway.close();
  }
});
