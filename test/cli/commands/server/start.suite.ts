import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { daemonEnv } from '../../../../src/cli/commands/server/start.js';
import { EXIT } from '../../../../src/cli/context.js';
import { envelope, fakeDaemon } from '../../../helpers/cli.js';

test("the official CLI's start flags become the daemon's environment", () => {
  const env = daemonEnv({ production: true, auth: true, receiveWindow: 5_000, open: false });
  assert.equal(env.SJ_PRODUCTION, 'true');
  assert.equal(env.SJ_HTTP_AUTH, 'true');
  assert.equal(env.SJ_RECEIVE_WINDOW, '5000');
  assert.equal(daemonEnv({ prod: true }).SJ_PRODUCTION, 'true', '--prod is --production');
  const plain = daemonEnv({ open: false });
  assert.equal(plain.SJ_HTTP_AUTH, process.env.SJ_HTTP_AUTH, '--no-open changes nothing');
  assert.equal(plain.SJ_PRODUCTION, process.env.SJ_PRODUCTION);
});

describe('sjgate server start with a daemon already running', () => {
  const daemon = fakeDaemon(({ url }) => {
    if (url === '/api/v1/health') return [200, { status: 'healthy' }];
    if (url === '/api/v1/info') return [200, { simulation: true }];
    return envelope('ROUTE_NOT_FOUND', url);
  });
  const saved = { key: process.env.SJ_API_KEY, secret: process.env.SJ_SEC_KEY };
  before(async () => {
    await daemon.start();
    process.env.SJ_API_KEY = 'test-api-key';
    process.env.SJ_SEC_KEY = 'test-secret-key';
  });
  after(async () => {
    await daemon.stop();
    for (const [name, value] of [
      ['SJ_API_KEY', saved.key],
      ['SJ_SEC_KEY', saved.secret],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  test('reports it, and says which start flags could not apply to it', async () => {
    for (const args of [
      ['server', 'start', '--production', '--auth', '--no-open'],
      ['server', '--prod', '--auth'],
    ]) {
      const run = await daemon.sjgate('--format', 'json', ...args);
      assert.equal(run.code, EXIT.ok, run.stderr);
      assert.equal(JSON.parse(run.stdout).status, 'already_running');
      assert.match(run.stderr, /already running, so --production, --auth \(which choose how it starts\) did not apply/);
      assert.match(run.stderr, /sjgate server stop/);
    }
    const quiet = await daemon.sjgate('server', 'start', '--no-open');
    assert.equal(quiet.code, EXIT.ok, quiet.stderr);
    assert.equal(quiet.stderr, '', '--no-open alone needs no note');
  });

  test('a bad --receive-window, or --auth without keys, is a usage error', async () => {
    const window = await daemon.sjgate('server', 'start', '--receive-window', '10');
    assert.equal(window.code, EXIT.usage);
    assert.match(window.stderr, /--receive-window.*integer from 1000 to 600000/);
    delete process.env.SJ_SEC_KEY;
    try {
      const auth = await daemon.sjgate('server', 'start', '--auth');
      assert.equal(auth.code, EXIT.usage);
      assert.match(auth.stderr, /--auth.*set SJ_API_KEY and SJ_SEC_KEY, or leave out --auth/);
    } finally {
      process.env.SJ_SEC_KEY = 'test-secret-key';
    }
  });
});
