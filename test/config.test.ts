import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig, loadDotEnv } from '../src/config.js';

describe('configuration', () => {
  test('defaults: simulation on loopback 8080, data home under the home directory', () => {
    const config = loadConfig({ HOME: '/home/trader' });
    assert.equal(config.production, false);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 8080);
    assert.equal(config.simClock, 'always-open');
    assert.equal(config.simSeed, 1);
    assert.equal(config.tls, null);
    assert.equal(config.simLimits, true);
    // In the data home itself, where the official 1.7.9 CLI looks for them.
    assert.equal(config.socketPath, join(config.homePath, 'server-8080.sock'));
    assert.equal(config.pidPath, join(config.homePath, 'server-8080.pid'));
  });

  test('SJ_HTTP_ADDR and overrides choose the address; the port names the socket', () => {
    const config = loadConfig({ SJ_HTTP_ADDR: '[::1]:9000', SJ_HOME_PATH: '/tmp/h' });
    assert.equal(config.host, '::1');
    assert.equal(config.port, 9000);
    assert.equal(config.socketPath, '/tmp/h/server-9000.sock');
    const overridden = loadConfig({ SJ_HTTP_ADDR: '127.0.0.1:9000', SJ_HOME_PATH: '/tmp/h' }, { port: 9100 });
    assert.equal(overridden.port, 9100);
    assert.equal(overridden.socketPath, '/tmp/h/server-9100.sock');
  });

  const rejects = (env: NodeJS.ProcessEnv, pattern: RegExp) =>
    assert.throws(
      () => loadConfig(env),
      (error: unknown) => error instanceof ConfigError && pattern.test(error.message),
    );

  test('bad values are start-up errors that say what to fix', () => {
    rejects({ SJ_HTTP_ADDR: 'localhost' }, /SJ_HTTP_ADDR must look like 127\.0\.0\.1:8080/);
    rejects({ SJ_HTTP_ADDR: '127.0.0.1:99999' }, /at most 65535/);
    rejects({ SJ_PRODUCTION: 'maybe' }, /SJ_PRODUCTION must be 'true' or 'false', got 'maybe'/);
    rejects({ SJ_SIM_SEED: 'abc' }, /SJ_SIM_SEED must be an integer/);
    rejects({ SJ_SIM_CLOCK: 'fast' }, /SJ_SIM_CLOCK must be 'always-open' or 'exchange'/);
    rejects({ SJ_SIM_START: 'yesterday' }, /SJ_SIM_START must be an ISO 8601 time/);
    rejects({ SJ_CA_PATH: '/tmp/ca.pfx' }, /SJ_CA_PASSWD is not/);
    rejects({ SJ_SIM_LIMITS: 'strict' }, /SJ_SIM_LIMITS must be 'on' or 'off', got 'strict'/);
    rejects({ SJ_SIM_STARTING_CASH: '-5' }, /SJ_SIM_STARTING_CASH must be a whole number of NT\$/);
    rejects({ SJ_SIM_STARTING_COLLATERAL: '1e6' }, /SJ_SIM_STARTING_COLLATERAL must be a whole number/);
  });

  test('starting cash and collateral of the simulated accounts', () => {
    const defaults = loadConfig({});
    assert.deepEqual([defaults.simStartingCash, defaults.simStartingCollateral], [10_000_000, 2_000_000]);
    const set = loadConfig({ SJ_SIM_STARTING_CASH: '50,000,000', SJ_SIM_STARTING_COLLATERAL: '500_000' });
    assert.deepEqual([set.simStartingCash, set.simStartingCollateral], [50_000_000, 500_000]);
  });

  test('a half TLS pair is refused, naming the missing variable', () => {
    rejects({ SJ_HTTP_TLS_CERT: '/tmp/cert.pem' }, /SJ_HTTP_TLS_CERT is set but SJ_HTTP_TLS_KEY is not/);
    rejects({ SJ_HTTP_TLS_KEY: '/tmp/key.pem' }, /SJ_HTTP_TLS_KEY is set but SJ_HTTP_TLS_CERT is not/);
    rejects({ SJ_HTTP_TLS_KEY: '/nope/key.pem', SJ_HTTP_TLS_CERT: '/nope/cert.pem' }, /does not exist/);
  });

  test('SJ_BACKEND picks who answers; SJ_PRODUCTION implies SinoPac and cannot run on the simulator', () => {
    assert.equal(loadConfig({}).backend, 'simulator');
    const keys = { SJ_API_KEY: 'k', SJ_SEC_KEY: 's' };
    assert.equal(loadConfig({ ...keys, SJ_PRODUCTION: 'true' }).backend, 'shioaji');
    const sinopacSimulation = loadConfig({ ...keys, SJ_BACKEND: 'shioaji' });
    assert.deepEqual([sinopacSimulation.backend, sinopacSimulation.production], ['shioaji', false]);
    assert.equal(loadConfig({ SJ_BACKEND: 'SIM' }).backend, 'simulator');
    rejects({ SJ_BACKEND: 'sinopac' }, /SJ_BACKEND must be 'simulator' or 'shioaji', got 'sinopac'/);
    rejects({ ...keys, SJ_BACKEND: 'simulator', SJ_PRODUCTION: 'true' }, /cannot run on the simulator/);
    rejects({ SJ_BACKEND: 'shioaji' }, /the shioaji backend \(SJ_BACKEND=shioaji\) needs SJ_API_KEY and SJ_SEC_KEY/);
  });

  test('production without keys refuses, naming what is missing; simulation needs none', () => {
    rejects({ SJ_PRODUCTION: 'true' }, /needs SJ_API_KEY and SJ_SEC_KEY/);
    rejects({ SJ_PRODUCTION: 'true', SJ_API_KEY: 'k' }, /needs SJ_SEC_KEY, the API keys from SinoPac;/);
    assert.equal(loadConfig({ SJ_PRODUCTION: 'true', SJ_API_KEY: 'k', SJ_SEC_KEY: 's' }).production, true);
    assert.equal(loadConfig({}).apiKey, null);
  });

  test('SJ_REQUEST_LOG: failed requests by default, every request or none; another word is refused', () => {
    assert.equal(loadConfig({}).requestLog, 'errors');
    assert.equal(loadConfig({ SJ_REQUEST_LOG: 'all' }).requestLog, 'all');
    assert.equal(loadConfig({ SJ_REQUEST_LOG: 'on' }).requestLog, 'all');
    assert.equal(loadConfig({ SJ_REQUEST_LOG: 'OFF' }).requestLog, 'off');
    assert.throws(
      () => loadConfig({ SJ_REQUEST_LOG: 'verbose' }),
      (error: unknown) => error instanceof ConfigError && /'off', 'errors' or 'all', got 'verbose'/.test(error.message),
    );
  });

  test('SJ_SIM_LIMITS switches the simulated call-rate limits: on by default, off or false disables them', () => {
    assert.equal(loadConfig({ SJ_SIM_LIMITS: 'on' }).simLimits, true);
    assert.equal(loadConfig({ SJ_SIM_LIMITS: 'OFF' }).simLimits, false);
    assert.equal(loadConfig({ SJ_SIM_LIMITS: 'false' }).simLimits, false);
    assert.equal(loadConfig({ SJ_SIM_LIMITS: 'true' }).simLimits, true);
    assert.equal(loadConfig({ SJ_SIM_LIMITS: '  ' }).simLimits, true);
  });

  test('SJ_SIM_START without an offset is Taiwan time', () => {
    const config = loadConfig({ SJ_SIM_START: '2026-12-16T14:50:00' });
    assert.equal(config.simStart, Date.parse('2026-12-16T06:50:00Z'));
  });

  test('.env fills in variables without overriding the environment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-env-'));
    writeFileSync(
      join(dir, '.env'),
      'SJ_API_KEY=from-file\nSJ_SIM_SEED=42\n# comment\nSJ_HTTP_ADDR="127.0.0.1:9999"\n',
    );
    const env: NodeJS.ProcessEnv = { SJ_SIM_SEED: '7' };
    loadDotEnv(dir, env);
    assert.equal(env.SJ_API_KEY, 'from-file');
    assert.equal(env.SJ_SIM_SEED, '7');
    assert.equal(loadConfig(env).port, 9999);
  });

  describe('the agent harness', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sjgate-harness-'));
    const secretFile = (name: string, text: string, mode = 0o600) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      chmodSync(path, mode);
      return path;
    };
    const hex = 'ab'.repeat(32);

    test('off by default, without a secret', () => {
      assert.deepEqual(loadConfig({}).agentHarness, { mode: 'off', secret: null, bootstrap: 'none' });
    });

    test('SJ_AGENT_HARNESS and an owner-only SJ_AGENT_HARNESS_SECRET_FILE of 64 hex digits', () => {
      const path = secretFile('good', `${hex}\n`);
      const config = loadConfig({ SJ_AGENT_HARNESS: 'all', SJ_AGENT_HARNESS_SECRET_FILE: path }).agentHarness;
      assert.equal(config.mode, 'all');
      assert.equal(config.bootstrap, 'file');
      assert.equal(Buffer.from(config.secret!).toString('hex'), hex);
      assert.equal(loadConfig({ SJ_AGENT_HARNESS: 'Production' }).agentHarness.mode, 'production');
    });

    test('a bad mode or secret file is a start-up error that never quotes the secret', () => {
      rejects({ SJ_AGENT_HARNESS: 'on' }, /SJ_AGENT_HARNESS must be 'off', 'production' or 'all', got 'on'/);
      const file = (path: string) => ({ SJ_AGENT_HARNESS: 'all', SJ_AGENT_HARNESS_SECRET_FILE: path });
      rejects(file(join(dir, 'missing')), /SJ_AGENT_HARNESS_SECRET_FILE points to '.*missing', which does not exist/);
      rejects(file(dir), /which cannot be read \(EISDIR\)/);
      rejects(file(secretFile('world', hex, 0o644)), /may be read by others \(mode 644\): chmod 600 it/);
      rejects(file(secretFile('group', hex, 0o640)), /may be read by others \(mode 640\)/);
      rejects(file(secretFile('short', 'ab'.repeat(31))), /must hold 64 hex digits \(32 bytes\)/);
      const wrong = 'zz'.repeat(32);
      assert.throws(
        () => loadConfig(file(secretFile('wrong', wrong))),
        (error: unknown) => error instanceof ConfigError && !error.message.includes(wrong),
      );
    });
  });
});

test('SJ_RECEIVE_WINDOW: the login receive window in ms, 30000 unless set', () => {
  assert.equal(loadConfig({}).receiveWindowMs, 30_000);
  assert.equal(loadConfig({ SJ_RECEIVE_WINDOW: '5000' }).receiveWindowMs, 5_000);
  for (const bad of ['10', '5s', '900000']) {
    assert.throws(() => loadConfig({ SJ_RECEIVE_WINDOW: bad }), /SJ_RECEIVE_WINDOW must be milliseconds from 1000/);
  }
});
