import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { formatServerStatus } from '../../../../src/cli/commands/server/status.js';
import { EXIT } from '../../../../src/cli/errors.js';
import { runSjgate } from '../../../helpers/cli.js';
import { freePort } from '../../../helpers/free-port.js';

test('server status --streams shows the clients of each stream, busiest first', () => {
  const text = formatServerStatus({
    running: true,
    pid: 42,
    port: 8080,
    socket_path: '/tmp/s.sock',
    healthy: true,
    simulation: true,
    stream_receivers: 'Market data receivers are available',
    stream_status: {
      active_connections: 3,
      timestamp: '2026-11-23T02:00:00.000Z',
      status: 'healthy',
      streams: { data: 1, tick_stk: 0, order_event: 2 },
    },
  });
  const lines = text.split('\n');
  assert.ok(lines.includes('stream status'), text);
  assert.ok(lines.includes('  active_connections  3'), text);
  const perStream = lines.slice(lines.indexOf('clients per stream') + 1);
  assert.deepEqual(perStream, ['  order_event  2', '  data         1', '  tick_stk     0']);
  assert.ok(!text.includes('stream_status.'), 'no dotted keys');
});

test('a daemon that is not running is said so, with nothing it would serve', () => {
  const text = formatServerStatus({
    running: false,
    pid: null,
    port: 8080,
    socket_path: '/tmp/s.sock',
    healthy: false,
    simulation: null,
    stream_receivers: null,
  });
  assert.equal(text, 'sjgate is not running (port 8080, socket /tmp/s.sock); start it with `sjgate server start`');
});

describe('SJ_PRODUCTION=true without keys', () => {
  const saved = { ...process.env };
  let home = '';
  before(() => {
    home = mkdtempSync(join(tmpdir(), 'sjgate-status-'));
    Object.assign(process.env, { SJ_HOME_PATH: home, SJ_PRODUCTION: 'true' });
    delete process.env.SJ_API_KEY;
    delete process.env.SJ_SEC_KEY;
  });
  after(() => {
    for (const key of ['SJ_HOME_PATH', 'SJ_PRODUCTION'] as const) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    rmSync(home, { recursive: true, force: true });
  });

  test('server status and stop need no keys; a command that would start the daemon asks for them', async () => {
    const port = await freePort();
    const status = await runSjgate(port, ['server', 'status']);
    assert.equal(status.code, EXIT.notRunning, status.stderr);
    assert.match(status.stdout, /^sjgate is not running/);
    const json = await runSjgate(port, ['server', 'status', '--format', 'json']);
    assert.equal(JSON.parse(json.stdout).simulation, null);
    const get = await runSjgate(port, ['contracts', 'get', '2330']);
    assert.equal(get.code, EXIT.usage);
    assert.match(get.stderr, /production mode \(SJ_PRODUCTION=true\) needs SJ_API_KEY and SJ_SEC_KEY/);
  });
});
