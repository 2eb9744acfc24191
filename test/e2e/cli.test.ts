// The built CLI (dist/cli/main.js, built by `npm test`) driving a real daemon on a free port and a fresh data home.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '../helpers/net.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** True while the process exists and is not a zombie. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

function parseJson(run: Run): Record<string, unknown> {
  try {
    return JSON.parse(run.stdout) as Record<string, unknown>;
  } catch {
    assert.fail(`stdout is not JSON (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

describe('sjgate CLI against a real daemon', () => {
  let home: string;
  let port: number;
  let socketPath: string;
  let pidPath: string;
  let env: NodeJS.ProcessEnv;
  let firstPid: number;

  const sjgate = (...args: string[]): Run => {
    const result = spawnSync(process.execPath, [CLI, ...args], { cwd: home, env, encoding: 'utf8', timeout: 30_000 });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const daemonPid = () => Number(readFileSync(pidPath, 'utf8').trim());

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is missing: build first (npm test does)`);
    home = mkdtempSync(join(tmpdir(), 'sjgate-cli-e2e-'));
    port = await freePort();
    socketPath = join(home, `server-${port}.sock`);
    pidPath = join(home, `server-${port}.pid`);
    env = { ...process.env, SJ_HOME_PATH: home, SJ_HTTP_ADDR: `127.0.0.1:${port}`, NO_COLOR: '1' };
    for (const name of ['SJ_PRODUCTION', 'SJ_UDS_PATH', 'SJ_API_KEY', 'SJ_SEC_KEY', 'SJ_CA_PATH', 'SJ_CA_PASSWD']) {
      delete env[name];
    }
  });

  after(() => {
    sjgate('server', 'stop');
    if (existsSync(pidPath)) {
      const pid = daemonPid();
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    rmSync(home, { recursive: true, force: true });
  });

  test('server start runs the daemon in the background and says where it listens', () => {
    const run = sjgate('server', 'start');
    assert.equal(run.code, 0, run.stderr);
    const match = /sjgate is running \(simulation\) pid (\d+)/.exec(run.stdout);
    assert.ok(match, run.stdout);
    firstPid = Number(match[1]);
    assert.ok(run.stdout.includes(`http://127.0.0.1:${port}`));
    assert.match(run.stdout, new RegExp(`dashboard +http://127\\.0\\.0\\.1:${port}/\n`));
    assert.ok(run.stdout.includes(socketPath));
    assert.ok(run.stdout.includes(join(home, 'logs', `server-${port}.log`)));
    assert.equal(daemonPid(), firstPid);
    assert.ok(alive(firstPid));
  });

  test('server status reports a running, healthy simulation daemon', () => {
    const run = sjgate('server', 'status', '--format', 'json');
    assert.equal(run.code, 0, run.stderr);
    const status = parseJson(run);
    assert.equal(status.running, true);
    assert.equal(status.healthy, true);
    assert.equal(status.simulation, true);
    assert.equal(status.pid, firstPid);
    assert.equal(status.port, port);
    assert.equal(status.socket_path, socketPath);
    assert.equal(typeof status.stream_receivers, 'string');
    assert.equal('stream_status' in status, false);
  });

  test('server status --streams adds the stream status', () => {
    const status = parseJson(sjgate('server', 'status', '--streams', '--format', 'json'));
    const streams = status.stream_status as Record<string, unknown>;
    assert.equal(typeof streams.active_connections, 'number');
    assert.equal(streams.status, 'healthy');
  });

  test('a second server start reports the running daemon and starts no other', () => {
    const run = sjgate('server', 'start');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`already running \\(simulation\\) pid ${firstPid}\\b`));
    const json = parseJson(sjgate('server', 'start', '--format', 'json'));
    assert.equal(json.status, 'already_running');
    assert.equal(json.pid, firstPid);
    assert.equal(daemonPid(), firstPid);
    assert.equal(parseJson(sjgate('server', 'status', '--format', 'json')).pid, firstPid);
  });

  test('contracts get returns the contract JSON', () => {
    const run = sjgate('contracts', 'get', '2330', '--format', 'json');
    assert.equal(run.code, 0, run.stderr);
    const contract = parseJson(run);
    assert.equal(contract.security_type, 'STK');
    assert.equal(contract.exchange, 'TSE');
    assert.equal(contract.code, '2330');
    assert.equal(contract.region, 'TW');
  });

  test('contracts get of an unknown code exits 1 with the 404 message', () => {
    const run = sjgate('contracts', 'get', 'NOPE');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^error: \S.*/);
    assert.equal(run.stdout, '');
    const json = sjgate('contracts', 'get', 'NOPE', '--format', 'json');
    assert.equal(json.code, 1);
    const envelope = parseJson(json);
    assert.equal(envelope.code, 404);
    assert.equal(envelope.error, 'CONTRACT_NOT_FOUND');
    assert.ok(run.stderr.includes(`error: ${envelope.message as string}`));
  });

  test('contracts info shows the stock name', () => {
    const run = sjgate('contracts', 'info', '2330');
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.includes('台積電'), run.stdout);
  });

  test('contracts options filters by right and strike', () => {
    const run = sjgate(
      'contracts',
      'options',
      '--root',
      'TXO',
      '--right',
      'C',
      '--strike-min',
      '40000',
      '--strike-max',
      '41000',
      '--format',
      'json',
    );
    assert.equal(run.code, 0, run.stderr);
    const options = JSON.parse(run.stdout) as { option_right: string; strike_price: number }[];
    assert.ok(options.length > 0);
    for (const option of options) {
      assert.equal(option.option_right, 'C');
      assert.ok(option.strike_price >= 40000 && option.strike_price <= 41000, String(option.strike_price));
    }
  });

  test('auth accounts lists one stock and one futures account', () => {
    const run = sjgate('auth', 'accounts', '--format', 'json');
    assert.equal(run.code, 0, run.stderr);
    const accounts = JSON.parse(run.stdout) as { account_type: string }[];
    assert.deepEqual(accounts.map((account) => account.account_type).sort(), ['F', 'S']);
  });

  test('auth usage shows a bar and a percentage', () => {
    const run = sjgate('auth', 'usage');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /API Usage/);
    assert.match(run.stdout, /Connections: \d+/);
    assert.match(run.stdout, /Data Used: 0\.00 MB \/ 500\.00 MB \[\.{20}\] 0\.00%/);
    assert.match(run.stdout, /Remaining: 500\.00 MB/);
  });

  test('server stop stops the daemon; status then exits 3', () => {
    const run = sjgate('server', 'stop');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^stopped/);
    assert.equal(alive(firstPid), false);
    assert.equal(existsSync(pidPath), false);
    const status = sjgate('server', 'status', '--format', 'json');
    assert.equal(status.code, 3);
    const json = parseJson(status);
    assert.equal(json.running, false);
    assert.equal(json.pid, null);
    const again = sjgate('server', 'stop');
    assert.equal(again.code, 3);
    assert.match(again.stdout, /not running/);
  });

  test('a client command starts the daemon when none runs', () => {
    const run = sjgate('contracts', 'get', '2330', '--format', 'json');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /starting sjgate daemon\.\.\./);
    assert.equal(parseJson(run).code, '2330');
    const status = parseJson(sjgate('server', 'status', '--format', 'json'));
    assert.equal(status.running, true);
    assert.equal(status.healthy, true);
    assert.notEqual(status.pid, firstPid);
    assert.equal(status.pid, daemonPid());
  });
});

describe('sjgate CLI usage errors (no daemon needed)', () => {
  let home: string;
  let env: NodeJS.ProcessEnv;
  const sjgate = (...args: string[]): Run => {
    const result = spawnSync(process.execPath, [CLI, ...args], { cwd: home, env, encoding: 'utf8', timeout: 30_000 });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  before(async () => {
    home = mkdtempSync(join(tmpdir(), 'sjgate-cli-usage-'));
    env = { ...process.env, SJ_HOME_PATH: home, SJ_HTTP_ADDR: `127.0.0.1:${await freePort()}`, NO_COLOR: '1' };
  });
  after(() => rmSync(home, { recursive: true, force: true }));

  test('--version prints the package version', () => {
    const version = (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    ).version;
    const run = sjgate('--version');
    assert.equal(run.code, 0);
    assert.equal(run.stdout.trim(), `sjgate ${version}`);
  });

  test('the root help documents the exit codes', () => {
    const run = sjgate('--help');
    assert.equal(run.code, 0);
    assert.match(run.stdout, /Exit codes:[\s\S]*3\s+daemon not running/);
  });

  test('bad options exit 2 without touching the daemon', () => {
    for (const args of [
      ['--port', 'abc', 'auth', 'accounts'],
      ['contracts', 'list'],
      ['contracts', 'list', '--type', 'XYZ'],
      ['contracts', 'futures'],
      ['contracts', 'options', '--root', 'TXO', '--strike-min', 'low'],
      ['contracts', 'combo', '--legs', 'TXFG6'],
      ['auth', 'default-account', '--account', 'nodash'],
      ['--format', 'yaml', 'auth', 'accounts'],
    ]) {
      const run = sjgate(...args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.ok(run.stderr.length > 0);
      assert.doesNotMatch(run.stderr, /starting sjgate daemon/);
    }
    assert.equal(existsSync(join(home, 'logs')), false);
  });

  test('a configuration error exits 2 with its message', () => {
    const run = spawnSync(process.execPath, [CLI, 'auth', 'accounts'], {
      cwd: home,
      env: { ...env, SJ_HTTP_ADDR: 'nowhere' },
      encoding: 'utf8',
    });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^error: SJ_HTTP_ADDR must look like/);
  });

  test('server status and stop exit 3 when nothing runs', () => {
    const status = sjgate('server', 'status');
    assert.equal(status.code, 3);
    assert.match(
      status.stdout,
      /^sjgate is not running \(port \d+, socket \S+\); start it with `sjgate server start`$/m,
    );
    assert.equal(sjgate('server', 'stop').code, 3);
  });
});
